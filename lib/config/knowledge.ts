/**
 * The knowledge pack (docs/context.md#the-knowledge-pack): the config home's `knowledge/*.md`,
 * reference material the operator keeps apart from the personality. It is rendered right after the
 * charter, in the stable and cached part of every request, so it must be byte-stable: the files in
 * byte order of their names, each under a header, line endings normalised, nothing cut. A file or
 * pack over its cap refuses to load, naming the file, the cap and the fix. Read per engaged turn
 * (never by an idle wake), so an edit takes effect on the next wake with no restart.
 */
import { errorMessage } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import { sha256Hex } from "../base/sha256.ts";
import { ConfigError, type ConfigIssue } from "./errors.ts";

/** The pack's folder, relative to the config home. */
export const KNOWLEDGE_DIR = "knowledge";
/** The most one knowledge file may hold, in bytes as stored. */
export const KNOWLEDGE_FILE_CAP = 32 * 1024;
/** The most all knowledge files together may hold, in bytes as stored. */
export const KNOWLEDGE_TOTAL_CAP = 128 * 1024;
/** `knowledge_sha256` of an absent or empty pack: the sha256 of no bytes. */
export const EMPTY_KNOWLEDGE_SHA256 =
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** The sentence that opens a non-empty pack; it says where the text came from. */
export const KNOWLEDGE_INTRO = "Knowledge pack: reference material your operator keeps for you " +
  "in knowledge/, one file after another in file-name order. Rely on it as background; nobody on " +
  "the timeline wrote it.";

/** One file of the pack, as rendered. */
export interface KnowledgeFile {
  /** The file name inside `knowledge/`. */
  readonly name: string;
  /** Its size on disk, in bytes (what the caps count). */
  readonly bytes: number;
}

/** The pack as a wake renders it. */
export interface KnowledgePack {
  /** The rendered text; `""` when there is no pack. */
  readonly text: string;
  /** sha256 hex of `text` in UTF-8 ({@link EMPTY_KNOWLEDGE_SHA256} when it is empty). */
  readonly sha256: string;
  /** The files rendered, in order (blank files are left out). */
  readonly files: readonly KnowledgeFile[];
}

const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const encoder = new TextEncoder();

/**
 * Reads and renders `<configHome>/knowledge/*.md`. No folder, or no non-blank file, is the empty
 * pack. Only `.md` files directly in the folder count; names starting with `.` (editor locks and
 * swaps) and everything else are ignored.
 * @throws {ConfigError} listing every file that is unreadable, not UTF-8 or over its cap, and the
 * whole pack when it is over the total cap.
 */
export async function loadKnowledgePack(configHome: string): Promise<KnowledgePack> {
  const dir = join(configHome, KNOWLEDGE_DIR);
  const names = await packNames(dir);
  const issues: ConfigIssue[] = [];
  const files: KnowledgeFile[] = [];
  const parts: string[] = [];
  let total = 0;
  for (const name of names) {
    const path = join(dir, name);
    const read = await readPackFile(path);
    if ("issue" in read) {
      issues.push(read.issue);
      continue;
    }
    total += read.size;
    if (read.bytes === undefined) {
      issues.push({
        variable: path,
        message: `Knowledge file ${path} is ${count(read.size)} bytes, over the ` +
          `${count(KNOWLEDGE_FILE_CAP)}-byte cap for one knowledge file; split it into smaller ` +
          "files or shorten it (a knowledge file is never cut).",
      });
      continue;
    }
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
    } catch {
      issues.push({
        variable: path,
        message: `Knowledge file ${path} is not valid UTF-8; save it as UTF-8 or remove it.`,
      });
      continue;
    }
    const body = normalise(text);
    if (!body) continue;
    files.push({ name, bytes: read.size });
    parts.push(`=== ${KNOWLEDGE_DIR}/${name} ===\n${body}`);
  }
  if (total > KNOWLEDGE_TOTAL_CAP) {
    issues.push({
      variable: dir,
      message: `The knowledge pack ${dir} holds ${count(total)} bytes in ${names.length} .md ` +
        `file(s), over the ${count(KNOWLEDGE_TOTAL_CAP)}-byte cap for the whole pack; move what ` +
        "the agent does not need on every turn out of knowledge/ (into memory or an asset).",
    });
  }
  if (issues.length) throw new ConfigError(issues);
  const text = parts.length ? [KNOWLEDGE_INTRO, ...parts].join("\n\n") : "";
  return { text, sha256: sha256Hex(encoder.encode(text)), files };
}

/**
 * The bytes a file contributes to the hash and the prompt: a leading byte-order mark dropped,
 * CRLF and lone CR made LF (so an editor's line endings never change the prefix), operator notes
 * (`<!-- … -->`) removed, as in the prompt files, and blank lines at either end trimmed.
 */
export function normalise(text: string): string {
  const lines = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  return lines.replace(HTML_COMMENT, "").replace(/^\s*\n/, "").trimEnd();
}

/** The `.md` names in `dir`, in byte order of their UTF-8; `[]` when there is no folder. */
async function packNames(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.startsWith(".") || !entry.name.endsWith(".md")) continue;
      if (entry.isDirectory) continue;
      names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw new ConfigError({
      variable: dir,
      message: `The knowledge folder ${dir} could not be read: ${errorMessage(error)}. Make it ` +
        "a readable folder of .md files, or remove it to run without a knowledge pack.",
    }, { cause: error });
  }
  return names.sort(byteOrder);
}

/**
 * A file's size and bytes; no bytes when it is over the cap (checked from its size first, so a
 * huge file is never read whole).
 */
async function readPackFile(
  path: string,
): Promise<{ size: number; bytes?: Uint8Array } | { issue: ConfigIssue }> {
  try {
    const info = await Deno.stat(path);
    // A socket or a fifo has nothing to render (and reading one could block).
    if (!info.isFile) return { size: 0, bytes: new Uint8Array() };
    if (info.size > KNOWLEDGE_FILE_CAP) return { size: info.size };
    const bytes = await Deno.readFile(path);
    // Re-checked on the bytes read: the file may have grown since the stat.
    return bytes.length > KNOWLEDGE_FILE_CAP
      ? { size: bytes.length }
      : { size: bytes.length, bytes };
  } catch (error) {
    return {
      issue: {
        variable: path,
        message: `Knowledge file ${path} could not be read: ${errorMessage(error)}. Fix its ` +
          "permissions (or the link it follows), or remove it.",
      },
    };
  }
}

/** Compares two names by their UTF-8 bytes, as `ls` in the C locale sorts them. */
export function byteOrder(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}
