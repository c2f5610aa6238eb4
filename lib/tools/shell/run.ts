/**
 * Runs one command line in its own process group with a deadline and a bounded output buffer.
 * The group matters: a timed-out or flooding command is killed with every child it started,
 * not just its shell. The buffer matters: reading stops once past the cap, so a runaway producer
 * (`yes`) fills the pipe and blocks instead of ballooning the harness's memory.
 */
import { codePointLength } from "../../base/code_points.ts";

/** What {@link runGrouped} needs. */
export interface GroupedRun {
  /** The program and its arguments. */
  readonly argv: readonly [string, ...string[]];
  /** The working directory. */
  readonly cwd: string;
  /** Variables to set on top of the inherited environment. */
  readonly env?: Record<string, string>;
  /** Milliseconds before the group is killed. */
  readonly timeoutMs: number;
  /** Characters (code points) read before reading stops. */
  readonly maxChars: number;
  /** Milliseconds to wait while draining or reaping a killed group. */
  readonly drainMs: number;
  /** Kills the group early when aborted (the turn is being torn down). */
  readonly signal?: AbortSignal;
}

/** How the run ended. */
export interface GroupedResult {
  /** Everything read (may run past `maxChars` by up to one chunk). */
  readonly output: string;
  /** The exit code; a signal death is `-<signal number>`, as Python reports it. */
  readonly code?: number;
  /** The run outlived its deadline (or was aborted) and was killed. */
  readonly timedOut: boolean;
  /** Output passed the cap while the command was still running, so it was killed. */
  readonly overCap: boolean;
}

/** After the cap is passed, how long a command gets to finish on its own before it is killed. */
const CAP_GRACE_MS = 500;

/**
 * Spawns `run.argv` detached (a new session, so its pid is its process group id), stdin closed
 * and stderr discarded — callers merge stderr into stdout inside the command, where the
 * interleaving is exact. Throws what `Deno.Command` throws (NotCapable without run permission).
 */
export async function runGrouped(run: GroupedRun): Promise<GroupedResult> {
  const [program, ...args] = run.argv;
  const child = new Deno.Command(program, {
    args,
    cwd: run.cwd,
    env: run.env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  const kill = () => killGroup(child);
  run.signal?.addEventListener("abort", kill, { once: true });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder(); // not fatal: binary output becomes U+FFFD, never a crash
  let output = "";
  let chars = 0;
  let capped = false;
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          output += decoder.decode();
          return;
        }
        const piece = decoder.decode(value, { stream: true });
        output += piece;
        chars += codePointLength(piece);
        if (chars > run.maxChars) {
          capped = true;
          return; // stop reading: the pipe fills and the command blocks until it is killed
        }
      }
    } catch {
      return; // the stream was cancelled under us (a killed group)
    }
  })();
  const aborted = new Promise<void>((resolve) => {
    if (run.signal?.aborted) resolve();
    run.signal?.addEventListener("abort", () => resolve(), { once: true });
  });

  try {
    const read = await within(
      Promise.race([pump.then(() => !run.signal?.aborted), aborted.then(() => false)]),
      run.timeoutMs,
    );
    if (read !== true) {
      kill();
      await within(pump, run.drainMs); // bounded: an escaped grandchild cannot hang us
      await reader.cancel().catch(() => {});
      await reap(child, run.drainMs);
      return { output, timedOut: true, overCap: false };
    }
    if (capped) {
      const status = await within(child.status, CAP_GRACE_MS);
      await reader.cancel().catch(() => {});
      if (status === TIMEOUT) {
        kill();
        await reap(child, run.drainMs);
        return { output, timedOut: false, overCap: true };
      }
      return { output, code: exitCode(status), timedOut: false, overCap: false };
    }
    return { output, code: await reap(child, run.drainMs), timedOut: false, overCap: false };
  } finally {
    run.signal?.removeEventListener("abort", kill);
  }
}

/**
 * SIGKILLs the whole group: the child leads its own session, so `-pid` names the command and
 * everything it started — and never the harness's own group. Falls back to the child alone if
 * the group is already gone.
 */
function killGroup(child: Deno.ChildProcess): void {
  try {
    Deno.kill(-child.pid, "SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
  }
}

/** Waits for a finished or just-killed child, bounded; kills the group once more if it lingers. */
async function reap(child: Deno.ChildProcess, drainMs: number): Promise<number | undefined> {
  let status = await within(child.status, drainMs);
  if (status === TIMEOUT) {
    killGroup(child);
    status = await within(child.status, drainMs);
  }
  // Give up rather than block the turn; a child that survives SIGKILL is the kernel's problem.
  return status === TIMEOUT ? undefined : exitCode(status);
}

/** Deno reports a signal death as 128+n with `signal` set; Python's convention is -n. */
function exitCode(status: Deno.CommandStatus): number {
  return status.signal !== null && status.code > 128 ? -(status.code - 128) : status.code;
}

/** What {@link within} resolves with when the time ran out first. */
const TIMEOUT: unique symbol = Symbol("timeout");

/** `promise`'s value, or {@link TIMEOUT} after `ms`; the timer is always cleared. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let id: ReturnType<typeof setTimeout> | undefined;
  const timer = new Promise<typeof TIMEOUT>((resolve) => {
    id = setTimeout(() => resolve(TIMEOUT), ms);
  });
  try {
    return await Promise.race([promise, timer]);
  } finally {
    clearTimeout(id);
  }
}
