import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import type { ResearchEvent } from "@/lib/research/events";
import en from "../../messages/en.json";
import { toEntry } from "./activity-model";
import { describeSwitch, modelNotices } from "./model-notices";

const t = createTranslator({ locale: "en", messages: en });
const entries = (events: ResearchEvent[]) => events.map((e, i) => toEntry({ ...e, seq: i + 1 }));
const failover = (role: string, reason: "auth" | "unavailable", detail: string): ResearchEvent => ({
  type: "model.failover",
  role,
  from: "openai:gpt-5.1",
  to: "anthropic:claude-sonnet-4-5",
  reason,
  detail,
});

describe("model notices", () => {
  it("says nothing for a run on its first models", () => {
    expect(modelNotices(entries([{ type: "run.created", question: "q", settings: {} }]))).toEqual({
      switches: [],
      leftOut: [],
    });
  });

  it("counts switches per pair of models and reason, across roles, keeping the latest words", () => {
    const { switches } = modelNotices(
      entries([
        failover("supervisor", "auth", "HTTP 401: bad key"),
        failover("researcher", "auth", "HTTP 401: still a bad key"),
        failover("researcher", "unavailable", "HTTP 500: down"),
      ]),
    );
    expect(switches).toEqual([
      expect.objectContaining({ reason: "auth", count: 2, detail: "HTTP 401: still a bad key" }),
      expect.objectContaining({ reason: "unavailable", count: 1 }),
    ]);
    expect(describeSwitch(switches[0], t)).toBe(
      "Calls went from openai:gpt-5.1 to anthropic:claude-sonnet-4-5 2 times: the provider refused the key.",
    );
    expect(describeSwitch(switches[1], t)).toMatch(
      / once: the provider stayed unavailable through the retries\.$/,
    );
  });

  it("lists the models left out when the run was created", () => {
    const warnings = [
      "MODEL=google:gemini-2.5-flash: set GOOGLE_GENERATIVE_AI_API_KEY (left out for researcher)",
    ];
    expect(
      modelNotices(entries([{ type: "run.created", question: "q", settings: {}, warnings }])).leftOut,
    ).toEqual(warnings);
  });
});
