"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useMoney } from "./money";

export interface CostDay {
  day: string;
  costUsd: number;
}

const HEIGHT = 180;

/**
 * Cost per day as bars. Recharts measures the browser, so the chart draws after mount inside a box
 * whose height is fixed from the start (the server renders the same empty box).
 */
export function CostByDayChart({ days, label, testId }: { days: CostDay[]; label: string; testId: string }) {
  const [mounted, setMounted] = useState(false);
  const t = useTranslations("account.usage");
  const { usd } = useMoney();
  useEffect(() => setMounted(true), []);
  const data = days.map((d) => ({ day: d.day.slice(5), cost: Number(d.costUsd.toFixed(4)) }));
  return (
    <div
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ height: HEIGHT }}
      className="w-full text-xs"
    >
      {mounted && (
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <BarChart data={data} accessibilityLayer={false} margin={{ top: 4, right: 12, bottom: 4, left: 4 }}>
            <CartesianGrid vertical={false} strokeOpacity={0.3} />
            <XAxis
              dataKey="day"
              tick={{ fill: "currentColor" }}
              interval="preserveStartEnd"
              minTickGap={16}
            />
            <YAxis width={56} tick={{ fill: "currentColor" }} tickFormatter={(v: number) => usd(v)} />
            <Tooltip formatter={(v) => [usd(Number(v)), t("cost")]} />
            <Bar dataKey="cost" name={t("costUsd")} fill="#2563eb" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      )}
    </div>
  );
}
