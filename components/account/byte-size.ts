/**
 * A size in KB or MB as the page's language writes the number ("1.5 MB", "1,5 MB"), rounded the way
 * lib/jobs/quotas.ts's `formatBytes` rounds for the API's English messages.
 */
import { useTranslations } from "next-intl";

const KB = 1024;
const MB = 1024 * KB;

/** The number and unit of a size: whole KB under a megabyte, then MB to one decimal under ten. */
export function byteSize(bytes: number): { unit: "kb" | "mb"; value: number } {
  if (bytes < MB) return { unit: "kb", value: Math.ceil(bytes / KB) };
  const mb = bytes / MB;
  return { unit: "mb", value: mb >= 10 || Number.isInteger(mb) ? Math.round(mb) : Math.round(mb * 10) / 10 };
}

/** `(bytes) => "11 KB"` in the page's language. */
export function useByteSize(): (bytes: number) => string {
  const t = useTranslations("account.bytes");
  return (bytes) => {
    const { unit, value } = byteSize(bytes);
    return t(unit, { value });
  };
}
