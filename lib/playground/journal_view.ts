/**
 * Reading a wake's journal back for the page: each line split into coloured segments (the ANSI
 * colours of docs/journal.md#the-grammar become CSS class names) and its `key=value` fields, and
 * a whole wake's lines summed up — outcome, steps, posts, tokens, cost and the unspoken text.
 */

/** A run of text of one colour; `colour` is the ANSI foreground code (31 red, 32 green, …). */
export interface Segment {
  readonly text: string;
  readonly colour?: number;
}

/** One journal line as the page shows it. */
export interface JournalLine {
  /** `DEBUG`, `INFO`, `WARNING` or `ERROR`; empty for a line that does not start with a level. */
  readonly level: string;
  /** The head: the words before the first field (`wake end`, `llm`, `step 1/24: …`). */
  readonly head: string;
  readonly segments: readonly Segment[];
}

/** What a wake's journal says about it, summed over its lines. */
export interface JournalSummary {
  /** `outcome=` of `wake end`, or `failed` for `wake failed`, `skipped` for `wake skipped`. */
  readonly outcome: string | null;
  /** `steps=N/M` of `wake end`. */
  readonly steps: string | null;
  /** `posted=` of `wake end`. */
  readonly posted: number | null;
  /** Summed over the `llm` lines. */
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cachedTokens: number;
  /** Input tokens written to the prompt cache (`cache_write_tokens`, Anthropic). */
  readonly cacheWriteTokens: number;
  /** USD summed over the `llm` and `media` lines that state one; null when none did. */
  readonly cost: number | null;
  readonly llmCalls: number;
  /** The `text=` of every `unspoken` line. */
  readonly unspoken: readonly string[];
  /** The `error=` of `wake failed`, when there was one. */
  readonly error: string | null;
}

const LEVELS = new Set(["DEBUG", "INFO", "WARNING", "ERROR"]);
// deno-lint-ignore no-control-regex -- the journal's colours are ESC sequences
const SGR = /\x1b\[(\d+(?:;\d+)*)m/g;
const FIELD = /(?:^|\s)([a-z_][a-z0-9_]*)=("[^"]*"|\S*)/g;

/** Splits one journal line into its level, head and coloured segments. */
export function readJournalLine(raw: string): JournalLine {
  const segments: Segment[] = [];
  let colour: number | undefined;
  let at = 0;
  const push = (text: string) => {
    if (text) segments.push(colour === undefined ? { text } : { text, colour });
  };
  for (const match of raw.matchAll(SGR)) {
    push(raw.slice(at, match.index));
    const codes = match[1].split(";").map(Number);
    const fg = codes.find((c) => c >= 30 && c <= 37);
    colour = codes.includes(0) && fg === undefined ? undefined : fg ?? colour;
    at = match.index + match[0].length;
  }
  push(raw.slice(at));
  const plain = segments.map((s) => s.text).join("");
  const first = plain.split(" ", 1)[0];
  const level = LEVELS.has(first) ? first : "";
  const rest = level ? plain.slice(level.length + 1) : plain;
  const fieldAt = rest.search(/(?:^|\s)[a-z_][a-z0-9_]*=/);
  const head = (fieldAt < 0 ? rest : rest.slice(0, fieldAt)).trim();
  return { level, head, segments };
}

/** The `key=value` fields of a plain (colourless) line, quotes removed. */
export function fieldsOf(line: JournalLine): Record<string, string> {
  const plain = line.segments.map((s) => s.text).join("");
  const fields: Record<string, string> = {};
  for (const match of plain.matchAll(FIELD)) {
    const value = match[2];
    fields[match[1]] = value.startsWith('"') && value.endsWith('"') && value.length >= 2
      ? value.slice(1, -1)
      : value;
  }
  return fields;
}

/** Sums a wake's journal lines up. */
export function summariseJournal(lines: readonly JournalLine[]): JournalSummary {
  let outcome: string | null = null;
  let steps: string | null = null;
  let posted: number | null = null;
  let error: string | null = null;
  let tokensIn = 0, tokensOut = 0, cachedTokens = 0, cacheWriteTokens = 0, llmCalls = 0;
  let cost: number | null = null;
  const unspoken: string[] = [];
  const count = (value: string | undefined) => {
    const n = Number(value);
    return Number.isFinite(n) ? n : 0;
  };
  for (const line of lines) {
    const fields = fieldsOf(line);
    if (line.head === "wake end") {
      outcome = fields.outcome ?? outcome;
      steps = fields.steps ?? steps;
      posted = fields.posted === undefined ? posted : count(fields.posted);
    } else if (line.head === "wake failed") {
      outcome = "failed";
      error = fields.error ?? null;
    } else if (line.head === "wake skipped") {
      outcome = "skipped";
    } else if (line.head === "llm") {
      llmCalls++;
      tokensIn += count(fields.tokens_in);
      tokensOut += count(fields.tokens_out);
      cachedTokens += count(fields.cached_tokens);
      cacheWriteTokens += count(fields.cache_write_tokens);
    } else if (line.head === "unspoken" && fields.text !== undefined) {
      unspoken.push(fields.text);
    }
    if ((line.head === "llm" || line.head === "media") && fields.cost !== undefined) {
      cost = (cost ?? 0) + count(fields.cost);
    }
  }
  return {
    outcome,
    steps,
    posted,
    tokensIn,
    tokensOut,
    cachedTokens,
    cacheWriteTokens,
    cost,
    llmCalls,
    unspoken,
    error,
  };
}
