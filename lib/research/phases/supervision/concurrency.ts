/**
 * Runs `fn` over `items` with at most `limit` calls in flight, starting them in the items' order.
 * Results come back in input order. The first rejection stops new starts; the calls already in
 * flight are awaited (nothing is left running unobserved) and then that first error is thrown.
 * An aborted `signal` also stops new starts and rejects with its reason.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;

  const worker = async () => {
    while (!failure && next < items.length) {
      if (signal?.aborted) {
        failure ??= { error: signal.reason };
        return;
      }
      const index = next++;
      try {
        results[index] = await fn(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };

  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure) throw failure.error;
  return results;
}
