/**
 * Credential shapes the gate refuses to post. The journal's scrubber already knows the fleet's
 * shapes (`SECRET_PATTERN`, `PEM_PRIVATE_KEY_PATTERN`, `AUTHORIZATION_PATTERN`); they are reused
 * here, not copied. The vendor shapes only the gate needs are in shape_table.ts (the secretlint
 * preset's) and gitleaks_shapes.ts (gitleaks' prefix-anchored rules beyond it).
 *
 * The costs differ, though: a scrubber that over-redacts a log line loses a word, a gate that
 * over-refuses silences the agent. So a journal match is only taken as a credential when it
 * looks like one: it starts at a word boundary (`task-management` holds `sk-management`) and
 * its token looks random (`the bearer instrument` is prose, `Bearer eyJ0…` is not).
 *
 * Every shape is also looked for in the body's visible fold (fold.ts), so a key split by a
 * zero-width space or a soft hyphen, or written in fullwidth letters, is still a key.
 */
import {
  AUTHORIZATION_PATTERN,
  PEM_PRIVATE_KEY_PATTERN,
  SECRET_PATTERN,
} from "../journal/scrub.ts";
import { foldVisible } from "./fold.ts";
import { GITLEAKS_SHAPES } from "./gitleaks_shapes.ts";
import { SHAPES } from "./shape_table.ts";

/** One credential found in a text. */
export interface CredentialFinding {
  /** What it is ("a GitHub token"); never the credential itself. */
  readonly shape: string;
  /** Where the credential starts (UTF-16 index into the text). */
  readonly start: number;
  /** Where it ends (exclusive). */
  readonly end: number;
}

/**
 * Whether a token reads like key material rather than a word: it has a digit, or mixes upper
 * and lower case, or is too long to be prose.
 */
function looksRandom(token: string): boolean {
  return /\d/.test(token) || (/[a-z]/.test(token) && /[A-Z]/.test(token)) || token.length >= 24;
}

/** A match must not continue a word: `ta|sk-…` is the middle of `task-…`, not a key. */
function startsWord(text: string, index: number): boolean {
  return index === 0 || !/[A-Za-z0-9]/.test(text[index - 1]);
}

/** Names one `SECRET_PATTERN` match, or undefined when it is prose that merely fits the shape. */
function classifyJournalMatch(text: string, index: number, token: string): string | undefined {
  const vendor = /^(sk-or-|sk-|xai-|bc_[a-z]{3}_)(.*)$/.exec(token);
  if (vendor) {
    if (!startsWord(text, index)) return undefined;
    if (vendor[1].startsWith("bc_")) return "a BaseCradle API token"; // the prefix is proof
    if (!looksRandom(vendor[2])) return undefined;
    if (vendor[1] === "sk-or-") return "an OpenRouter API key";
    if (vendor[1] === "xai-") return "an xAI API key";
    return vendor[2].startsWith("ant-") ? "an Anthropic API key" : "an OpenAI-style API key";
  }
  const bearer = /^bearer\s+(.*)$/i.exec(token);
  if (bearer) return looksRandom(bearer[1]) ? "a bearer token" : undefined;
  const value = token.slice(token.indexOf("=") + 1);
  return value.length >= 8 && looksRandom(value) ? "a credential in a URL query string" : undefined;
}

/** PEM private-key blocks. */
function pemFindings(text: string): CredentialFinding[] {
  const pattern = new RegExp(PEM_PRIVATE_KEY_PATTERN.source, PEM_PRIVATE_KEY_PATTERN.flags);
  return [...text.matchAll(pattern)].map((m) => ({
    shape: "a PEM private key",
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The plausible credentials among the journal's reference shapes. */
function journalFindings(text: string): CredentialFinding[] {
  // A private copy: SECRET_PATTERN is global and shared, and lastIndex is rewound by hand so a
  // rejected match (prose) cannot swallow a real key that starts inside it.
  const pattern = new RegExp(SECRET_PATTERN.source, SECRET_PATTERN.flags);
  const out: CredentialFinding[] = [];
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const shape = classifyJournalMatch(text, m.index, m[0]);
    if (shape) {
      out.push({ shape, start: m.index, end: m.index + m[0].length });
    } else {
      pattern.lastIndex = m.index + 1;
    }
  }
  return out;
}

/** `Authorization` values (any scheme) that read like a credential. */
function authorizationFindings(text: string): CredentialFinding[] {
  const pattern = new RegExp(AUTHORIZATION_PATTERN.source, AUTHORIZATION_PATTERN.flags);
  const out: CredentialFinding[] = [];
  for (const m of text.matchAll(pattern)) {
    const value = m[0].slice(m[1].length).trim().split(/\s+/).pop() ?? "";
    if (value.length >= 8 && looksRandom(value)) {
      out.push({
        shape: "an Authorization header value",
        start: m.index + m[1].length,
        end: m.index + m[0].length,
      });
    }
  }
  return out;
}

/** The vendor shapes: shape_table.ts (the secretlint preset's), then gitleaks_shapes.ts. */
const TABLE = [...SHAPES, ...GITLEAKS_SHAPES];

/** The vendor shapes of the two tables. */
function tableFindings(text: string): CredentialFinding[] {
  const out: CredentialFinding[] = [];
  for (const { name, pattern, secret, accept } of TABLE) {
    // A private copy each time (the table's expressions are global, shared and stateful), with
    // `d` so a capture group's span is known exactly.
    for (const m of text.matchAll(new RegExp(pattern.source, `${pattern.flags}d`))) {
      const [start, end] = m.indices?.[secret ?? 0] ?? [m.index, m.index + m[0].length];
      if (accept && !accept(text.slice(start, end))) continue;
      out.push({ shape: name, start, end });
    }
  }
  return out;
}

/** Every credential in `text` as written, in detector order (PEM, journal, header, table). */
function scan(text: string): CredentialFinding[] {
  return [
    ...pemFindings(text),
    ...journalFindings(text),
    ...authorizationFindings(text),
    ...tableFindings(text),
  ];
}

/**
 * Every credential in `text`, as written or as its visible fold reads (spans always of `text`
 * itself). The first finding names the refusal. Descriptions never contain the credential.
 */
export function findCredentials(text: string): CredentialFinding[] {
  const found = scan(text);
  const visible = foldVisible(text);
  // The common case (plain text) folds to itself: nothing more to find.
  if (visible.text === text) return found;
  for (const finding of scan(visible.text)) {
    if (finding.end <= finding.start) continue;
    const [start, end] = visible.span(finding.start, finding.end);
    found.push({ shape: finding.shape, start, end });
  }
  return found;
}

/**
 * Describes the first credential in `text` ("an OpenAI-style API key"), or returns undefined.
 * The description never contains the credential.
 */
export function findCredentialShape(text: string): string | undefined {
  return findCredentials(text)[0]?.shape;
}
