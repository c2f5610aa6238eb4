/**
 * `harness wake`: one platform event, one process. Reads top to bottom as the order of operations
 * (docs/operating.md#what-a-wake-does-in-order): configuration → the model and the platform → `wake start` → breaker →
 * remember (load the transcript) → claim / assemble / reason-and-act / record, per kind in the
 * fixed order messages, assets, webhook events, tasks → release settled evidence → `wake end`.
 *
 * Exit codes: 0 for a wake that ran (including nothing to do, a breaker decline, a reported
 * provider failure, and a deleted timeline's skip); 1 for a configuration, credential or platform
 * failure, with ONE stderr line `ERROR harness wake: <error>` and never a stack trace.
 */
import { writeStderr } from "../journal/output.ts";
import { wakeEnd, wakeSkipped, wakeStart } from "../journal/catalogue_wake.ts";
import { type Span, withSpan } from "../journal/journal.ts";
import { noteWake } from "../home/last_wake.ts";
import { closeMemoryProvider } from "../memory/hooks.ts";
import { assemble } from "./assemble.ts";
import { guardBudget, releaseBudget } from "./budget_gate.ts";
import { releaseSettledEvidence } from "./evidence.ts";
import { catchUp } from "./catch_up.ts";
import { ALL_KINDS, readAhead } from "./read_ahead.ts";
import { reconcileKinds } from "./reconcile_kinds.ts";
import { earlyJournal, reportFailure } from "./wake_journal.ts";
import { sourceOf, type Wake, type WakeTriggers } from "./wake_state.ts";

/** What `harness wake` was asked to do. */
export interface WakeRequest {
  readonly timeline: string;
  readonly triggers: WakeTriggers;
  /** The environment (default: the process's). */
  readonly env?: Record<string, string>;
  /** Where the one-line error goes (default: stderr). */
  readonly stderr?: (line: string) => void;
  /** The name that one line carries after its level (default `harness wake`; a wrapper's name). */
  readonly label?: string;
}

/** Runs one wake and resolves to the process exit code. */
export async function runWake(request: WakeRequest): Promise<number> {
  const rawEnv = request.env ?? Deno.env.toObject();
  const label = request.label ?? "harness wake";
  // Levelled like a journal line (`ERROR …`), so the fleet's log parser files it as an error
  // rather than shipping it unclassified.
  const stderr = (line: string) =>
    (request.stderr ?? ((text: string) => writeStderr(text + "\n")))(`ERROR ${label}: ${line}`);
  const { timeline } = request;
  // Logging first, so even a refused configuration leaves its `wake failed` line.
  const journal = earlyJournal(rawEnv);
  const delivery = rawEnv.BASECRADLE_DELIVERY_ID?.trim() || undefined;
  let wake: Wake | undefined;
  try {
    // The trace span opens before the assembly, whose timeline and dashboard reads are the
    // wake's first platform calls: they belong to its trace (docs/journal.md#traces).
    const attributes = { "harness.timeline": timeline, "harness.delivery": delivery };
    await withSpan(journal, "wake", attributes, async (span) => {
      const assembled = await assemble(timeline, request.triggers, rawEnv, journal);
      if (assembled === "skip") {
        span.setAttributes({ "harness.outcome": "skipped" });
        wakeSkipped(journal, { timeline, delivery });
        return;
      }
      wake = assembled;
      await run(wake, span);
    });
    return 0;
  } catch (error) {
    return reportFailure({ journal, stderr, timeline, delivery }, error);
  } finally {
    await wake?.loaded.mcp?.close(); // never throws; ends every server process group
    if (wake) await closeMemoryProvider(wake.memory, journal);
  }
}

/**
 * The wake proper, inside its trace span (docs/journal.md#traces): bookends, remember, the four
 * reconciles (each item past the breaker's gate), evidence release, in order.
 */
async function run(wake: Wake, span: Span): Promise<void> {
  span.setAttributes({
    "gen_ai.provider.name": wake.env.aiProvider,
    "gen_ai.request.model": wake.settings.model,
  });
  const outcome = await steps(wake);
  span.setAttributes({
    "harness.outcome": outcome,
    "harness.turns": wake.engine.turns,
    "harness.steps": wake.engine.steps,
    "harness.posted": wake.posts + wake.context.spoken,
  });
}

/** The steps of {@link run}; resolves to the `wake end` outcome (`ok` or `declined`). */
async function steps(wake: Wake): Promise<"ok" | "declined"> {
  const { timeline, home, model } = wake.settings;
  const { env } = wake;
  const delivery = env.deliveryId;
  const started = performance.now();
  wakeStart(wake.journal, {
    timeline,
    trigger: wake.triggers,
    provider: env.aiProvider,
    model,
    delivery,
  });
  let outcome: "ok" | "error" | "declined" = "error";
  try {
    await guardBudget(wake); // docs/operating.md#the-budget-guard
    // remember, while the four first reads start and the wake notes its start for `harness
    // status` (awaited together, so any one's failure is this wake's error, reported like any
    // other)
    [wake.messages, wake.readAhead] = await Promise.all([
      wake.store.load(sourceOf(timeline)),
      readAhead(wake),
      noteWake(home, timeline),
    ]);
    await reconcileKinds(wake, ALL_KINDS);
    // every item created inside the start second is this wake's (docs/operating.md#catch-up-before-exit)
    await catchUp(wake, async (kinds) => {
      wake.catchingUp = true;
      wake.readAhead = await readAhead(wake, kinds);
      await reconcileKinds(wake, kinds);
    });
    // last: it reads the claims the reconciles have just settled
    await releaseSettledEvidence(wake);
    // Declined: the breaker held at least one item back (docs/operating.md#the-wake-breaker).
    outcome = wake.breaker.declined > 0 ? "declined" : "ok";
    return outcome;
  } finally {
    await releaseBudget(wake); // a lease whose item went to another wake
    wakeEnd(wake.journal, {
      timeline,
      outcome,
      turns: wake.engine.turns,
      steps: wake.engine.steps,
      maxSteps: env.maxSteps,
      posted: wake.posts + wake.context.spoken,
      seconds: (performance.now() - started) / 1000,
      delivery,
    });
  }
}
