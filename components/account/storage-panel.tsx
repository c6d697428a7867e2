/** What the person stores against their quotas, on the account page: used of the limit, per quota. */
import { useTranslations } from "next-intl";
import type { QuotaName, QuotaUse } from "@/lib/jobs/quotas";
import { useByteSize } from "./byte-size";

const quotaNames: QuotaName[] = ["library", "sourceText"];

export function StoragePanel({ storage }: { storage: Record<QuotaName, QuotaUse> }) {
  const t = useTranslations("account.storage");
  const size = useByteSize();
  return (
    <dl className="max-w-md space-y-4 text-sm" data-testid="storage-panel">
      {quotaNames.map((name) => {
        const { usedBytes, limitBytes, variable } = storage[name];
        const share = limitBytes ? Math.min(1, usedBytes / limitBytes) : 0;
        const title = t(`${name}.title`);
        return (
          <div key={name} className="space-y-1" data-testid={`storage-${name}`}>
            <dt className="font-medium">{title}</dt>
            <dd>
              {limitBytes ? (
                <>
                  {t("used", { used: size(usedBytes), limit: size(limitBytes) })}
                  <meter
                    className="mt-1 block h-2 w-full"
                    min={0}
                    max={1}
                    low={0.8}
                    high={0.95}
                    optimum={0}
                    value={share}
                    aria-label={t("meter", { title, share: Math.round(share * 100) / 100 })}
                  />
                  <span className="block text-xs text-muted">
                    {share >= 1 ? `${t("full", { makeRoom: t(`${name}.makeRoom`) })} ` : ""}
                    {t("limitBy", { variable })}
                  </span>
                </>
              ) : (
                t("unlimited", { used: size(usedBytes) })
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
