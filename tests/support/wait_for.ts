/**
 * Waiting on a condition instead of a fixed sleep: a test that must see something happen polls
 * for it with a deadline generous enough for a loaded machine, and fails naming what it waited
 * for. It holds no tests.
 */

/**
 * Polls `check` every `everyMs` until it returns a truthy value, which it returns; throws after
 * `ms`, with `detail()` (e.g. a child's stderr so far) after the message.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  options: {
    readonly ms?: number;
    readonly everyMs?: number;
    readonly detail?: () => string;
  } = {},
): Promise<T> {
  const { ms = 30_000, everyMs = 20, detail } = options;
  const deadline = Date.now() + ms;
  while (true) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      const more = detail ? `\n${detail()}` : "";
      throw new Error(`timed out after ${ms} ms waiting for ${what}${more}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
