/**
 * The operator's guardrails: `<config home>/guardrails.json`, optional. Absent, the gate runs
 * with the defaults; present, it must be exactly right or the harness refuses to load, naming
 * the file, the key and the fix — a typo must never silently switch a check off.
 *
 * ```json
 * {
 *   "max_length": 4000,
 *   "forbidden_patterns": [
 *     { "pattern": "\\bproject\\s+nightjar\\b", "flags": "i", "reason": "the codename is internal" }
 *   ],
 *   "secret_guard": true,
 *   "max_refusals_per_turn": 2,
 *   "tone": { "instruction": "Warm, plain and brief; never sarcastic.", "model": "gpt-4.1-mini" }
 * }
 * ```
 *
 * Every key is optional; unknown keys are errors. `tone` switches on the model-judged tone check
 * (lib/gate/tone.ts); without it no judge is ever built.
 */
import { errorMessage } from "../base/error_text.ts";
import { join } from "../base/paths.ts";
import * as z from "../base/zod.ts";
import { DEFAULT_MAX_REFUSALS_PER_TURN } from "./refusal.ts";

export { DEFAULT_MAX_REFUSALS_PER_TURN };

/** The file's name inside the config home. */
export const GUARDRAILS_FILE = "guardrails.json";
/** Longest message body by default, in code points. */
export const DEFAULT_MAX_LENGTH = 10_000;
/** The largest `max_length` accepted: beyond this a "limit" limits nothing. */
export const MAX_MAX_LENGTH = 1_000_000;
/** The largest `max_refusals_per_turn` accepted: more tries is the model deciding, not the gate. */
export const MAX_MAX_REFUSALS_PER_TURN = 10;

/** One operator-forbidden pattern, compiled. */
export interface ForbiddenPattern {
  /** The compiled expression (never global or sticky, so `test` is stateless). */
  readonly regex: RegExp;
  /** The operator's explanation, shown to the model when the pattern refuses a message. */
  readonly reason?: string;
}

/** The longest tone instruction accepted, in characters: a tone, not a second charter. */
export const MAX_TONE_INSTRUCTION = 4000;
/** The largest `tone.max_tokens` accepted. */
export const MAX_TONE_TOKENS = 32_000;

/** The tone check's settings (`guardrails.json` `tone`); absent, the check is off. */
export interface ToneSettings {
  /** What the judge checks each message against, in the operator's words. */
  readonly instruction: string;
  /** The judge's model id; undefined: the wake's own model (`AI_MODEL`). */
  readonly model?: string;
  /** The judge's output cap in tokens; undefined: the provider's default. */
  readonly maxTokens?: number;
}

/** The gate's configuration. */
export interface Guardrails {
  /** Longest body allowed, in code points. */
  readonly maxLength: number;
  /** Bodies matching any of these are refused. */
  readonly forbiddenPatterns: readonly ForbiddenPattern[];
  /** Whether credential shapes (API keys, tokens, private keys) are refused. */
  readonly secretGuard: boolean;
  /** The model-judged tone check; undefined (the default): off. */
  readonly tone?: ToneSettings;
  /** Refusals in one turn that close its speaking tools and escalate. */
  readonly maxRefusalsPerTurn: number;
  /** The file these came from; undefined for the built-in defaults. */
  readonly file?: string;
}

/** What the gate uses when there is no guardrails.json. */
export const DEFAULT_GUARDRAILS: Guardrails = Object.freeze({
  maxLength: DEFAULT_MAX_LENGTH,
  forbiddenPatterns: Object.freeze([]),
  secretGuard: true,
  maxRefusalsPerTurn: DEFAULT_MAX_REFUSALS_PER_TURN,
});

/** A guardrails.json that cannot be used. `key` is the offending key path, when there is one. */
export class GuardrailsError extends Error {
  /** Always "GuardrailsError". */
  override name = "GuardrailsError";
  /** The file that failed to load. */
  readonly file: string;
  /** The key path at fault (`forbidden_patterns[0].pattern`), or undefined for the whole file. */
  readonly key: string | undefined;

  /** `problem` says what is wrong, `fix` what to do about it. */
  constructor(file: string, key: string | undefined, problem: string, fix: string) {
    const where = key === undefined ? "" : ` at '${key}'`;
    super(`Guardrails file ${file} is invalid${where}: ${problem}. Fix: ${fix}`);
    this.file = file;
    this.key = key;
  }
}

const FLAGS = /^(?!.*(.).*\1)[imsu]*$/;

const PatternEntry = z.strictObject({
  pattern: z.string().min(1),
  flags: z.string().regex(FLAGS, "expected letters from i, m, s, u, each at most once").optional(),
  reason: z.string().trim().min(1).optional(),
});

const ToneEntry = z.strictObject({
  instruction: z.string().trim().min(1).max(MAX_TONE_INSTRUCTION),
  model: z.string().trim().min(1).optional(),
  max_tokens: z.int().min(16).max(MAX_TONE_TOKENS).optional(),
});

const GuardrailsFile = z.strictObject({
  max_length: z.int().min(1).max(MAX_MAX_LENGTH).optional(),
  forbidden_patterns: z.array(PatternEntry).optional(),
  secret_guard: z.boolean().optional(),
  tone: ToneEntry.optional(),
  max_refusals_per_turn: z.int().min(1).max(MAX_MAX_REFUSALS_PER_TURN).optional(),
});

/** How to mend each key, by the last named segment of its path. */
const FIXES: Record<string, string> = {
  max_length: `set it to a whole number of characters from 1 to ${MAX_MAX_LENGTH} ` +
    `(default ${DEFAULT_MAX_LENGTH})`,
  forbidden_patterns: 'make it a list of objects like {"pattern": "…", "flags": "i", ' +
    '"reason": "…"}',
  pattern: "give a non-empty JavaScript regular expression as a JSON string, doubling each " +
    'backslash (\\b is written "\\\\b")',
  flags: 'use each of the letters i, m, s, u at most once (e.g. "i" for case-insensitive), ' +
    "or leave the key out",
  reason: "give a short non-empty sentence, or leave the key out",
  secret_guard: "set it to true or false",
  tone: 'make it an object like {"instruction": "Warm, plain and brief."}, or leave the key ' +
    "out to keep the tone check off",
  instruction: "describe the tone every message must keep, in one non-empty text of at most " +
    `${MAX_TONE_INSTRUCTION} characters`,
  model: "give the judge's model id as a non-empty string, or leave the key out to use AI_MODEL",
  max_tokens: `set it to a whole number of tokens from 16 to ${MAX_TONE_TOKENS}, or leave the ` +
    "key out for the provider's default",
  max_refusals_per_turn: `set it to a whole number from 1 to ${MAX_MAX_REFUSALS_PER_TURN} ` +
    `(default ${DEFAULT_MAX_REFUSALS_PER_TURN}): the refusals in one turn after which nothing ` +
    "more is sent and the turn escalates",
};

const ROOT_FIX = "the keys are max_length, forbidden_patterns, secret_guard, " +
  "max_refusals_per_turn and tone; remove any other";
const ENTRY_FIX = "an entry's keys are pattern, flags and reason; remove any other";
const TONE_FIX = "tone's keys are instruction, model and max_tokens; remove any other";

/** `["forbidden_patterns", 0, "pattern"]` → `forbidden_patterns[0].pattern`. */
function keyPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (out, part) =>
      typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
    "",
  );
}

function fromIssue(file: string, issue: z.core.$ZodIssue): GuardrailsError {
  if (issue.code === "unrecognized_keys") {
    const key = keyPath([...issue.path, issue.keys[0]]);
    const fix = issue.path.length === 0
      ? ROOT_FIX
      : issue.path[0] === "tone"
      ? TONE_FIX
      : ENTRY_FIX;
    return new GuardrailsError(file, key, "unknown key", fix);
  }
  if (issue.path.length === 0) {
    return new GuardrailsError(
      file,
      undefined,
      `the file must hold one JSON object (${issue.message})`,
      'write an object such as {"max_length": 10000}, or delete the file to use the defaults',
    );
  }
  const named = [...issue.path].reverse().find((p) => typeof p === "string");
  const fix = FIXES[String(named)] ?? ROOT_FIX;
  const problem = issue.code === "invalid_type" && /received undefined$/.test(issue.message)
    ? "the key is missing"
    : issue.message;
  return new GuardrailsError(file, keyPath(issue.path), problem, fix);
}

function compile(file: string, index: number, entry: z.infer<typeof PatternEntry>) {
  try {
    return { regex: new RegExp(entry.pattern, entry.flags ?? ""), reason: entry.reason };
  } catch (error) {
    const why = errorMessage(error);
    throw new GuardrailsError(
      file,
      `forbidden_patterns[${index}].pattern`,
      `not a valid regular expression (${why})`,
      FIXES.pattern,
    );
  }
}

/** Parses the text of a guardrails file; throws GuardrailsError naming `file` and the key. */
export function parseGuardrails(text: string, file: string): Guardrails {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const why = errorMessage(error);
    throw new GuardrailsError(
      file,
      undefined,
      `not valid JSON (${why})`,
      "correct the syntax (JSON has no comments or trailing commas), or delete the file " +
        "to use the defaults",
    );
  }
  const parsed = GuardrailsFile.safeParse(raw);
  if (!parsed.success) throw fromIssue(file, parsed.error.issues[0]);
  const data = parsed.data;
  return Object.freeze({
    maxLength: data.max_length ?? DEFAULT_MAX_LENGTH,
    forbiddenPatterns: Object.freeze(
      (data.forbidden_patterns ?? []).map((entry, i) => compile(file, i, entry)),
    ),
    secretGuard: data.secret_guard ?? true,
    ...(data.tone === undefined ? {} : {
      tone: Object.freeze({
        instruction: data.tone.instruction,
        model: data.tone.model,
        maxTokens: data.tone.max_tokens,
      }),
    }),
    maxRefusalsPerTurn: data.max_refusals_per_turn ?? DEFAULT_MAX_REFUSALS_PER_TURN,
    file,
  });
}

/**
 * Reads `<configHome>/guardrails.json` (the caller resolves the config home: the gate reads no
 * environment). No file ⇒ {@link DEFAULT_GUARDRAILS}; an unreadable or malformed file ⇒
 * GuardrailsError.
 */
export async function loadGuardrails(configHome: string): Promise<Guardrails> {
  const file = join(configHome, GUARDRAILS_FILE);
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return DEFAULT_GUARDRAILS;
    const why = errorMessage(error);
    throw new GuardrailsError(
      file,
      undefined,
      `it could not be read (${why})`,
      "make it a readable regular file, or remove it to use the defaults",
    );
  }
  return parseGuardrails(text, file);
}
