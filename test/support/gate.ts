// Test-only: a promise the test opens by hand. A write held behind it until some call is made shows
// which of the two came first.
export function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    open: () => open(),
    opened,
    /** Resolves once opened, or after `ms`: code that never opens it fails an assertion instead of hanging. */
    openedOrAfter: (ms = 2000) =>
      Promise.race([opened, new Promise<void>((resolve) => setTimeout(resolve, ms))]),
  };
}
