/**
 * Atomic file replacement (how a transcript is saved, docs/home-layout.md#transcripts; invariant 3
 * of docs/invariants.md leans on it): a crash at any instant leaves either the previous file
 * intact or the new one complete, never a torn mix — a torn transcript would be unparseable and
 * brick every later wake on that timeline.
 */
import { basename, dirname, join } from "./paths.ts";

/** The filesystem steps an atomic write takes; replaceable so tests can fail any one of them. */
export interface AtomicWriteOps {
  /** Creates `dir` and its parents if missing. */
  mkdir(dir: string): Promise<void>;
  /** Writes `data` to a new file at `path` and fsyncs it before returning. */
  writeSynced(path: string, data: Uint8Array): Promise<void>;
  /** Renames `from` over `to` (atomic on POSIX within one filesystem). */
  rename(from: string, to: string): Promise<void>;
  /** Removes `path`; a missing file is not an error. */
  remove(path: string): Promise<void>;
}

/** The real steps, through `Deno.*`. */
export const denoAtomicWriteOps: AtomicWriteOps = {
  async mkdir(dir) {
    await Deno.mkdir(dir, { recursive: true });
  },
  async writeSynced(path, data) {
    // createNew: a temp name is never shared, so an existing file means something is wrong.
    const file = await Deno.open(path, { write: true, createNew: true });
    try {
      let written = 0;
      while (written < data.length) written += await file.write(data.subarray(written));
      // The bytes reach the disk before the name points at them (power loss, not just a signal).
      await file.sync();
    } finally {
      file.close();
    }
  },
  async rename(from, to) {
    await Deno.rename(from, to);
  },
  async remove(path) {
    try {
      await Deno.remove(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  },
};

/** Eight lowercase hex digits from a CSPRNG, so concurrent writers never share a temp. */
function token(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The temp path for `path`: `<file>.<pid>-<8hex>.tmp` beside it. The pid names the writer, so a
 * later wake can tell a temp stranded by a killed writer (its pid is gone) from one a live
 * writer is still filling (docs/home-layout.md#stranded-temp-files); the random part keeps two
 * writes of one process apart. {@link parseTempName} reads the name back.
 */
export function tempPathFor(path: string, pid: number = Deno.pid): string {
  return join(dirname(path), `${basename(path)}.${pid}-${token()}.tmp`);
}

/** What a temp name written by {@link tempPathFor} says. */
export interface TempName {
  /** The file name the temp stages (`timeline%3A<uuid>.json`). */
  readonly target: string;
  /** The process that wrote it. */
  readonly pid: number;
}

// `<target>.<pid>-<8hex>.tmp`; the target may itself contain dots, the stamp never does.
const TEMP_NAME = /^(.+)\.([1-9][0-9]{0,9})-[0-9a-f]{8}\.tmp$/;

/**
 * The target and writer of a temp file name (a base name, no folder) in {@link tempPathFor}'s
 * shape; `undefined` for any other name (an older or foreign naming scheme).
 */
export function parseTempName(name: string): TempName | undefined {
  const match = TEMP_NAME.exec(name);
  if (!match) return undefined;
  const pid = Number(match[2]);
  return Number.isSafeInteger(pid) ? { target: match[1], pid } : undefined;
}

/**
 * Replaces `path` with `data` atomically: write a temp beside it, fsync, rename over the target.
 * The parent directory is created. On any failure the temp is removed and the error re-thrown; the
 * old file is untouched. (The directory entry itself is not fsynced: a power loss right after the
 * rename may keep the previous version, which costs the newest write but never tears the file.)
 */
export async function atomicWrite(
  path: string,
  data: string | Uint8Array,
  ops: AtomicWriteOps = denoAtomicWriteOps,
): Promise<void> {
  await ops.mkdir(dirname(path));
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const temp = tempPathFor(path);
  try {
    await ops.writeSynced(temp, bytes);
    await ops.rename(temp, path);
  } catch (error) {
    // Best effort: the original failure is the one worth reporting.
    await ops.remove(temp).catch(() => {});
    throw error;
  }
}
