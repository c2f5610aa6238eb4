/**
 * The context view of a wake (docs/playground.md#the-context-view): for each turn record the
 * wake wrote, the first request's parts in request order — tools, charter, frozen transcript,
 * brief, recalled memory, working state, new turn — in characters and tokens, with the part the
 * provider served from its prompt cache marked, and the **prefix diff**: where this request first
 * differs from the one before it on the same timeline (the chain's previous record), the part
 * named and the differing text shown from both sides.
 *
 * Sizes and hashes come from the record (`context`, docs/records.md#the-request-anatomy); texts
 * from the captures the playground's wakes keep. Tokens are the provider's count of the first
 * call shared out by characters, or 4 characters a token when the provider reported none: an
 * estimate either way, and said so.
 */
import { readCapture, type RequestCapture } from "../home/request_capture.ts";
import type { ContextPart, TurnRecord } from "../home/records/mod.ts";
import { chainRecords } from "./record_view.ts";

/** The parts that make up the stable prefix; a request that first differs after them is as designed. */
const STABLE = new Set(["tools", "charter", "knowledge", "transcript"]);
/** The stable parts before the transcript: a request that differs inside one changed it. */
const LEAD = new Set(["tools", "charter", "knowledge"]);

/** The longest text of one part the view carries (head and tail, the middle left out). */
export const PART_TEXT_LIMIT = 24_000;

/** One part of a request as the view shows it. */
export interface PartView {
  readonly name: string;
  readonly chars: number;
  /** The provider's tokens shared out by characters, or characters ÷ 4. */
  readonly tokens: number;
  readonly messages: number | null;
  readonly sha256: string;
  /** How much of the part falls inside the provider's reported cached tokens. */
  readonly cached: "all" | "part" | "none";
  /** The captured text (head and tail past {@link PART_TEXT_LIMIT}); null when not captured. */
  readonly text: string | null;
  /** Characters left out of the middle of `text`. */
  readonly omitted: number;
}

/** Where a request first differs from the previous one. */
export interface PrefixDiff {
  /** The chain's previous record, or null for the first turn on the timeline. */
  readonly previous: {
    readonly recordId: string;
    readonly seq: number;
    readonly delivery: string | null;
  } | null;
  /**
   * `first` (nothing before it), `identical`, `tail` (the whole previous prefix — tools, charter,
   * transcript — carried over: the designed place to differ), `break` (it differs inside the
   * previous stable prefix: the cache is lost from there), `unknown` (not enough was captured).
   */
  readonly kind: "first" | "identical" | "tail" | "break" | "unknown";
  /** The part of this request where it first differs. */
  readonly part: string | null;
  /** The part of the previous request at that place. */
  readonly previousPart: string | null;
  /** Characters of the request before the difference (both requests share them). */
  readonly offset: number | null;
  /** The text around the difference: the shared lead-in, then each side's continuation. */
  readonly shared: string | null;
  readonly before: string | null;
  readonly after: string | null;
  /** The parts whose hash is the same in both requests. */
  readonly sameParts: readonly string[];
}

/** One turn's request. */
export interface RequestView {
  readonly recordId: string;
  readonly seq: number;
  readonly at: string;
  readonly model: string;
  /** The first call's usage counters (tokens_in, cached_tokens, …) as the provider reported them. */
  readonly firstCall: Readonly<Record<string, number>> | null;
  /** `provider` (tokens shared out from the first call's tokens_in) or `chars/4`. */
  readonly tokenSource: "provider" | "chars/4";
  readonly totalChars: number;
  readonly totalTokens: number;
  readonly cachedTokens: number | null;
  readonly parts: readonly PartView[];
  readonly diff: PrefixDiff;
  /** Whether the texts were captured (HARNESS_CAPTURE_REQUESTS). */
  readonly captured: boolean;
}

/** Reads one record's capture; null when there is none. */
export type CaptureReader = (
  home: string,
  timeline: string,
  recordId: string,
) => Promise<RequestCapture | null>;

/**
 * The context view of the records `ids` (one wake's), oldest first; records without anatomy are
 * left out. Each capture is read once, though a record is both one turn's own request and the
 * next turn's previous one.
 */
export async function contextView(
  home: string,
  timeline: string,
  ids: readonly string[],
  read: CaptureReader = readCapture,
): Promise<RequestView[]> {
  const chain = await chainRecords(home, timeline);
  const captures = new Map<string, Promise<RequestCapture | null>>();
  const capture = (recordId: string) => {
    let found = captures.get(recordId);
    if (!found) captures.set(recordId, found = read(home, timeline, recordId));
    return found;
  };
  const views: RequestView[] = [];
  for (const id of ids) {
    const at = chain.findIndex((r) => r.record_id === id);
    const record = chain[at];
    if (!record?.context) continue;
    const previous = chain.slice(0, at).findLast((r) => r.context !== undefined);
    const [mine, theirs] = await Promise.all([
      capture(record.record_id),
      previous ? capture(previous.record_id) : null,
    ]);
    views.push(requestView(record, mine, previous ?? null, theirs));
  }
  return views;
}

/** One record's view (pure). */
export function requestView(
  record: TurnRecord,
  capture: RequestCapture | null,
  previous: TurnRecord | null,
  previousCapture: RequestCapture | null,
): RequestView {
  const parts = record.context!.parts;
  const firstCall = record.context!.first_call ?? null;
  const totalChars = parts.reduce((n, p) => n + p.chars, 0);
  const reported = firstCall?.tokens_in;
  const tokenSource = typeof reported === "number" && reported > 0 ? "provider" : "chars/4";
  const tokensOf = (p: ContextPart) =>
    tokenSource === "provider"
      ? Math.round((p.chars * (reported as number)) / Math.max(1, totalChars))
      : Math.ceil(p.chars / 4);
  const cachedTokens = typeof firstCall?.cached_tokens === "number"
    ? firstCall.cached_tokens
    : null;
  let start = 0;
  const views = parts.map((p): PartView => {
    const tokens = tokensOf(p);
    const end = start + tokens;
    const cached = cachedTokens === null || cachedTokens <= start || tokens === 0
      ? "none"
      : cachedTokens >= end
      ? "all"
      : "part";
    start = end;
    const text = textOf(capture, p);
    return {
      name: p.name,
      chars: p.chars,
      tokens,
      messages: p.messages ?? null,
      sha256: p.sha256,
      cached,
      ...clip(text),
    };
  });
  return {
    recordId: record.record_id,
    seq: record.seq,
    at: record.at,
    model: record.model,
    firstCall,
    tokenSource,
    totalChars,
    totalTokens: views.reduce((n, p) => n + p.tokens, 0),
    cachedTokens,
    parts: views,
    diff: prefixDiff(record, capture, previous, previousCapture),
    captured: capture !== null,
  };
}

/** The captured text of `part`, when the capture holds it and its hash is the record's. */
function textOf(capture: RequestCapture | null, part: ContextPart): string | null {
  const found = capture?.parts.find((c) => c.name === part.name);
  return found && found.sha256 === part.sha256 ? found.text : null;
}

function clip(text: string | null): { text: string | null; omitted: number } {
  if (text === null || text.length <= PART_TEXT_LIMIT) return { text, omitted: 0 };
  const half = PART_TEXT_LIMIT / 2;
  return {
    text: `${text.slice(0, half)}\n…\n${text.slice(text.length - half)}`,
    omitted: text.length - PART_TEXT_LIMIT,
  };
}

/** How much text is shown before and after the first difference. */
const LEAD_IN = 160;
const CONTINUATION = 320;

/** Where `record`'s request first differs from `previous`'s (pure). */
export function prefixDiff(
  record: TurnRecord,
  capture: RequestCapture | null,
  previous: TurnRecord | null,
  previousCapture: RequestCapture | null,
): PrefixDiff {
  const none = {
    part: null,
    previousPart: null,
    offset: null,
    shared: null,
    before: null,
    after: null,
  };
  if (!previous?.context) return { previous: null, kind: "first", ...none, sameParts: [] };
  const head = { recordId: previous.record_id, seq: previous.seq, delivery: previous.delivery_id };
  const hashes = new Map(previous.context.parts.map((p) => [p.name, p.sha256]));
  const parts = record.context!.parts;
  const sameParts = parts.filter((p) => hashes.get(p.name) === p.sha256).map((p) => p.name);
  const complete = (c: RequestCapture | null, r: TurnRecord) =>
    c !== null && r.context!.parts.every((p) => textOf(c, p) !== null);
  if (!complete(capture, record) || !complete(previousCapture, previous)) {
    // Without both texts only whole parts compare: the first stable part whose hash changed.
    const changed = parts.find((p) =>
      STABLE.has(p.name) && p.name !== "transcript" &&
      hashes.get(p.name) !== p.sha256
    );
    return changed
      ? { previous: head, kind: "break", ...none, part: changed.name, sameParts }
      : { previous: head, kind: "unknown", ...none, sameParts };
  }
  const mine = layout(record, capture!);
  const theirs = layout(previous, previousCapture!);
  const at = firstDifference(mine.text, theirs.text);
  if (at === mine.text.length && at === theirs.text.length) {
    return { previous: head, kind: "identical", ...none, sameParts };
  }
  const part = partAt(mine, at);
  const previousPart = partAt(theirs, at);
  const from = Math.max(0, at - LEAD_IN);
  // As designed: the previous request's whole stable prefix carried over, and this one goes on
  // with its transcript (or later) where the previous one's volatile tail began.
  const tail = (previousPart === null || !STABLE.has(previousPart)) &&
    (part === null || !LEAD.has(part));
  return {
    previous: head,
    kind: tail ? "tail" : "break",
    part,
    previousPart,
    offset: at,
    shared: (from > 0 ? "…" : "") + mine.text.slice(from, at),
    before: theirs.text.slice(at, at + CONTINUATION),
    after: mine.text.slice(at, at + CONTINUATION),
    sameParts,
  };
}

interface Layout {
  readonly text: string;
  /** Each part's name and end offset in `text`. */
  readonly ends: readonly (readonly [string, number])[];
}

/** The request as one text, parts in order, with where each ends. */
function layout(record: TurnRecord, capture: RequestCapture): Layout {
  let text = "";
  const ends: [string, number][] = [];
  for (const part of record.context!.parts) {
    text += textOf(capture, part) ?? "";
    ends.push([part.name, text.length]);
  }
  return { text, ends };
}

function partAt(layout: Layout, offset: number): string | null {
  return layout.ends.find(([, end]) => offset < end)?.[0] ?? null;
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
