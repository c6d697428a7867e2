import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import type { Claim, DiffSource, VersionDiff } from "@/lib/research/ui";
import { safeHref } from "../markdown-safety";

const LINK = "text-blue-700 underline dark:text-blue-400";
const CARD = "rounded border border-neutral-300 p-3 dark:border-neutral-700";

function SourceLink({ source }: { source: DiffSource }) {
  return (
    <a href={safeHref(source.url)} target="_blank" rel="noopener noreferrer nofollow" className={LINK}>
      {source.title || source.url}
    </a>
  );
}

/** A claim: its sentence, and the URLs it cites. */
async function ClaimText({ claim }: { claim: Claim }) {
  const t = await getTranslations("versions");
  return (
    <div className="space-y-1">
      <p>{claim.text}</p>
      {claim.sources.length > 0 ? (
        <p className="text-sm text-muted">
          {t("cites")}{" "}
          {claim.sources.map((url, i) => (
            <span key={url}>
              {i > 0 ? ", " : ""}
              <SourceLink source={{ url, title: url }} />
            </span>
          ))}
        </p>
      ) : null}
    </div>
  );
}

function Section({ title, children, empty }: { title: string; children: ReactNode; empty: boolean }) {
  return (
    <section className="space-y-3">
      <h2 className="text-xl font-semibold">{title}</h2>
      {empty ? null : children}
    </section>
  );
}

/**
 * The diff of two versions in plain words: changed claims side by side (before | after), new
 * claims, claims left out, and the cited sources newly cited, no longer cited, or whose text changed.
 */
export async function ChangesView({ diff }: { diff: VersionDiff }) {
  const t = await getTranslations("versions");
  const { claims, sources } = diff;
  return (
    <div className="space-y-8">
      <Section
        title={t("changedClaims", { count: claims.changed.length })}
        empty={claims.changed.length === 0}
      >
        <ol className="space-y-3">
          {claims.changed.map((c) => (
            <li key={`${c.before.text}\u0000${c.after.text}`} className="grid gap-3 md:grid-cols-2">
              <div className={`${CARD} bg-red-50 dark:bg-red-950/40`}>
                <h3 className="mb-1 text-sm font-semibold">{t("before")}</h3>
                <ClaimText claim={c.before} />
              </div>
              <div className={`${CARD} bg-green-50 dark:bg-green-950/40`}>
                <h3 className="mb-1 text-sm font-semibold">{t("after")}</h3>
                <ClaimText claim={c.after} />
              </div>
            </li>
          ))}
        </ol>
      </Section>
      <div className="grid gap-8 md:grid-cols-2">
        <Section
          title={t("removedClaims", { count: claims.removed.length })}
          empty={claims.removed.length === 0}
        >
          <ul className="space-y-3">
            {claims.removed.map((c) => (
              <li key={c.text} className={CARD}>
                <ClaimText claim={c} />
              </li>
            ))}
          </ul>
        </Section>
        <Section title={t("addedClaims", { count: claims.added.length })} empty={claims.added.length === 0}>
          <ul className="space-y-3">
            {claims.added.map((c) => (
              <li key={c.text} className={CARD}>
                <ClaimText claim={c} />
              </li>
            ))}
          </ul>
        </Section>
      </div>
      <section className="space-y-3">
        <h2 className="text-xl font-semibold">{t("sourcesTitle")}</h2>
        {(
          [
            ["sourcesChanged", sources.changed],
            ["sourcesRemoved", sources.removed],
            ["sourcesAdded", sources.added],
          ] as const
        ).map(([key, list]) => (
          <div key={key} className="space-y-1">
            <h3 className="font-semibold">{t(key, { count: list.length })}</h3>
            {list.length > 0 ? (
              <ul className="ml-5 list-disc">
                {list.map((s) => (
                  <li key={s.url}>
                    <SourceLink source={s} /> <span className="text-sm text-muted">{s.url}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ))}
      </section>
    </div>
  );
}
