"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { FormError, FormNotice, inputClass, smallButton } from "../account/form-parts";
import { api } from "../api-client";
import { DataTable } from "../data-table";
import { useFormState } from "../use-form-state";

export interface LimitsRow {
  id: string;
  name: string;
  email: string;
  maxConcurrentRuns: number | null;
  monthlyCostLimitUsd: number | null;
}

/** A blank field is "the server's default" (null); anything else must be a number. */
const fromField = (value: string) => (value.trim() === "" ? null : Number(value));
const toField = (value: number | null) => (value === null ? "" : String(value));

function LimitsForm({
  row,
  busy,
  onSave,
}: {
  row: LimitsRow;
  busy: boolean;
  onSave: (r: LimitsRow) => void;
}) {
  const [runs, setRuns] = useState(toField(row.maxConcurrentRuns));
  const [cost, setCost] = useState(toField(row.monthlyCostLimitUsd));
  const base = `limits-${row.id}`;
  const t = useTranslations("admin.limits");
  return (
    <tr className="align-top" data-testid={`limits-${row.email}`}>
      <td className="px-3 py-2">
        <span className="font-medium">{row.name}</span>
        <span className="block text-xs text-muted">{row.email}</span>
      </td>
      <td className="px-3 py-2">
        <label htmlFor={`${base}-runs`} className="sr-only">
          {t("runsLabel", { email: row.email })}
        </label>
        <input
          id={`${base}-runs`}
          type="number"
          min={1}
          step={1}
          placeholder={t("default")}
          value={runs}
          onChange={(e) => setRuns(e.target.value)}
          className={`${inputClass} w-28`}
        />
      </td>
      <td className="px-3 py-2">
        <label htmlFor={`${base}-cost`} className="sr-only">
          {t("costLabel", { email: row.email })}
        </label>
        <input
          id={`${base}-cost`}
          type="number"
          min={0.01}
          step={0.01}
          placeholder={t("none")}
          value={cost}
          onChange={(e) => setCost(e.target.value)}
          className={`${inputClass} w-32`}
        />
      </td>
      <td className="px-3 py-2 text-right">
        <button
          type="button"
          disabled={busy}
          className={smallButton}
          onClick={() =>
            onSave({ ...row, maxConcurrentRuns: fromField(runs), monthlyCostLimitUsd: fromField(cost) })
          }
        >
          {t("save")}
        </button>
      </td>
    </tr>
  );
}

/** Per-person limits: runs in progress at once and cost per calendar month (UTC); blank = default. */
export function UserLimitsTable({ rows }: { rows: LimitsRow[] }) {
  const router = useRouter();
  const { busy, error, notice, run } = useFormState();
  const t = useTranslations("admin.limits");

  async function save(row: LimitsRow) {
    const body = { maxConcurrentRuns: row.maxConcurrentRuns, monthlyCostLimitUsd: row.monthlyCostLimitUsd };
    const url = `/api/admin/users/${encodeURIComponent(row.id)}/limits`;
    if (await run(() => api(url, { method: "PUT", body }), { notice: t("saved", { name: row.name }) })) {
      router.refresh();
    }
  }

  return (
    <div className="space-y-3">
      <FormError message={error} />
      <FormNotice message={notice} />
      <DataTable
        label={t("table")}
        columns={[{ name: t("account") }, { name: t("runs") }, { name: t("cost") }]}
      >
        {rows.map((r) => (
          <LimitsForm key={r.id} row={r} busy={busy} onSave={save} />
        ))}
      </DataTable>
    </div>
  );
}
