/**
 * The scanner behind the "gate is the only way out" architecture test (docs/invariants.md#2-the-gate-is-the-only-way-out). It
 * reads TypeScript source with comments blanked out (so prose may mention the API) and flags
 * every way a module could reach the platform's message create without the gate: the call
 * itself, through an alias of the namespace, through destructuring, through the API class, or
 * by building the raw `/messages` request. It is a tripwire against accidental bypass, not a
 * proof against a determined author; the typed `CheckedMessage` is the second line.
 */
import { REGEX_PREFIX, skipQuoted, skipRegex } from "./source_text.ts";

/** One finding: where, which rule, and the offending line. */
export interface Violation {
  readonly file: string;
  readonly line: number;
  readonly rule: string;
  readonly text: string;
}

/** Folders allowed to touch message creation: the gate, the client that defines it, the server. */
export const ALLOWED_DIRS = ["lib/gate/", "lib/platform/", "lib/sandbox/"] as const;

const READS = String.raw`(?:list|get|page)\s*\(`;
const ACCESS = String.raw`\s*!?\s*(?:\?\.|\.)\s*`;

/** The rules, each a regex over comment-free source (whitespace may include newlines). */
export const RULES: ReadonlyArray<{ readonly name: string; readonly pattern: RegExp }> = [
  {
    name: "messages.create call",
    pattern: new RegExp(String.raw`\bmessages${ACCESS}create\b`, "g"),
  },
  {
    name: "messages['create'] access",
    pattern: /\bmessages\s*!?\s*(?:\?\.)?\s*\[\s*(["'`])create\1\s*\]/g,
  },
  { name: "MessagesApi used directly", pattern: /\bMessagesApi\b/g },
  {
    // `client.messages` is fine only as a read; anything else (an alias, an argument) is a
    // handle on create that the other rules could no longer see. A direct `.create` is left to
    // the first rule, so one call is one finding.
    name: "client.messages used for more than a read",
    pattern: new RegExp(
      String.raw`[\w$#]*client[\w$]*${ACCESS}messages\b(?!${ACCESS}(?:${READS}|create\b))`,
      "gi",
    ),
  },
  {
    name: "client['messages'] access",
    pattern: /[\w$#]*client[\w$]*\s*!?\s*(?:\?\.)?\s*\[\s*(["'`])messages\1\s*\]/gi,
  },
  {
    name: "messages destructured from a client",
    pattern: /\{[^{}]*\bmessages\b[^{}]*\}\s*=\s*[^;\n]*client/gi,
  },
  {
    // A module specifier (`./messages.ts`) names a file, not an endpoint.
    name: "raw /messages request path",
    pattern: /(["'`])[^"'`\n]*\/messages(?![\w-]|\.[cm]?[jt]sx?\b)/g,
  },
];

/**
 * Blanks comments (keeping every newline, so line numbers hold) while leaving strings, template
 * literals and regex literals intact: a `//` inside a URL string is not a comment.
 */
export function stripComments(source: string): string {
  let out = "";
  let i = 0;
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  while (i < source.length) {
    const ch = source[i];
    const next = source[i + 1];
    if (ch === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (ch === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += blank(source.slice(i, stop));
      i = stop;
    } else if (ch === '"' || ch === "'" || ch === "`") {
      const stop = skipQuoted(source, i, ch);
      out += source.slice(i, stop);
      i = stop;
    } else if (ch === "/" && REGEX_PREFIX.test(out.trimEnd())) {
      const stop = skipRegex(source, i);
      out += source.slice(i, stop);
      i = stop;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Every rule's matches in `source`, with 1-based line numbers. */
export function scanSource(file: string, source: string): Violation[] {
  const code = stripComments(source);
  const lines = source.split("\n");
  const found: Violation[] = [];
  for (const { name, pattern } of RULES) {
    for (const m of code.matchAll(pattern)) {
      const line = code.slice(0, m.index).split("\n").length;
      found.push({ file, line, rule: name, text: lines[line - 1].trim() });
    }
  }
  return found.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}

/** Whether `file` (a `lib/…` path with forward slashes) may create messages. */
export function isAllowed(file: string): boolean {
  return ALLOWED_DIRS.some((dir) => file.startsWith(dir));
}

/** Every `.ts` file under `root/lib`, as `lib/…` paths, sorted. */
export async function libFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    for await (const entry of Deno.readDir(`${root}/${rel}`)) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && entry.name.endsWith(".ts")) out.push(path);
    }
  }
  await walk("lib");
  return out.sort();
}

/** Every finding in the files under `root/lib` outside {@link ALLOWED_DIRS}. */
export async function scanLib(root: string): Promise<Violation[]> {
  const found: Violation[] = [];
  for (const file of await libFiles(root)) {
    if (isAllowed(file)) continue;
    found.push(...scanSource(file, await Deno.readTextFile(`${root}/${file}`)));
  }
  return found;
}
