"use client";

import { useEffect, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DirectiveCoverageRow, RoundCoverageRow } from "./coverage-data";

/**
 * Recharts measures the browser, so a chart draws after mount, inside a box whose height is fixed
 * from the start: the server renders the same box, and nothing below it moves when the chart appears.
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
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return (
    <div role="img" aria-label={label} data-testid={testId} style={{ height }} className="w-full text-xs">
      {mounted && (
        <ResponsiveContainer width="100%" height={height}>
          {children}
        </ResponsiveContainer>
      )}
    </div>
  );
}

const tiers = [
  { key: "HIGH", name: "High quality", fill: "#15803d" },
  { key: "MEDIUM", name: "Medium quality", fill: "#2563eb" },
  { key: "LOW", name: "Low quality", fill: "#d97706" },
  { key: "UNKNOWN", name: "Quality unknown", fill: "#71717a" },
] as const;

/** Sources read per directive, stacked by quality. */
export function DirectiveCoverageChart({ rows }: { rows: DirectiveCoverageRow[] }) {
  const height = 56 + rows.length * 32;
  const data = rows.map((r) => ({ label: r.label, ...r.quality }));
  return (
    <ChartFrame
      label="Chart of the sources read per directive by quality; the table below has the numbers"
      testId="coverage-chart"
      height={height}
    >
      <BarChart
        data={data}
        layout="vertical"
        accessibilityLayer={false}
        margin={{ top: 4, right: 12, bottom: 4, left: 4 }}
      >
        <CartesianGrid horizontal={false} strokeOpacity={0.3} />
        <XAxis type="number" allowDecimals={false} tick={{ fill: "currentColor" }} />
        <YAxis type="category" dataKey="label" width={112} tick={{ fill: "currentColor" }} />
        <Tooltip />
        <Legend />
        {tiers.map((t) => (
          <Bar
            key={t.key}
            dataKey={t.key}
            name={t.name}
            stackId="quality"
            fill={t.fill}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ChartFrame>
  );
}

/** Coverage measured after each round, in percent. */
export function RoundCoverageChart({ rows }: { rows: RoundCoverageRow[] }) {
  const height = 160;
  const data = rows.map((r) => ({
    label: `Round ${r.round}`,
    coverage: r.coverage === null ? 0 : Math.round(r.coverage * 100),
  }));
  return (
    <ChartFrame
      label="Chart of the coverage after each round; the table below has the numbers"
      testId="round-coverage-chart"
      height={height}
    >
      <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid vertical={false} strokeOpacity={0.3} />
        <XAxis dataKey="label" tick={{ fill: "currentColor" }} />
        <YAxis domain={[0, 100]} unit="%" width={44} tick={{ fill: "currentColor" }} />
        <Tooltip />
        <Bar dataKey="coverage" name="Coverage" unit="%" fill="#2563eb" isAnimationActive={false} />
      </BarChart>
    </ChartFrame>
  );
}
