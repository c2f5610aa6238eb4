/**
 * What on disk belongs to which timeline (docs/operating.md#what-is-deleted), derived afresh from
 * the directory names on every run — that is what makes a purge idempotent and a half-done one
 * finish next time. Only these places are ever enumerated, so `memory.db` (and its `-wal`/`-shm`)
 * and the palace can never be reached.
 */
import { join } from "../base/paths.ts";
import { unquote } from "../pycompat/quote.ts";

/** The session source a wake runs under is `timeline:<uuid>`; other sources are not ours. */
const TIMELINE_SOURCE = "timeline:";

/**
 * A transcript (or a working-state file) staged by an atomic save and stranded by a kill:
 * `<name>.json.<stamp>.tmp`.
 */
const SESSION_TEMP = /^(.+)\.json\.[^.]+\.tmp$/;

/** A mark staged by an atomic write and stranded by a kill: `<timeline>.txt.<stamp>.tmp`. */
const MARK_TEMP = /^(.+)\.txt\.[^.]+\.tmp$/;

/** Timeline uuid → the paths (files, or claim directories) that belong to it. */
export type Artifacts = Map<string, string[]>;

/** The entries of `dir`, or none when it does not exist. */
async function entries(dir: string): Promise<Deno.DirEntry[]> {
  try {
    return await Array.fromAsync(Deno.readDir(dir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return [];
    }
    throw error;
  }
}

/** One entry found by {@link walk}. */
interface Found {
  readonly name: string;
  readonly path: string;
}

/** Every entry below `dir`, at any depth (symlinked directories are not followed). */
async function walk(dir: string): Promise<Found[]> {
  const out: Found[] = [];
  for (const entry of await entries(dir)) {
    const path = join(dir, entry.name);
    out.push({ name: entry.name, path });
    if (entry.isDirectory) out.push(...await walk(path));
  }
  return out;
}

/** Strips `suffix` from `name`, or undefined when `name` does not end with it (or is only it). */
function stem(name: string, suffix: string): string | undefined {
  return name.length > suffix.length && name.endsWith(suffix)
    ? name.slice(0, -suffix.length)
    : undefined;
}

/** Maps each timeline uuid referenced under `home` to its artifact paths. */
export async function enumerateArtifacts(home: string): Promise<Artifacts> {
  const found: Artifacts = new Map();
  const add = (uuid: string, path: string) => {
    const list = found.get(uuid);
    if (list) list.push(path);
    else found.set(uuid, [path]);
  };

  // Transcripts, and any copy a killed save stranded beside one: it holds the whole
  // conversation, so purging the transcript and leaving the temp would purge nothing.
  const sessions = join(home, "sessions");
  for (const entry of await entries(sessions)) {
    const encoded = stem(entry.name, ".json") ?? SESSION_TEMP.exec(entry.name)?.[1];
    if (encoded === undefined) continue;
    const source = unquote(encoded);
    if (source.startsWith(TIMELINE_SOURCE)) {
      add(source.slice(TIMELINE_SOURCE.length), join(sessions, entry.name));
    }
  }

  // Marks at both depths (`marks/<q>.txt`, `marks/<kind>/<q>.txt`), and a mark write stranded
  // by a kill; seen-sets under `seen/<kind>/`.
  for (const entry of await walk(join(home, "marks"))) {
    const encoded = stem(entry.name, ".txt") ?? MARK_TEMP.exec(entry.name)?.[1];
    if (encoded !== undefined) add(unquote(encoded), entry.path);
  }
  for (const entry of await walk(join(home, "seen"))) {
    const encoded = stem(entry.name, ".txt");
    if (encoded !== undefined) add(unquote(encoded), entry.path);
  }

  // Claims: the per-timeline directory `claims/<kind>/<q>/` is the unit (records, temps, tokens).
  const claims = join(home, "claims");
  for (const kind of await entries(claims)) {
    if (!kind.isDirectory) continue;
    for (const entry of await entries(join(claims, kind.name))) {
      if (entry.isDirectory) add(unquote(entry.name), join(claims, kind.name, entry.name));
    }
  }

  const breaker = join(home, "breaker");
  for (const entry of await entries(breaker)) {
    const encoded = stem(entry.name, ".wakes") ?? stem(entry.name, ".tripped") ??
      stem(entry.name, ".last");
    if (encoded !== undefined) add(unquote(encoded), join(breaker, entry.name));
  }
  // Escalation marks: the per-timeline directory `escalations/<q>/` is the unit, as for claims.
  const escalations = join(home, "escalations");
  for (const entry of await entries(escalations)) {
    if (entry.isDirectory) add(unquote(entry.name), join(escalations, entry.name));
  }
  const billing = join(home, "billing");
  for (const entry of await entries(billing)) {
    const encoded = stem(entry.name, ".blocked");
    if (encoded !== undefined) add(unquote(encoded), join(billing, entry.name));
  }
  // Working state: the notes file, and any temp a killed replacement left beside it.
  const working = join(home, "working_state");
  for (const entry of await entries(working)) {
    const encoded = stem(entry.name, ".json") ?? SESSION_TEMP.exec(entry.name)?.[1];
    if (encoded !== undefined) add(unquote(encoded), join(working, entry.name));
  }
  return found;
}
