/**
 * The text side of automatic recall: what of an exchange is indexed, how a turn's text becomes a
 * search, and how a long exchange is cut into chunks. Stored text stays verbatim; only the copy
 * handed to the full-text index is cleaned, so timestamps and uuids that every exchange carries
 * neither bloat the index nor match every row.
 */

/** The longest chunk an exchange is cut into, in UTF-16 units (recalled text stays short). */
export const CHUNK_CHARS = 1200;

/** How many distinct terms of a turn's text are searched at most (the first ones). */
export const MAX_QUERY_TERMS = 24;

const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const TOKEN = /[\p{L}\p{N}]+/gu;

/**
 * English function words a question and its fact share without sharing meaning. Searching them
 * makes every stored exchange a candidate (slow on a large store, and noise in the ranking).
 */
const STOPWORDS = new Set(
  ("a about above after again against all am an and any are as at be because been before being " +
    "below between both but by can could did do does doing down during each few for from " +
    "further had has have having he her here hers herself him himself his how i if in into is " +
    "it its itself just me more most my myself no nor not now of off on once only or other our " +
    "ours ourselves out over own same she should so some such than that the their theirs them " +
    "themselves then there these they this those through to too under until up very was we " +
    "were what when where which while who whom why will with would you your yours yourself " +
    "yourselves let lets ok okay yes please thanks thank hi hello hey also got get gets tell " +
    "told say said know remember recall again ever still really something anything").split(" "),
);

const SPEAKER = /^\[[^\]\n]*\] [^\s:]+: /gm;

/**
 * A turn's text as a recall query: each rendered message line's `[created_at] handle: ` head
 * dropped, so the speaker's name does not make every one of their past messages a match.
 */
export function queryText(text: string): string {
  return text.replace(SPEAKER, "");
}

/** `text` with timestamps and uuids blanked: the copy the full-text index sees. */
export function indexText(text: string): string {
  return text.replace(TIMESTAMP, " ").replace(UUID, " ");
}

/**
 * The distinct search terms of `text`: lower-cased letter/number runs, without stopwords and
 * one-letter words, in first-seen order, at most `max`. Empty when nothing is left.
 */
export function queryTerms(text: string, max = MAX_QUERY_TERMS): string[] {
  const seen = new Set<string>();
  for (const match of indexText(text).toLowerCase().matchAll(TOKEN)) {
    const term = match[0];
    if (term.length < 2 && !/\d/.test(term)) continue;
    if (STOPWORDS.has(term)) continue;
    seen.add(term);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** The shortest stem a long word is also searched by as a prefix. */
export const PREFIX_CHARS = 5;

/** `term` as a quoted FTS5 phrase: every character literal, never parsed as syntax. */
export function termPhrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/**
 * The prefix query a word of more than {@link PREFIX_CHARS} letters is also searched by (its first
 * five letters), so word forms the porter stemmer keeps apart ("allergic", "allergies") still
 * meet; `undefined` for a shorter word or one with digits.
 */
export function prefixPhrase(term: string): string | undefined {
  if (term.length <= PREFIX_CHARS || !/^\p{L}+$/u.test(term)) return undefined;
  return `${termPhrase(term.slice(0, PREFIX_CHARS))}*`;
}

/** An FTS5 MATCH expression ORing every term and its prefix query; "" for none. */
export function matchExpression(terms: readonly string[]): string {
  return terms.flatMap((term) => [termPhrase(term), prefixPhrase(term) ?? []].flat()).join(" OR ");
}

/**
 * `text` cut into chunks of at most {@link CHUNK_CHARS}, on line boundaries where it can be
 * (a single longer line is cut hard). Blank text gives no chunk.
 */
export function chunkText(text: string, size = CHUNK_CHARS): string[] {
  const chunks: string[] = [];
  let current = "";
  const flush = () => {
    if (current.trim()) chunks.push(current.trim());
    current = "";
  };
  for (const line of text.split("\n")) {
    if (current && current.length + 1 + line.length > size) flush();
    if (line.length > size) {
      for (let at = 0; at < line.length; at += size) {
        current = line.slice(at, at + size);
        if (at + size < line.length) flush();
      }
      continue;
    }
    current = current ? `${current}\n${line}` : line;
  }
  flush();
  return chunks;
}

/** One line per recalled chunk: newlines flattened, cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, " · ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}
