/**
 * What the run page says about the run's models, from its stored events: the switches to another
 * model of a chain (one line per pair of models and reason, with how often and the provider's last
 * words) and the models left out when the run was created. Pure functions.
 */
import type { ActivityEntry } from "./activity-model";
import { failoverLabel } from "./describe-event";
import type { Translate } from "./run-words";

export interface ModelSwitch {
  from: string;
  to: string;
  reason: string;
  count: number;
  /** The provider's message of the latest switch of this kind. */
  detail: string;
}

export interface ModelNotices {
  switches: ModelSwitch[];
  leftOut: string[];
}

export function modelNotices(activity: readonly ActivityEntry[]): ModelNotices {
  const switches = new Map<string, ModelSwitch>();
  const leftOut: string[] = [];
  for (const { event } of activity) {
    if (event.type === "run.created") leftOut.push(...(event.warnings ?? []));
    if (event.type !== "model.failover") continue;
    const key = `${event.from}\u0000${event.to}\u0000${event.reason}`;
    const known = switches.get(key);
    if (known) {
      known.count++;
      known.detail = event.detail;
    } else {
      switches.set(key, {
        from: event.from,
        to: event.to,
        reason: event.reason,
        count: 1,
        detail: event.detail,
      });
    }
  }
  return { switches: [...switches.values()], leftOut };
}

/** One sentence per switch: "Calls went from A to B 3 times: the provider refused the key." */
export function describeSwitch(s: ModelSwitch, t: Translate): string {
  return t("run.models.switch", {
    from: s.from,
    to: s.to,
    count: s.count,
    reason: failoverLabel(t, s.reason),
  });
}
