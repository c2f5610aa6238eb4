/**
 * Credential shapes the gate refuses to post. The journal's scrubber already knows the fleet's
 * shapes (`SECRET_PATTERN`, `PEM_PRIVATE_KEY_PATTERN`, `AUTHORIZATION_PATTERN`); they are reused
 * here, not copied, and a few shapes only the gate needs are added.
 *
 * The costs differ, though: a scrubber that over-redacts a log line loses a word, a gate that
 * over-refuses silences the agent. So a journal match is only taken as a credential when it
 * looks like one: it starts at a word boundary (`task-management` holds `sk-management`) and
 * its token looks random (`the bearer instrument` is prose, `Bearer eyJ0…` is not).
 */
import {
  AUTHORIZATION_PATTERN,
  MIN_LITERAL_SECRET_LENGTH,
  PEM_PRIVATE_KEY_PATTERN,
  SECRET_PATTERN,
} from "../journal/scrub.ts";

/** Shapes the journal does not scrub but a message must never carry. Each is anchored. */
const EXTRA_SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[A-Z0-9]{16}\b/, "an AWS access key id"],
  [
    /aws_?secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/i,
    "an AWS secret access key",
  ],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/, "a GitHub token"],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/, "a Google API key"],
  [/\b[rs]k_live_[A-Za-z0-9]{16,}/, "a Stripe secret key"],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, "a JSON Web Token"],
];

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
    return vendor[1] === "xai-" ? "an xAI API key" : "an OpenAI-style API key";
  }
  const bearer = /^bearer\s+(.*)$/i.exec(token);
  if (bearer) return looksRandom(bearer[1]) ? "a bearer token" : undefined;
  const value = token.slice(token.indexOf("=") + 1);
  return value.length >= 8 && looksRandom(value) ? "a credential in a URL query string" : undefined;
}

/** The first plausible credential among the journal's reference shapes. */
function journalShape(text: string): string | undefined {
  // A private copy: SECRET_PATTERN is global and shared, and lastIndex is rewound by hand so a
  // rejected match (prose) cannot swallow a real key that starts inside it.
  const pattern = new RegExp(SECRET_PATTERN.source, SECRET_PATTERN.flags);
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const shape = classifyJournalMatch(text, m.index, m[0]);
    if (shape) return shape;
    pattern.lastIndex = m.index + 1;
  }
  return undefined;
}

/** An `Authorization` value (any scheme) that reads like a credential. */
function authorizationShape(text: string): string | undefined {
  for (const m of text.matchAll(AUTHORIZATION_PATTERN)) {
    const value = m[0].slice(m[1].length).trim().split(/\s+/).pop() ?? "";
    if (value.length >= 8 && looksRandom(value)) return "an Authorization header value";
  }
  return undefined;
}

/**
 * Describes the first credential in `text` ("an OpenAI-style API key"), or returns undefined.
 * The description never contains the credential.
 */
export function findCredentialShape(text: string): string | undefined {
  if (new RegExp(PEM_PRIVATE_KEY_PATTERN.source).test(text)) return "a PEM private key";
  const found = journalShape(text) ?? authorizationShape(text);
  if (found) return found;
  for (const [pattern, shape] of EXTRA_SHAPES) if (pattern.test(text)) return shape;
  return undefined;
}

/**
 * The literal secrets worth checking for: trimmed, at least the journal's minimum length (a
 * three-letter "secret" would refuse half of all prose), no duplicates.
 */
export function usableLiterals(secrets: Iterable<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const secret of secrets) {
    const value = (secret ?? "").trim();
    if (value.length >= MIN_LITERAL_SECRET_LENGTH) out.add(value);
  }
  return [...out];
}
