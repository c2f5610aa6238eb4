/**
 * Independent end-to-end scenarios that spend their time waiting on child processes (a wake's
 * start-up, a held model call, a platform back-off) run side by side, while each one is still
 * declared with `Deno.test`, reported under its own name and fails on its own. It holds no tests.
 *
 * A test file makes one `new SideBySide(width)` and hands `Deno.test` what
 * `sideBySide.test(name, async () => { … })` returns, in place of the name and the function.
 *
 * When the test of scenario `i` runs, it queues scenarios `i … i + 2·width - 1` (those not queued
 * yet), and waits for scenario `i` alone, then rethrows its error. Queued scenarios start oldest
 * first, at most `width` at a time, so a slow scenario does not leave the other slots idle while
 * its test waits. Scenarios must therefore share nothing that one of them changes: each builds
 * its own world (sandbox, model mock, home). Deno's op and resource sanitizers are off for these
 * tests, as the scenarios started ahead hold timers, sockets and processes while an earlier test
 * finishes.
 *
 * A test cannot know which of the tests after it `--filter` left out, so a filtered run may also
 * run up to `2·width - 1` scenarios whose tests it skips; their outcome is dropped, and the file's
 * `afterAll` hook waits for every started scenario, so none is left running (or holding a
 * process or a temporary directory) when the test process exits.
 */

/** How many scenarios, in multiples of the width, a running test queues from its own on. */
const LOOKAHEAD = 2;

/** How a scenario ended: passed, or the error its body threw. */
type Outcome = { readonly ok: true } | { readonly ok: false; readonly error: unknown };

/** One registered scenario and, once started, its outcome. */
interface Scenario {
  readonly body: () => Promise<void>;
  outcome?: Promise<Outcome>;
}

/** A file's side-by-side scenarios; see the module comment. */
export class SideBySide {
  readonly #width: number;
  readonly #scenarios: Scenario[] = [];
  /** Queued scenarios not started yet, in the order they were queued (lowest index first). */
  readonly #queue: (() => Promise<void>)[] = [];
  #running = 0;

  /** `width`: how many scenarios run at once (at least 1; 1 runs them one by one). */
  constructor(width: number) {
    if (!Number.isInteger(width) || width < 1) {
      throw new RangeError(`width must be a whole number of at least 1, not ${width}`);
    }
    this.#width = width;
    Deno.test.afterAll(() => this.#drain());
  }

  /** A test definition for `Deno.test` that runs `body` side by side with the next scenarios. */
  test(name: string, body: () => Promise<void>): Deno.TestDefinition {
    const index = this.#scenarios.length;
    const scenario: Scenario = { body };
    this.#scenarios.push(scenario);
    return {
      name,
      sanitizeOps: false,
      sanitizeResources: false,
      fn: async () => {
        const end = Math.min(index + LOOKAHEAD * this.#width, this.#scenarios.length);
        for (let i = index; i < end; i++) this.#start(this.#scenarios[i]);
        const outcome = await scenario.outcome!;
        if (!outcome.ok) throw outcome.error;
      },
    };
  }

  /** Queues a scenario once; its outcome never rejects, so one started early cannot go unhandled. */
  #start(scenario: Scenario): void {
    scenario.outcome ??= new Promise((settle) => {
      this.#queue.push(() =>
        Promise.resolve().then(scenario.body).then(
          (): Outcome => ({ ok: true }),
          (error: unknown): Outcome => ({ ok: false, error }),
        ).then(settle)
      );
      this.#pump();
    });
  }

  /** Starts queued scenarios, oldest first, while fewer than `width` run. */
  #pump(): void {
    while (this.#running < this.#width && this.#queue.length > 0) {
      const run = this.#queue.shift()!;
      this.#running++;
      run().finally(() => {
        this.#running--;
        this.#pump();
      });
    }
  }

  /** Waits for every started scenario (those of filtered-out tests included). */
  async #drain(): Promise<void> {
    await Promise.all(this.#scenarios.map((s) => s.outcome));
  }
}
