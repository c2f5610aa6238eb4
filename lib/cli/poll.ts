/**
 * `harness poll --timeline <uuid>`: poll mode for a laptop (docs/poll.md) — one long-lived
 * process watching one timeline, the journal on stderr. `--once` polls once and exits. SIGINT and
 * SIGTERM stop it cleanly (exit 0); a configuration, credential or start-up failure is ONE stderr
 * line `harness poll: <error>` and exit 1; a malformed flag is a usage error (2).
 */
import { writeStderr } from "../journal/output.ts";
import { oneLineError } from "../base/error_text.ts";
import { lazyImport } from "../base/lazy_import.ts";
import { type Command, UsageError, uuidArg } from "./command.ts";

const options = {
  timeline: { type: "string" },
  once: { type: "boolean" },
  interval: { type: "string" },
} as const;

/** What `harness poll` was asked to do. */
export interface PollRequest {
  readonly timeline: string;
  readonly once: boolean;
  readonly intervalMs: number;
  /** The environment (default: the process's). */
  readonly env?: Record<string, string>;
  /** Where the one-line error goes (default: stderr). */
  readonly stderr?: (line: string) => void;
}

/** Runs poll mode and resolves to the process exit code. */
export async function runPoll(request: PollRequest): Promise<number> {
  const env = request.env ?? Deno.env.toObject();
  const stderr = request.stderr ?? ((line: string) => writeStderr(line + "\n"));
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  // Loaded only now, so `harness poll --help` and usage errors pay for none of the runtime.
  // (lazyImport keeps the graph off Deno's start-up parse; see lib/base/lazy_import.ts.)
  const { TimelineAgent } = await lazyImport<typeof import("../poll/mod.ts")>("lib/poll/mod.ts");
  let agent: Awaited<ReturnType<typeof TimelineAgent.fromEnv>> | undefined;
  try {
    agent = await TimelineAgent.fromEnv(request.timeline, env);
    if (request.once) await agent.pollOnce({ signal: stop.signal });
    else await agent.run({ intervalMs: request.intervalMs, signal: stop.signal });
    return 0;
  } catch (error) {
    if (stop.signal.aborted) return 0; // a signal tore the turn down: that is the clean stop
    stderr(`harness poll: ${oneLineError(error)}`);
    return 1;
  } finally {
    await agent?.close();
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
  }
}

/** `harness poll`. */
export const pollCommand: Command<typeof options> = {
  name: "poll",
  usage: `Usage: harness poll --timeline <uuid> [--once] [--interval SECONDS]

Poll mode, for a laptop: watch one timeline from a long-lived process. The first
poll seeds the newest HARNESS_CONTEXT_MESSAGES messages (default 50, or 'all') as
context without answering them; after that, every new message from someone else is
engaged as its own turn, and the agent speaks only through its messages tool.
Reads the same environment as 'harness wake' (BASECRADLE_*, AI_*, HARNESS_*); keeps
nothing on disk. The journal goes to stderr; Ctrl-C stops it.

Options:
  --timeline <uuid>     the timeline to watch (or BASECRADLE_TIMELINE)
  --once                poll once and exit (the first poll only seeds the backlog)
  --interval SECONDS    pause between polls (default 2)

Exit codes: 0 stopped cleanly (or --once finished); 1 a configuration, credential
or platform failure (one line on stderr); 2 a usage error.
`,
  options,
  async run({ values }) {
    const timeline = uuidArg("timeline", values.timeline, "BASECRADLE_TIMELINE");
    if (!timeline) throw new UsageError("--timeline is required (or set BASECRADLE_TIMELINE)");
    return await runPoll({
      timeline,
      once: values.once === true,
      intervalMs: intervalMs(values.interval),
    });
  },
};

/** `--interval` in seconds (a positive number) as milliseconds; unset ⇒ 2 s. */
function intervalMs(raw: string | undefined): number {
  if (raw === undefined) return 2000;
  const seconds = Number(raw.trim());
  if (!raw.trim() || !Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400) {
    throw new UsageError(`--interval must be a number of seconds above 0, got '${raw}'`);
  }
  return Math.round(seconds * 1000);
}
