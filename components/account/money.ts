/**
 * Dollars and counts as the page's language writes them: "$0.12" / "0,12 $" / "US$0.12", "1,234" /
 * "1.234". A cost under a cent keeps four decimals, so it does not read as nothing.
 */
import { useFormatter } from "next-intl";

export function useMoney() {
  const format = useFormatter();
  return {
    usd: (n: number) => {
      const digits = n > 0 && n < 0.01 ? 4 : 2;
      return format.number(n, {
        style: "currency",
        currency: "USD",
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    },
    whole: (n: number) => format.number(Math.round(n)),
  };
}
