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
 * (docs/configuration.md#what-the-reconcile-does-to-each-shipped-default).
 */
export async function readManifest(home: string): Promise<Manifest> {
  const raw = await readJson(join(home, MANIFEST_NAME));
  if (!isRecord(raw)) return {};
  const manifest: Manifest = {};
  for (const [rel, hash] of Object.entries(raw)) {
    if (typeof hash === "string") manifest[rel] = hash;
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
