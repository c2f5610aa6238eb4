/**
 * The context-budget fact lines (docs/journal.md#the-line-catalogue): the resolved ceiling, each
 * compaction, and the per-turn attribution of what the model is about to be sent.
 */
import type { FieldValue, Journal } from "./journal.ts";

/** Where the context ceiling came from. */
export type LimitSource = "env" | "adapter" | "default";

/** INFO `context limit`: `limit source compact_at`. */
export function contextLimit(journal: Journal, f: {
  limit: number;
  source: LimitSource;
  compactAt: number;
}): void {
  journal.event("INFO", "context limit", {
    limit: f.limit,
    source: f.source,
    compact_at: f.compactAt,
  });
}

/**
 * INFO `context compact`: `[tokens_in] limit source threshold messages=<b>→<a> chars=<b>→<a>
 * summarized [emergency=yes]`. An emergency compaction has no `tokens_in`.
 */
export function contextCompact(journal: Journal, f: {
  tokensIn?: number | null;
  limit: number;
  source: LimitSource;
  threshold: number;
  messagesBefore: number;
  messagesAfter: number;
  charsBefore: number;
  charsAfter: number;
  summarized: number;
  emergency?: boolean;
}): void {
  journal.event("INFO", "context compact", {
    tokens_in: f.tokensIn,
    limit: f.limit,
    source: f.source,
    threshold: f.threshold,
    messages: `${f.messagesBefore}→${f.messagesAfter}`,
    chars: `${f.charsBefore}→${f.charsAfter}`,
    summarized: f.summarized,
    emergency: f.emergency ? "yes" : undefined,
  });
}

/** The transcript's sections, in the order the attribution line reports them. */
export const HISTORY_SECTIONS = [
  "charter",
  "summary",
  "steps",
  "user",
  "assistant",
  "tool",
  "other",
] as const;

/** A transcript section. */
export type HistorySection = typeof HISTORY_SECTIONS[number];

/** The arithmetic behind one attribution line (all sizes in characters). */
export interface Attribution {
  /** The session's channel key, e.g. `timeline:<uuid>`. */
  readonly source?: string | null;
  /** Characters of the system and conversation messages sent. */
  readonly messages: number;
  /** Characters of the tool schemas sent. */
  readonly tools: number;
  /** How many tools were offered. */
  readonly toolsCount: number;
  /** Characters of the brief (the charter and the wake's situation). */
  readonly brief: number;
  /** The brief's composed parts, in composition order (absent parts are not listed). */
  readonly briefParts?: readonly (readonly [name: string, chars: number])[];
  /** Characters of each transcript section. */
  readonly history: Readonly<Record<HistorySection, number>>;
  /** How many images the request carried. */
  readonly images: number;
}

/** The sum of the transcript's sections (`history=`). */
export function historyTotal(a: Attribution): number {
  return HISTORY_SECTIONS.reduce((sum, name) => sum + a.history[name], 0);
}

/** `total = tools + brief + history + images`, the identity the line guarantees. */
export function attributionTotal(a: Attribution): number {
  return a.tools + a.brief + historyTotal(a) + a.images;
}

/**
 * INFO `context attribution`: `unit=chars source total messages tools tools_count brief
 * brief_<part>… history history_charter … history_other images`.
 */
export function contextAttribution(journal: Journal, a: Attribution): void {
  const fields: Record<string, FieldValue> = {
    unit: "chars",
    source: a.source,
    total: attributionTotal(a),
    messages: a.messages,
    tools: a.tools,
    tools_count: a.toolsCount,
    brief: a.brief,
  };
  for (const [name, chars] of a.briefParts ?? []) fields[`brief_${name}`] = chars;
  fields.history = historyTotal(a);
  for (const name of HISTORY_SECTIONS) fields[`history_${name}`] = a.history[name];
  fields.images = a.images;
  journal.event("INFO", "context attribution", fields);
}

/**
 * INFO `cold_start`: `shortened saved_chars idle_s` — the request-only filter shortened
 * `shortened` old tool results by `saved_chars` characters in all after `idle_s` idle seconds
 * (docs/context.md#the-cold-start-filter).
 */
export function coldStart(journal: Journal, f: {
  shortened: number;
  savedChars: number;
  idleSeconds: number;
}): void {
  journal.event("INFO", "cold_start", {
    shortened: f.shortened,
    saved_chars: f.savedChars,
    idle_s: f.idleSeconds,
  });
}

/**
 * INFO `context handoff`: `messages=<b>→<a> chars=<b>→<a> summarized` — the model's own
 * `summarize` replaced the conversation before the current turn
 * (docs/context.md#handoff-the-summarize-tool).
 */
export function contextHandoff(journal: Journal, f: {
  messagesBefore: number;
  messagesAfter: number;
  charsBefore: number;
  charsAfter: number;
  summarized: number;
}): void {
  journal.event("INFO", "context handoff", {
    messages: `${f.messagesBefore}→${f.messagesAfter}`,
    chars: `${f.charsBefore}→${f.charsAfter}`,
    summarized: f.summarized,
  });
}
