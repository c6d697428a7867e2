import { describe, expect, it } from "vitest";
import { containment, findNearDuplicate, jaccard, rejectFollowUp, topicTokens } from "./dedup.ts";

const earlier = [
  {
    id: "li",
    topic: "Lithium-ion home storage batteries in 2024: installed cost per kWh and warranted cycle life",
  },
  { id: "na", topic: "Sodium-ion batteries for residential storage: cell prices and safety certification" },
];

describe("topicTokens", () => {
  it("folds case, punctuation and function words", () => {
    expect([...topicTokens("The COST of Lithium-ion cells, in 2024!")]).toEqual([
      "cost",
      "lithium",
      "ion",
      "cells",
      "2024",
    ]);
  });

  it("splits unspaced scripts into character bigrams", () => {
    expect([...topicTokens("锂电池成本")]).toEqual(["锂电", "电池", "池成", "成本"]);
  });
});

describe("similarity", () => {
  it("jaccard and containment", () => {
    const a = new Set(["a", "b", "c", "d"]);
    const b = new Set(["a", "b", "c", "e"]);
    expect(jaccard(a, b)).toBeCloseTo(3 / 5);
    expect(containment(new Set(["a", "b"]), a)).toBe(1);
    expect(jaccard(new Set(), new Set())).toBe(1);
  });
});

describe("findNearDuplicate", () => {
  // [candidate, expected duplicate id or undefined]
  const cases: [string, string | undefined][] = [
    ["LITHIUM-ION HOME STORAGE BATTERIES IN 2024: INSTALLED COST PER KWH AND WARRANTED CYCLE LIFE", "li"],
    [
      "Lithium-ion home storage batteries 2024 — the installed cost per kWh, and the warranted cycle life",
      "li",
    ],
    ["Lithium-ion home storage batteries in 2024: installed price per kWh and warranted cycle life", "li"],
    ["Lithium-ion home storage batteries: fire incidents reported by regulators in 2024", undefined],
    ["Solid-state batteries for home storage: availability and projected cost", undefined],
  ];
  it.each(cases)("%s → %s", (topic, id) => {
    expect(findNearDuplicate(topic, earlier)?.id).toBe(id);
  });

  it("works for unspaced scripts", () => {
    const zh = [{ id: "zh", topic: "2024年家用锂电池储能系统的安装成本和循环寿命" }];
    expect(findNearDuplicate("2024年家用锂电池储能系统安装成本与循环寿命", zh)?.id).toBe("zh");
    expect(findNearDuplicate("钠离子电池的安全认证和火灾事故统计", zh)).toBeUndefined();
  });
});

describe("rejectFollowUp", () => {
  // [candidate, expected rejection kind or undefined]
  const cases: [string, string | undefined][] = [
    ["Battery costs", "too_vague"],
    ["Lithium-ion installed cost per kWh", "restatement"],
    ["Sodium-ion cell prices", "restatement"],
    ["Solid-state prices", "too_vague"],
    ["Sodium-ion batteries residential storage cell prices", "restatement"],
    [
      "lithium-ion home storage batteries in 2024: installed cost per kWh and warranted cycle life",
      "near_duplicate",
    ],
    [
      "Warranted cycle life of lithium-ion home batteries from Tesla, BYD and LG as stated in their 2024 warranty documents",
      undefined,
    ],
    [
      "Fire incident statistics for residential lithium-ion storage reported by German regulators 2020-2024",
      undefined,
    ],
  ];
  it.each(cases)("%s → %s", (topic, kind) => {
    expect(rejectFollowUp(topic, earlier)?.kind).toBe(kind);
  });
});
