/** What the person stores against their quotas, on the account page: used of the limit, per quota. */
import { formatBytes, type QuotaName, type QuotaUse } from "@/lib/jobs/quotas";

const quotaLabels: Record<QuotaName, { title: string; makeRoom: string }> = {
  library: { title: "Library documents", makeRoom: "Delete documents to make room." },
  sourceText: {
    title: "Page text kept by your runs",
    makeRoom: "Delete runs to make room; a run that reaches the limit stops.",
  },
};

export function StoragePanel({ storage }: { storage: Record<QuotaName, QuotaUse> }) {
  return (
    <dl className="max-w-md space-y-4 text-sm" data-testid="storage-panel">
      {(Object.keys(quotaLabels) as QuotaName[]).map((name) => {
        const { usedBytes, limitBytes, variable } = storage[name];
        const share = limitBytes ? Math.min(1, usedBytes / limitBytes) : 0;
        return (
          <div key={name} className="space-y-1" data-testid={`storage-${name}`}>
            <dt className="font-medium">{quotaLabels[name].title}</dt>
            <dd>
              {limitBytes ? (
                <>
                  {formatBytes(usedBytes)} of {formatBytes(limitBytes)} used
                  <meter
                    className="mt-1 block h-2 w-full"
                    min={0}
                    max={1}
                    low={0.8}
                    high={0.95}
                    optimum={0}
                    value={share}
                    aria-label={`${quotaLabels[name].title}: ${Math.round(share * 100)}% of the limit used`}
                  />
                  <span className="block text-xs text-muted">
                    {share >= 1 ? `Full. ${quotaLabels[name].makeRoom} ` : ""}The limit is set by {variable}.
                  </span>
                </>
              ) : (
                <>{formatBytes(usedBytes)} used (no limit on this server)</>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
