/**
 * Finding the agent's own secrets (its platform token, its model API key, its password) in a
 * body, however they are spelled. A literal `includes` is beaten by a zero-width space, a
 * fullwidth letter or the token without its constant prefix; and it mutes ordinary words when a
 * secret is short (`anything`, the sandbox's example key). So each secret is prepared once:
 *
 * - Only its **secret part** is compared: a vendor prefix (`bc_uat_`, `sk-proj-`, `xai-`, …) is
 *   public and constant, so the token posted without it, or under another prefix, is still caught.
 * - A secret part of at least {@link MIN_SECRET_PART} letters and digits is matched **anywhere**
 *   in the body's confusable skeleton (fold.ts): zero-width and format characters, combining
 *   marks, case, fullwidth and confusable letters, and separators inserted between its
 *   characters make no difference.
 * - A shorter one is matched only as a **whole token** of the visible fold (not inside a longer
 *   word), and only when it reads like key material (a digit, mixed case or a symbol): a short
 *   secret that is a plain word (`anything`) is not matched at all, since it cannot be told from
 *   the word. One under {@link MIN_LITERAL_SECRET_LENGTH} characters is never matched.
 *
 * Nothing here logs, and a match is reported as a span of the body, never as text.
 */
import { MIN_LITERAL_SECRET_LENGTH } from "../journal/scrub.ts";
import { type Folded, foldSkeleton, foldVisible } from "./fold.ts";

/**
 * The shortest secret part (letters and digits, after folding) matched anywhere in a body. The
 * fleet's credentials are far longer (a platform token's secret part is 32 random characters,
 * provider keys more), and 16 random characters do not occur in prose by chance even after the
 * lossy fold (case, `0`/`o` and `1`/`l` conflated); below that, a secret can be a word or a short
 * phrase the fold would find inside ordinary text (`administrator`, `configuration`).
 */
export const MIN_SECRET_PART = 16;

/** The constant, public prefixes of the credential formats the agent may hold. */
const VENDOR_PREFIX =
  /^(?:bc_[a-z]{3}_|sk-or-v\d+-|sk-or-|sk-ant-(?:api|admin)\d{2}-|sk-(?:proj|svcacct|admin)-|sk-|xai-|gsk_|hf_|npm_|gh[pousr]_|github_pat_|glpat-|xox[abposr]-)/;

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** A secret ready to be looked for. */
export interface OwnSecret {
  /** `anywhere`: in the skeleton; `token`: as a whole token of the visible fold. */
  readonly mode: "anywhere" | "token";
  /** The folded secret part (never logged, never shown). */
  readonly needle: string;
}

/** `secret` without its vendor prefix (the whole secret when it has none). */
export function secretPart(secret: string): string {
  const prefix = VENDOR_PREFIX.exec(secret);
  return prefix ? secret.slice(prefix[0].length) : secret;
}

/** Whether a short secret reads like key material rather than a word. */
function readsLikeKey(value: string): boolean {
  return /\d/.test(value) || (/\p{Ll}/u.test(value) && /\p{Lu}/u.test(value)) ||
    /[^\p{L}\p{N}]/u.test(value);
}

/** Prepares one secret, or returns undefined when it is too short to be matched safely. */
function prepare(raw: string | null | undefined): OwnSecret | undefined {
  const secret = (raw ?? "").trim();
  if (secret.length < MIN_LITERAL_SECRET_LENGTH) return undefined;
  const part = secretPart(secret);
  // Counted on the part as written (its letters and digits), not on the skeleton, which the
  // fold can lengthen (`m` → `rn`).
  const letters = [...foldVisible(part).text].filter((c) => WORD_CHARACTER.test(c)).length;
  if (letters >= MIN_SECRET_PART) return { mode: "anywhere", needle: foldSkeleton(part).text };
  // Short: the prefix comes back when the part alone would be too short to mean anything.
  const literal = foldVisible(part.length >= MIN_LITERAL_SECRET_LENGTH ? part : secret).text;
  if (literal.length < MIN_LITERAL_SECRET_LENGTH || !readsLikeKey(literal)) return undefined;
  return { mode: "token", needle: literal };
}

/** Prepares every usable secret, without duplicates. */
export function prepareOwnSecrets(secrets: Iterable<string | null | undefined>): OwnSecret[] {
  const seen = new Set<string>();
  const out: OwnSecret[] = [];
  for (const raw of secrets) {
    const prepared = prepare(raw);
    if (prepared === undefined || seen.has(`${prepared.mode}:${prepared.needle}`)) continue;
    seen.add(`${prepared.mode}:${prepared.needle}`);
    out.push(prepared);
  }
  return out;
}

/** Every occurrence of `needle` in `folded`, as original spans; `whole` requires token edges. */
function occurrences(folded: Folded, needle: string, whole: boolean): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const text = folded.text;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if (
      whole && (WORD_CHARACTER.test(text[at - 1] ?? "") || WORD_CHARACTER.test(text[end] ?? ""))
    ) {
      continue;
    }
    spans.push(folded.span(at, end));
  }
  return spans;
}

/** The spans of `body` that hold one of `secrets` (empty when none does). */
export function findOwnSecrets(
  body: string,
  secrets: readonly OwnSecret[],
): Array<[number, number]> {
  if (secrets.length === 0) return [];
  // Each fold is computed at most once per body, and only if a secret needs it.
  let skeleton: Folded | undefined;
  let visible: Folded | undefined;
  const spans: Array<[number, number]> = [];
  for (const secret of secrets) {
    if (secret.mode === "anywhere") {
      skeleton ??= foldSkeleton(body);
      spans.push(...occurrences(skeleton, secret.needle, false));
    } else {
      visible ??= foldVisible(body);
      spans.push(...occurrences(visible, secret.needle, true));
    }
  }
  return spans;
}
