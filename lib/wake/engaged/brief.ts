/**
 * The brief, split in two (docs/invariants.md#6-stable-first-volatile-last). The **charter** — personality, `initialize.md`, the tool
 * manifest, tool defects, safety notices — is composed each wake from config alone
 * (lib/runtime/configured_agent.ts), so it is byte-identical while nothing changed, and leads
 * what the provider is sent. The **volatile** part — the time
 * anchor, the step budget, the dashboard primer, recalled memory — is spliced immediately before
 * the newest user turn. Neither is ever persisted: `briefView` builds the provider's view from the
 * live transcript and leaves the transcript untouched.
 */
import type { Message } from "../../core/types/message.ts";
import type { CacheMode } from "../../core/types/provider.ts";
import { PART_JOINER } from "../../runtime/charter.ts";

/** The sentence after the time anchor: every `[created_at]` is UTC, convert before answering. */
export const NOW_INSTRUCTION =
  "Every timestamp you read here is in UTC; when someone asks about a local time, convert from " +
  "UTC to their time zone before you answer.";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** `Current Time: YYYY-MM-DD HH:MM:SS UTC (+00:00, <Weekday>)` and the conversion sentence. */
export function nowPart(at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace("T", " ");
  return `Current Time: ${stamp} UTC (+00:00, ${WEEKDAYS[at.getUTCDay()]})\n${NOW_INSTRUCTION}`;
}

/** The step-budget statement; names the `messages` tool and the unspoken closing text. */
export function budgetPart(maxSteps: number): string {
  return `Step budget: this turn runs for up to ${maxSteps} steps — a step is one of your model ` +
    `turns, with or without tool calls — and a counter ('Step N of ${maxSteps}') comes before ` +
    "each one. The budget belongs to this turn and starts over on your next wake. Finish with " +
    "plain text before it runs out. That closing text is unspoken: it goes to your log and your " +
    "memory, not to any timeline, so anything a peer should see must be posted with the " +
    "`messages` tool before then. If work will remain, schedule a follow-up task.";
}

/**
 * The leading system text: the charter, then the knowledge pack (docs/context.md#the-knowledge-pack)
 * after one {@link PART_JOINER}, so an edit to the pack leaves every byte before it unchanged.
 */
export function withKnowledge(
  charter: string | undefined,
  knowledge: string | undefined,
): string | undefined {
  return join([charter, knowledge]);
}

/** The volatile inputs, fresh each wake. */
export interface VolatileInput {
  readonly now: Date;
  readonly maxSteps: number;
  /** `GET /users/dashboard.md`, stripped; absent when the fetch failed. */
  readonly dashboard?: string;
  /** Recalled memory for the turn's text; absent when there is none. */
  readonly memory?: string;
}

/** The volatile text: time anchor, budget, dashboard, memory — non-blank parts in that order. */
export function composeVolatile(input: VolatileInput): string {
  return join(volatileParts(input).map(([, text]) => text)) ?? "";
}

/** The volatile half's non-blank parts, named (`now`, `budget`, `dashboard`, `memory`), in order. */
export function volatileParts(input: VolatileInput): [name: string, text: string][] {
  const parts: [string, string | undefined][] = [
    ["now", nowPart(input.now)],
    ["budget", budgetPart(input.maxSteps)],
    ["dashboard", input.dashboard?.trim()],
    ["memory", input.memory?.trim()],
  ];
  return parts.filter((p): p is [string, string] => typeof p[1] === "string" && p[1].trim() !== "");
}

/**
 * The provider's view: the charter as the leading system message, then the transcript with the
 * volatile part spliced just before its newest real (non-injected) user turn — so everything up
 * to that turn is a byte-stable prefix across wakes. With no user turn it goes at the end.
 *
 * With `cacheMode === "explicit"` (docs/models.md#add-your-own-provider) the one prompt-cache breakpoint is set on a
 * copy of the last non-tool message with content strictly before that stable boundary — the last
 * frozen turn, or the charter on a first wake — never on the volatile brief or the newest turn.
 * The live transcript is never mutated and the anchor is never persisted.
 */
export function briefView(
  charter: string | undefined,
  volatile: string | undefined,
  cacheMode?: CacheMode,
): (messages: readonly Message[]) => Message[] {
  return (messages) => {
    const out: Message[] = charter ? [{ role: "system", content: charter }] : [];
    const at = newestUserTurn(messages);
    // The stable boundary in `view`: where the volatile part goes (or would go).
    const frozen = at < 0 ? messages.length : at;
    let view: Message[];
    if (!volatile) view = [...out, ...messages];
    else if (at < 0) view = [...out, ...messages, { role: "system", content: volatile }];
    else {
      view = [
        ...out,
        ...messages.slice(0, at),
        { role: "system", content: volatile },
        ...messages.slice(at),
      ];
    }
    if (cacheMode === "explicit") anchorBefore(view, out.length + frozen);
    return view;
  };
}

/** Copy-on-write: the last non-tool message with content before `boundary` gets `cacheAnchor`. */
function anchorBefore(view: Message[], boundary: number): void {
  for (let i = Math.min(boundary, view.length) - 1; i >= 0; i--) {
    const message = view[i];
    if (message.role === "tool" || !message.content) continue;
    view[i] = { ...message, cacheAnchor: true };
    return;
  }
}

/** Index of the newest user turn that is not a turn's own injected work; -1 when none. */
export function newestUserTurn(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === "user" && !messages[i].injected) return i;
  }
  return -1;
}

function join(parts: readonly (string | undefined)[]): string | undefined {
  const kept = parts.filter((p): p is string => typeof p === "string" && p.trim() !== "");
  return kept.length ? kept.join(PART_JOINER) : undefined;
}
