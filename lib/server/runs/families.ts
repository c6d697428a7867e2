/**
 * The run list's grouping: one entry per report, with the runs that research it deeper and its
 * later versions under it. A run belongs to the family of its oldest listed ancestor (following
 * `parentId` and `versionOf`); one whose ancestors are not in the list (deleted, beyond the list's
 * limit, or filtered out by a search) heads its own entry.
 */
interface Related {
  id: string;
  parentId: string | null;
  versionOf: string | null;
}

export interface RunFamily<T extends Related> {
  run: T;
  /** Follow-up runs and versions, oldest first. */
  related: T[];
}

/** `runs` newest first (as listed); families keep the place of their newest member. */
export function groupRunFamilies<T extends Related>(runs: readonly T[]): RunFamily<T>[] {
  const byId = new Map(runs.map((r) => [r.id, r] as const));
  const rootOf = (run: T): T => {
    const seen = new Set<string>();
    let current = run;
    for (;;) {
      seen.add(current.id);
      const up = [current.parentId, current.versionOf]
        .map((id) => (id ? byId.get(id) : undefined))
        .find((r) => r && !seen.has(r.id));
      if (!up) return current;
      current = up;
    }
  };
  const families = new Map<string, RunFamily<T>>();
  for (const run of runs) {
    const root = rootOf(run);
    const family = families.get(root.id) ?? { run: root, related: [] };
    families.set(root.id, family);
    if (root.id !== run.id) family.related.unshift(run);
  }
  return [...families.values()];
}
