/**
 * The scanner behind "only the gate seals agent text" (docs/architecture.md#the-gate-is-the-only-way-out):
 * it flags every way a module could make a `ClearedText` itself — calling `ClearedText.seal`,
 * reaching it by bracket, destructuring it or holding the class under another name — and every
 * create call of the platform client that sends agent text without taking a `ClearedText`. A
 * tripwire against accidental bypass; the private constructor and the run-time check in every
 * create call are the second line.
 */
import { stripComments } from "./gate_scan.ts";
import type { Violation } from "./gate_scan.ts";

/** Folders allowed to seal: the gate, and the platform module that defines the type. */
export const SEALERS = ["lib/gate/", "lib/platform/cleared.ts"] as const;

/** Rules over comment-free source: a way to reach the seal. */
export const SEAL_RULES: ReadonlyArray<{ readonly name: string; readonly pattern: RegExp }> = [
  { name: "ClearedText.seal call", pattern: /\bClearedText\s*!?\s*(?:\?\.|\.)\s*seal\b/g },
  { name: "ClearedText[…] access", pattern: /\bClearedText\s*!?\s*(?:\?\.)?\s*\[/g },
  {
    name: "seal destructured from ClearedText",
    pattern: /\{[^{}]*\bseal\b[^{}]*\}\s*=\s*ClearedText\b/g,
  },
  {
    // Any value use of the class but `ClearedText.is(…)` and types: an alias would hide `.seal`.
    name: "ClearedText held as a value",
    pattern: /(?:[=(,:?]|return|\?\?|\|\||&&)\s*ClearedText\b(?!\s*(?:<|!?\s*\??\.))/g,
  },
];

/**
 * The platform client's create calls that send agent text, by file: each must take a
 * `ClearedText` of its surface as its input parameter.
 */
export const TEXT_CREATES: Readonly<Record<string, string>> = {
  "lib/platform/messages.ts": "message",
  "lib/platform/assets.ts": "asset",
  "lib/platform/tasks.ts": "task",
  "lib/platform/webhook_endpoints.ts": "webhook_endpoint",
};

/** Request bodies that carry words a person reads: a JSON field or a form part. */
const TEXT_BODY =
  /(?:\b(?:body|description|instructions|filename)\s*:)|(?:form\.append\(\s*["'`][^"'`]*\[(?:description|file)\])/g;

/** Every seal rule's matches in `source`, with 1-based line numbers. */
export function scanSeal(file: string, source: string): Violation[] {
  // Import and re-export lists name the class without using it as a value.
  const code = stripComments(source).replace(
    /^\s*(?:import|export)\b[^;]*?\bfrom\s*["'][^"']+["'];?/gms,
    (text) => text.replace(/[^\n]/g, " "),
  );
  const lines = source.split("\n");
  const found: Violation[] = [];
  for (const { name, pattern } of SEAL_RULES) {
    for (const m of code.matchAll(pattern)) {
      const line = code.slice(0, m.index).split("\n").length;
      found.push({ file, line, rule: name, text: lines[line - 1].trim() });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** The text of a method's parameter list: from `name(` to its matching `)`. */
function parameters(code: string, at: number): string {
  let depth = 0;
  for (let i = at; i < code.length; i++) {
    if (code[i] === "(") depth++;
    else if (code[i] === ")" && --depth === 0) return code.slice(at + 1, i);
  }
  return code.slice(at);
}

/**
 * Findings in one platform file: a `create(` method whose file is a text create but whose
 * parameters do not take `ClearedText<"surface">` (or take a raw string besides the timeline),
 * and a file that builds a text-carrying request body without being listed as a text create.
 */
export function scanCreates(file: string, source: string): Violation[] {
  const code = stripComments(source);
  const found: Violation[] = [];
  const lineOf = (index: number) => code.slice(0, index).split("\n").length;
  const surface = TEXT_CREATES[file];
  const posts = /\bmethod:\s*"POST"/.test(code);
  if (surface === undefined) {
    // Only a POST carries a body a person reads; GET query keys are filters.
    for (const m of posts ? code.matchAll(TEXT_BODY) : []) {
      found.push({
        file,
        line: lineOf(m.index),
        rule: "text sent by a create call that takes no ClearedText",
        text: source.split("\n")[lineOf(m.index) - 1].trim(),
      });
    }
    return found;
  }
  const creates = [...code.matchAll(/\basync\s+create\s*\(/g)];
  if (creates.length === 0) {
    found.push({ file, line: 1, rule: "text create call missing", text: file });
  }
  for (const m of creates) {
    const params = parameters(code, m.index + m[0].length - 1);
    const typed = new RegExp(`ClearedText<\\s*"${surface}"\\s*>`).test(params);
    // The first parameter is the timeline; any other raw string is agent text on the wire.
    const raw = params.split(",").slice(1).some((p) => /:\s*string\b|\{[^}]*:\s*string/.test(p));
    if (!typed || raw) {
      found.push({
        file,
        line: lineOf(m.index),
        rule: `create does not take ClearedText<"${surface}">`,
        text: params.replace(/\s+/g, " ").trim(),
      });
    }
  }
  return found;
}
