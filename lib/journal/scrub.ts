/**
 * The secret scrubber: every credential shape the fleet knows is replaced by `[redacted]`
 * before text reaches a log line, an error on stderr or anything else an operator reads. It is
 * defence at the source: a secret that never enters the journal cannot leak from the shipping
 * layer. The realistic carriers are foreign error texts (a tool's exception embedding a request
 * URL, a provider echoing the key it rejected) and the agent's own prose.
 */

/** What a secret becomes. */
export const REDACTED = "[redacted]";

/**
 * The three reference shapes, as one alternation so overlapping matches resolve leftmost-first
 * exactly as the Python harness does (the fleet's grammar is byte-compatible):
 * vendor key prefixes (`sk-or-`, `sk-`, `xai-`, `bc_xxx_`), a bearer token, and a key carried
 * in a query string (`?api_key=…`, `&token=…`; the whole `?name=value` is replaced).
 * Global (`g`): use it with `replace`, not `test`, which would carry `lastIndex` between calls.
 */
export const SECRET_PATTERN =
  // deno-lint-ignore no-invalid-regexp -- inline modifiers `(?i:…)` (ES2025) run in Deno's V8; the linter predates them
  /(?:sk-or-|sk-|xai-|bc_[a-z]{3}_)[A-Za-z0-9_-]{8,}|(?i:bearer)\s+[A-Za-z0-9._~+/-]{8,}|(?i:[?&](?:api[-_]?key|access[-_]?token|token|key)=)[^&\s]+/g;

/**
 * A PEM private-key block (this runtime's addition). An unterminated block (a truncated error
 * body) is redacted to the end of the text, because everything after BEGIN is key material.
 */
export const PEM_PRIVATE_KEY_PATTERN =
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|[\s\S]*$)/g;

/**
 * An `Authorization` header's value, in header (`Authorization: Basic …`) or JSON
 * (`"authorization": "…"`) form (this runtime's addition; `Bearer` is already a reference shape).
 * The scheme word is consumed only when a credential-sized token follows it, so the name of
 * the header survives and the line still says what was redacted.
 */
export const AUTHORIZATION_PATTERN =
  // deno-lint-ignore no-invalid-regexp -- inline modifiers `(?i:…)` (ES2025), as above
  /((?i:authorization)"?\s*[:=]\s*"?)(?!\[redacted\])(?:[A-Za-z][\w-]*\s+(?=[^\s,;"']{8,}))?[^\s,;"']+/g;

/** Registered literals shorter than this are ignored: redacting `abc` everywhere would wreck lines. */
export const MIN_LITERAL_SECRET_LENGTH = 8;

// Literal secrets known only at run time (the agent's own platform token, an API key read from
// the environment). Kept longest first so a secret that contains another is replaced whole.
let literals: string[] = [];

/**
 * Registers a literal secret (e.g. the agent's token) to be redacted wherever it appears.
 * Blank or short values (under {@link MIN_LITERAL_SECRET_LENGTH} code units after trimming)
 * are ignored. Process-wide, because every writer of operator-visible text shares one scrubber.
 */
export function registerSecret(secret: string | null | undefined): void {
  const value = (secret ?? "").trim();
  if (value.length < MIN_LITERAL_SECRET_LENGTH || literals.includes(value)) return;
  literals = [...literals, value].sort((a, b) => b.length - a.length);
}

/** Forgets every registered literal secret (for tests and for a process that re-reads its env). */
export function clearRegisteredSecrets(): void {
  literals = [];
}

/**
 * Replaces every secret in `text` with `[redacted]`: PEM private-key blocks, registered
 * literals, the three reference shapes, then `Authorization` header values. Never throws.
 */
export function scrubSecrets(text: string): string {
  // PEM first: its body is one long token other patterns could split; literals before the
  // shape patterns, or a partial shape match would leave the rest of the literal readable.
  let out = text.replace(PEM_PRIVATE_KEY_PATTERN, REDACTED);
  for (const literal of literals) out = out.split(literal).join(REDACTED);
  out = out.replace(SECRET_PATTERN, REDACTED);
  return out.replace(AUTHORIZATION_PATTERN, `$1${REDACTED}`);
}
