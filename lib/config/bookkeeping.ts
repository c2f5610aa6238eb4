/**
 * The installer's bookkeeping files in the config home
 * (docs/configuration.md#what-the-reconcile-does-to-each-shipped-default,
 * docs/configuration.md#bookkeeping-files): `.manifest.json` (`{rel: sha256 of the shipped text
 * last reconciled}`), `.declared.json` (the capability declaration) and `.version`. Written as
 * Python's `json.dumps(indent=2, sort_keys=True)` plus a newline, so a box moving between the
 * Python harness and this runtime reads the same bytes.
 */
import { isRecord } from "../base/json_object.ts";
import { atomicWrite } from "../base/atomic_write.ts";
import { dumpsIndented, sortKeysDeep } from "../pycompat/json.ts";
import { join } from "../base/paths.ts";
import { readText } from "../base/read_files.ts";
import { errorMessage } from "../base/error_text.ts";
import { type Journal, silentJournal } from "../journal/journal.ts";

/** The manifest, relative to the config home. */
export const MANIFEST_NAME = ".manifest.json";
/** The capability declaration, relative to the config home. */
export const DECLARED_NAME = ".declared.json";
/** The version stamp, relative to the config home. */
export const VERSION_NAME = ".version";
/** The `.declared.json` contract number (the shape is the reference's; only rels differ). */
export const DECLARED_CONTRACT = 1;

/** `{rel: sha256-hex}`. */
export type Manifest = Record<string, string>;

/** The capability declaration (docs/configuration.md#bookkeeping-files). */
export interface Declared {
  /** Always {@link DECLARED_CONTRACT}. */
  readonly contract: number;
  /** Sorted manifest rels present on disk after the reconcile. */
  readonly files: readonly string[];
  /** Sorted granted stems. */
  readonly opt_in: readonly string[];
  /** The provider the reconcile filtered for, `null` for all providers. */
  readonly provider: string | null;
}

/** Python `json.dumps(value, indent=2, sort_keys=True)` + `\n`. */
export function pythonJsonFile(value: unknown): string {
  return `${dumpsIndented(sortKeysDeep(value))}\n`;
}

/**
 * The manifest of `home`; missing, unreadable, malformed or non-object ⇒ `{}`
 * (docs/configuration.md#bookkeeping-files): the home counts as never installed. Every case but
 * a missing file is said on `journal` as a WARNING naming the file, because an empty manifest
 * quietly switches the home's prompts and tool files off in favour of the embedded defaults.
 * An entry whose hash is not a string is dropped, and said too.
 */
export async function readManifest(
  home: string,
  journal: Journal = silentJournal,
): Promise<Manifest> {
  const path = join(home, MANIFEST_NAME);
  const warn = (problem: string) =>
    journal.text(
      "WARNING",
      `Installer manifest ${path} ${problem}; it reads as empty, so this config home counts as ` +
        "never installed and the embedded default prompts and tool plugins are used instead of " +
        "its files. Fix: run 'harness install' to rebuild it.",
    );
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    warn(`could not be read (${errorMessage(error)})`);
    return {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    warn(`is not valid JSON (${errorMessage(error)})`);
    return {};
  }
  if (!isRecord(raw)) {
    const kind = raw === null ? "null" : Array.isArray(raw) ? "an array" : `a ${typeof raw}`;
    warn(`must be a JSON object but its top level is ${kind}`);
    return {};
  }
  const manifest: Manifest = {};
  const dropped: string[] = [];
  for (const [rel, hash] of Object.entries(raw)) {
    if (typeof hash === "string") manifest[rel] = hash;
    else dropped.push(rel);
  }
  if (dropped.length) {
    journal.text(
      "WARNING",
      `Installer manifest ${path} has ${dropped.length} entr${
        dropped.length === 1 ? "y" : "ies"
      } ` +
        `whose hash is not a string (${dropped.sort().join(", ")}); they are ignored, so those ` +
        "files count as never laid down. Fix: run 'harness install' to rebuild it.",
    );
  }
  return manifest;
}

/** Writes the manifest. */
export async function writeManifest(home: string, manifest: Manifest): Promise<void> {
  await writeFile(join(home, MANIFEST_NAME), pythonJsonFile(manifest));
}

/** The declared opt-in stems of `home` (an unreadable or malformed declaration ⇒ none). */
export async function readDeclaredOptIn(home: string): Promise<string[]> {
  const raw = await readJson(join(home, DECLARED_NAME));
  if (!isRecord(raw) || !Array.isArray(raw.opt_in)) return [];
  return raw.opt_in.filter((stem): stem is string => typeof stem === "string");
}

/** Writes `.declared.json`. */
export async function writeDeclared(home: string, declared: Declared): Promise<void> {
  await writeFile(join(home, DECLARED_NAME), pythonJsonFile(declared));
}

/** The `.version` stamp, trimmed; `undefined` when missing or unreadable. */
export async function readVersionStamp(home: string): Promise<string | undefined> {
  try {
    return (await readText(join(home, VERSION_NAME))).trim();
  } catch {
    return undefined;
  }
}

/** Writes `.version` as `<version>\n`. */
export async function writeVersionStamp(home: string, version: string): Promise<void> {
  await writeFile(join(home, VERSION_NAME), `${version}\n`);
}

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readText(path));
  } catch {
    return undefined;
  }
}

/**
 * Replaces `path` atomically: a half-written `.manifest.json` would read as "never installed" and
 * the home's prompts and tool files would be ignored until someone noticed.
 */
function writeFile(path: string, text: string): Promise<void> {
  return atomicWrite(path, text);
}
