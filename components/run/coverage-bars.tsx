"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/**
 * The coverage charts' drawing, with recharts: loaded on its own (coverage-chart.tsx) when a chart
 * comes on screen, so the run page and its report do not wait for the chart library.
 */

const tiers = [
  { key: "HIGH", name: "High quality", fill: "#15803d" },
  { key: "MEDIUM", name: "Medium quality", fill: "#2563eb" },
  { key: "LOW", name: "Low quality", fill: "#d97706" },
  { key: "UNKNOWN", name: "Quality unknown", fill: "#71717a" },
] as const;

export type DirectiveBarsRow = { label: string } & Record<(typeof tiers)[number]["key"], number>;

/** Sources read per directive, stacked by quality. */
export function DirectiveBars({ data, height }: { data: DirectiveBarsRow[]; height: number }) {
  return (
    <ResponsiveContainer width="100%" height={height}>
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
    </ResponsiveContainer>
  );
}

/** Coverage measured after each round, in percent. */
export function RoundBars({ data, height }: { data: { label: string; coverage: number }[]; height: number }) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid vertical={false} strokeOpacity={0.3} />
        <XAxis dataKey="label" tick={{ fill: "currentColor" }} />
        <YAxis domain={[0, 100]} unit="%" width={44} tick={{ fill: "currentColor" }} />
        <Tooltip />
        <Bar dataKey="coverage" name="Coverage" unit="%" fill="#2563eb" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
