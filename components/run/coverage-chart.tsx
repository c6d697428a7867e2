"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import type { DirectiveCoverageRow, RoundCoverageRow } from "./coverage-data";

// Recharts is about 40 % of the run page's JavaScript. It is fetched when a chart first comes near
// the screen (a finished run keeps them in the Supervision tab), not with the page: the report and
// its citation cards never wait for it.
const DirectiveBars = dynamic(() => import("./coverage-bars").then((m) => m.DirectiveBars), { ssr: false });
const RoundBars = dynamic(() => import("./coverage-bars").then((m) => m.RoundBars), { ssr: false });

/**
 * Recharts measures the browser, so a chart draws in the browser, inside a box whose height is
 * fixed from the start: the server renders the same box, and nothing below it moves when the chart
 * appears. The chart is drawn once the box is on (or near) the screen.
 */
function ChartFrame({
  label,
  testId,
  height,
  children,
}: {
  label: string;
  testId: string;
  height: number;
  children: React.ReactElement;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const seen = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          seen.disconnect();
        }
      },
      { rootMargin: "100% 0px" },
    );
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ height }}
      className="w-full text-xs"
    >
      {near && children}
    </div>
  );
}

/** Sources read per directive, stacked by quality. */
export function DirectiveCoverageChart({ rows }: { rows: DirectiveCoverageRow[] }) {
  const t = useTranslations("run");
  const height = 56 + rows.length * 32;
  const data = rows.map((r) => ({ label: r.label, ...r.quality }));
  return (
    <ChartFrame label={t("coverage.directiveChart")} testId="coverage-chart" height={height}>
      <DirectiveBars
        data={data}
        height={height}
        tierNames={{
          HIGH: t("quality.HIGH"),
          MEDIUM: t("quality.MEDIUM"),
          LOW: t("quality.LOW"),
          UNKNOWN: t("quality.UNKNOWN"),
        }}
      />
    </ChartFrame>
  );
}

/** Coverage measured after each round, in percent. */
export function RoundCoverageChart({ rows }: { rows: RoundCoverageRow[] }) {
  const t = useTranslations("run.coverage");
  const height = 160;
  const data = rows.map((r) => ({
    label: t("roundN", { round: r.round }),
    coverage: r.coverage === null ? 0 : Math.round(r.coverage * 100),
  }));
  return (
    <ChartFrame label={t("roundChart")} testId="round-coverage-chart" height={height}>
      <RoundBars data={data} height={height} name={t("coverage")} />
    </ChartFrame>
  );
}
