/**
 * `harness log-grammar <column>`: proves the lines a fleet alarm matches are still the lines this
 * build writes (docs/operating.md#harness-log-grammar). The billing needles appear only when a
 * vendor account runs dry, so nothing on a healthy box exercises them; this renders both through
 * the production renderers, stamped `source=probe` (which keeps them off the alarm), writes them
 * to journald under its own identifier and reads them back.
 *
 * Exit 0 proven; 1 written but not read back; 75 (EX_TEMPFAIL) could not ask: wrong arguments,
 * an unknown column, no journald, a failed write, no `journalctl`.
 */
import { billingBlocked, billingOnset } from "../journal/catalogue_wake.ts";
import { JournalUnavailable, readBack, sendToJournal } from "../journal/journald.ts";
import { type EnvGetter, processEnv } from "../journal/render.ts";
import { MemoryJournal } from "../journal/stream_journal.ts";
import { LOG_GRAMMAR_COLUMNS, LOG_GRAMMAR_IDENTIFIER } from "../install/capability_manifest.ts";
import { agentSlug } from "./claims.ts";
import { type Command, type Io, processIo } from "./command.ts";

/** "We ran and could not determine the answer": distinct from 1, "the capability is broken". */
export const EX_TEMPFAIL = 75;
/** The `reason=` the probe lines carry: a bare token that says what they are. */
export const PROBE_REASON = "log_grammar_probe";

/** The billing_blocked probe lines, as the journal receives them (level word included). */
export function probeLines(agent: string, env: EnvGetter = processEnv): string[] {
  // Coloured unless NO_COLOR, exactly as the real failure path renders them.
  const journal = new MemoryJournal({ env, minLevel: "INFO" });
  // No provider= on purpose: other columns key on it, and a probe must not feed them.
  const fields = { reason: PROBE_REASON, source: "probe", agent };
  billingOnset(journal, fields, "INFO");
  billingBlocked(journal, fields, "INFO");
  return [...journal.lines];
}

/** What {@link runLogGrammar} is given. */
export interface LogGrammarRun {
  readonly args: readonly string[];
  readonly agent: string;
  /** journald's datagram socket (default the system one). */
  readonly socket?: string;
  readonly systemdCat?: string;
  readonly journalctl?: string;
  /** How long to wait for the lines to become readable (ms; default 10 s). */
  readonly timeoutMs?: number;
  readonly intervalMs?: number;
  /** The environment the lines are rendered under (`NO_COLOR`). */
  readonly env?: EnvGetter;
  /** Output sinks (default: the process's streams). */
  readonly io?: Io;
}

/** Runs the probe and resolves to its exit code; the verdict goes to stdout or stderr. */
export async function runLogGrammar(run: LogGrammarRun): Promise<number> {
  const io = run.io ?? processIo;
  const usage = `usage: basecradle-harness-log-grammar <${LOG_GRAMMAR_COLUMNS.join("|")}>`;
  let written: string[];
  let found: boolean;
  try {
    if (run.args.length !== 1) throw new JournalUnavailable(usage);
    const column = run.args[0];
    if (!(LOG_GRAMMAR_COLUMNS as readonly string[]).includes(column)) {
      throw new JournalUnavailable(
        `unknown column '${column}'; this build exercises ${LOG_GRAMMAR_COLUMNS.join(", ")}`,
      );
    }
    written = probeLines(run.agent, run.env);
    const since = Date.now();
    await sendToJournal(written, {
      identifier: LOG_GRAMMAR_IDENTIFIER,
      socket: run.socket,
      systemdCat: run.systemdCat,
    });
    found = await readBack(written, {
      identifier: LOG_GRAMMAR_IDENTIFIER,
      since,
      timeoutMs: run.timeoutMs ?? 10_000,
      intervalMs: run.intervalMs ?? 250,
      journalctl: run.journalctl,
    });
  } catch (error) {
    if (!(error instanceof JournalUnavailable)) throw error;
    io.stderr(`UNPROVABLE: ${error.message}\n`);
    return EX_TEMPFAIL;
  }
  const column = run.args[0];
  if (!found) {
    io.stderr(
      `FAILED: wrote ${written.length} ${column} line(s) under ${LOG_GRAMMAR_IDENTIFIER} and ` +
        "could not read them back out of the journal\n",
    );
    return 1;
  }
  io.stdout(
    `proven: ${column} (${written.length} clause lines) emitted as ${run.agent} under ` +
      `${LOG_GRAMMAR_IDENTIFIER}\n`,
  );
  return 0;
}

/** `harness log-grammar`: the journald round-trip probe of the billing needle lines. */
export const logGrammarCommand: Command<Record<string, never>> = {
  name: "log-grammar",
  usage: `Usage: harness log-grammar <column>

Prove the lines a fleet alarm matches still exist: render the column's lines through the
production renderers, stamped source=probe agent=<slug>, write them to journald under the
identifier basecradle-log-grammar and read them back (journalctl, up to 10 s). The only
column is billing_blocked (its two clauses: wake reported_failure … kind=billing and wake
billing_blocked). Costs no model call and no platform call.

Exit codes: 0 proven (stdout); 1 written but not read back; 75 could not ask (wrong
arguments, unknown column, no journald socket, write failed, journalctl missing or failing;
UNPROVABLE: <reason> on stderr).
`,
  options: {},
  allowPositionals: true,
  positionalWords: LOG_GRAMMAR_COLUMNS,
  run({ positionals }) {
    return runLogGrammar({ args: positionals, agent: agentSlug() });
  },
};
