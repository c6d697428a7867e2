"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/**
 * The coverage charts' drawing, with recharts: loaded on its own (coverage-chart.tsx) when a chart
 * comes on screen, so the run page and its report do not wait for the chart library.
 */

const tiers = [
  { key: "HIGH", fill: "#15803d" },
  { key: "MEDIUM", fill: "#2563eb" },
  { key: "LOW", fill: "#d97706" },
  { key: "UNKNOWN", fill: "#71717a" },
] as const;

type Tier = (typeof tiers)[number]["key"];
export type DirectiveBarsRow = { label: string } & Record<Tier, number>;

/** Sources read per directive, stacked by quality (`tierNames`: each quality in the page's language). */
export function DirectiveBars({
  data,
  height,
  tierNames,
}: {
  data: DirectiveBarsRow[];
  height: number;
  tierNames: Record<Tier, string>;
}) {
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
            name={tierNames[t.key]}
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
export function RoundBars({
  data,
  height,
  name,
}: {
  data: { label: string; coverage: number }[];
  height: number;
  /** The bars' name in the legend and tooltip ("Coverage"). */
  name: string;
}) {
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid vertical={false} strokeOpacity={0.3} />
        <XAxis dataKey="label" tick={{ fill: "currentColor" }} />
        <YAxis domain={[0, 100]} unit="%" width={44} tick={{ fill: "currentColor" }} />
        <Tooltip />
        <Bar dataKey="coverage" name={name} unit="%" fill="#2563eb" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
