// Test-only: polls a condition every 5 ms until it holds or `ms` pass, and answers whether it holds
// (a test asserts the answer, so a condition that never comes fails instead of hanging).
export async function until(check: () => boolean, ms = 2000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  return check();
}
