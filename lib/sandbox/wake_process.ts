/**
 * Spawning one wake process for an agent — the one way the router twin, `harness demo` and the
 * playground start a wake: the program and its permission flags ({@link harnessInvocation}: the
 * production permission set from deno.json, or the compiled binary with it baked in), the
 * environment, the relay of its output as it arrives, and the registration that lets the owner
 * kill it on close ({@link spawnWake}).
 */
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGE_ROOT, packageModuleUrl } from "../base/lazy_import.ts";
import { LineRelay } from "../journal/output.ts";

/** Deno's own notice when a deno.json permission set is used; not part of the journal. */
export const DENO_NOTICE: RegExp = /Permissions in the config file is an experimental feature/;

/** Whether this process is a `deno compile`d binary (then execPath is the harness itself). */
export function isCompiled(): boolean {
  const standalone = (Deno.build as { standalone?: boolean }).standalone;
  if (typeof standalone === "boolean") return standalone;
  return !/^deno(\.exe)?$/i.test(basename(Deno.execPath()));
}

/** A program and its arguments. */
export interface Invocation {
  readonly program: string;
  readonly args: readonly string[];
}

/**
 * The program and the arguments that run `harness <args>` the way this process was run: from
 * source `deno run -P=harness <repo>/main.ts …` (the production permission set from deno.json);
 * in a compiled binary `Deno.execPath()` is the harness itself, with that set baked in.
 */
export function harnessInvocation(args: readonly string[]): { program: string; args: string[] } {
  if (isCompiled()) return { program: Deno.execPath(), args: [...args] };
  // From source: the repository's deno.json and main.ts; from the bundle: the bundle's own.
  return {
    program: Deno.execPath(),
    args: [
      "run",
      "-P=harness",
      "--quiet",
      "--config",
      fileURLToPath(new URL("deno.json", PACKAGE_ROOT)),
      fileURLToPath(packageModuleUrl("main.ts")),
      ...args,
    ],
  };
}

/** How to spawn one wake and what to do with its output. */
export interface WakeSpawn {
  /** What runs: {@link harnessInvocation}, or an operator's command through `/bin/sh -c`. */
  readonly invocation: Invocation;
  readonly env: Readonly<Record<string, string>>;
  /** Give the wake `env` alone (true) rather than `env` over this process's environment. */
  readonly clearEnv?: boolean;
  /** The working directory; this process's when absent. */
  readonly cwd?: string;
  /** Every stdout and stderr chunk as it arrives (a throwing sink is ignored). */
  readonly onChunk?: (chunk: Uint8Array) => void;
  /** Relay both streams to this process's stderr, line by line. */
  readonly relayLines?: boolean;
  /** Each stderr line (the wake's journal) as it arrives, {@link DENO_NOTICE} left out. */
  readonly onJournalLine?: (line: string) => void;
  /** Keep stdout (`stdout`), or stdout and stderr as they interleaved (`output`), as text. */
  readonly keep?: "stdout" | "output";
  /** Registers the started process, so whoever owns it can kill it on close. */
  readonly track?: (child: Deno.ChildProcess) => void;
  /** Forgets the process once it has exited. */
  readonly untrack?: (child: Deno.ChildProcess) => void;
}

/** How the wake ended. */
export interface WakeExit {
  readonly code: number;
  /** The kept text ({@link WakeSpawn.keep}); undefined when nothing was kept. */
  readonly kept?: string;
}

/**
 * Spawns the wake, relays its output as {@link WakeSpawn} asks, and resolves once it has exited
 * and its streams are drained.
 * @throws what `Deno.Command#spawn` throws when the process cannot be started.
 */
export async function spawnWake(spawn: WakeSpawn): Promise<WakeExit> {
  const readsStdout = spawn.onChunk !== undefined || spawn.relayLines === true ||
    spawn.keep !== undefined;
  const child = new Deno.Command(spawn.invocation.program, {
    args: [...spawn.invocation.args],
    env: { ...spawn.env },
    clearEnv: spawn.clearEnv,
    cwd: spawn.cwd,
    stdin: "null",
    stdout: readsStdout ? "piped" : "null",
    stderr: "piped",
  }).spawn();
  spawn.track?.(child);
  const kept: string[] | null = spawn.keep ? [] : null;
  await Promise.all([
    readsStdout ? pump(child.stdout, spawn, kept) : undefined,
    pump(child.stderr, spawn, spawn.keep === "output" ? kept : null, spawn.onJournalLine),
  ]);
  const { code } = await child.status;
  spawn.untrack?.(child);
  return kept ? { code, kept: kept.join("") } : { code };
}

/** Drains one of the child's streams into the chunk sink, the relay, the kept text and the lines. */
async function pump(
  stream: ReadableStream<Uint8Array>,
  spawn: WakeSpawn,
  kept: string[] | null,
  onLine?: (line: string) => void,
): Promise<void> {
  const relay = spawn.relayLines ? new LineRelay() : undefined;
  const decoder = new TextDecoder();
  let rest = "";
  const line = (text: string) => {
    if (!DENO_NOTICE.test(text)) onLine?.(text);
  };
  for await (const chunk of stream) {
    const text = kept || onLine ? decoder.decode(chunk, { stream: true }) : "";
    kept?.push(text);
    try {
      spawn.onChunk?.(chunk);
      relay?.push(chunk);
    } catch {
      // A broken sink must not wedge the agent's queue.
    }
    if (onLine) {
      const parts = (rest + text).split("\n");
      rest = parts.pop() ?? "";
      parts.forEach(line);
    }
  }
  relay?.flush();
  if (onLine) {
    rest += decoder.decode();
    if (rest) line(rest);
  }
}
