/** Shared test helpers: temp homes, a recording journal, raw DB access, python detection. */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Journal, Level } from "../../lib/journal/journal.ts";

/** The committed memory.db the Python harness's schema produced. */
export const PYTHON_FIXTURE = new URL("../fixtures/memory/python_memory.db", import.meta.url);

/** A fresh temp directory, removed by the returned disposer. */
export function tempHome(): { home: string; path: string } & Disposable {
  const home = Deno.makeTempDirSync({ prefix: "memory_test_" });
  return {
    home,
    path: join(home, "memory.db"),
    [Symbol.dispose]: () => Deno.removeSync(home, { recursive: true }),
  };
}

/** Copies the Python fixture into `dir` as memory.db, so tests never modify the original. */
export function copyPythonFixture(dir: string): string {
  const target = join(dir, "memory.db");
  copyFileSync(PYTHON_FIXTURE, target);
  return target;
}

/** A raw connection for inspecting or damaging a DB behind the store's back. */
export function rawDb(path: string): DatabaseSync {
  // Defensive mode off so a test can corrupt FTS shadow tables on purpose. The option exists
  // at runtime but not in the bundled types, so it rides in a non-literal object.
  const options = { timeout: 5000, defensive: false };
  return new DatabaseSync(path, options);
}

/** One recorded journal line. */
export interface Line {
  readonly level: Level;
  readonly text: string;
}

/** A journal that keeps every line, DEBUG included. */
export function recordingJournal(): Journal & { lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    event(level, head, fields = {}) {
      const pairs = Object.entries(fields).filter(([, v]) => v != null).map(([k, v]) =>
        `${k}=${v}`
      );
      lines.push({ level, text: [head, ...pairs].join(" ") });
    },
    text(level, message) {
      lines.push({ level, text: message });
    },
    enabled: () => true,
  };
}

let python: boolean | undefined;

/** Whether a python3 with sqlite3 can be run here (for live interop tests). */
export function hasPython(): boolean {
  if (python === undefined) {
    try {
      const out = new Deno.Command("python3", { args: ["-c", "import sqlite3"] }).outputSync();
      python = out.success;
    } catch {
      python = false;
    }
  }
  return python;
}

/** Runs a python3 snippet with `args` as sys.argv[1:]; returns stdout, throws on failure. */
export function runPython(code: string, ...args: string[]): string {
  const out = new Deno.Command("python3", { args: ["-c", code, ...args] }).outputSync();
  const decoder = new TextDecoder();
  if (!out.success) throw new Error(`python3 failed: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout);
}

/** Runs `fn`, which must throw (or reject with) an Error, and returns that Error. */
export async function thrown(fn: () => unknown, label = "expected an Error"): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`${label}: threw a non-Error ${String(error)}`);
  }
  throw new Error(`${label}: nothing was thrown`);
}

/** Awaits `promise`, which must reject with an Error, and returns that Error. */
export async function rejected(
  promise: Promise<unknown>,
  label = "expected a rejection",
): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`${label}: rejected with a non-Error ${String(error)}`);
  }
  throw new Error(`${label}: it resolved`);
}
