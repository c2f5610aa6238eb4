/**
 * Waiting on a condition instead of a fixed sleep: a test that must see something happen polls
 * for it with a deadline generous enough for a loaded machine, and fails naming what it waited
 * for. It holds no tests.
 */

/** Polls `check` every `everyMs` until it returns a truthy value, which it returns; throws after `ms`. */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  options: { readonly ms?: number; readonly everyMs?: number } = {},
): Promise<T> {
  const { ms = 30_000, everyMs = 20 } = options;
  const deadline = Date.now() + ms;
  while (true) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
