/**
 * The recovery table (docs/operating.md#the-delivery-guarantee): what a wake does with an item whose claim a dead wake left
 * in flight, decided from the evidence in the transcript — which is written as the turn runs, so
 * "no tool call on disk" means "no tool call ran".
 *
 * | evidence                                   | action                        |
 * |--------------------------------------------|-------------------------------|
 * | no turn, but a compaction summary lists it | abandon (ERROR `dropped`)     |
 * | no turn                                    | re-drive                      |
 * | turn ends in assistant text, no calls      | commit (`recovered`)          |
 * | turn has tool calls, no terminal text      | resume (re-issue creates)     |
 * | turn has neither (died in the model call)  | excise the dead turn, re-drive|
 *
 * Non-idempotent effects are never re-run: only recorded platform creates whose result is the
 * interrupted sentinel are re-issued, under the key the dead wake minted.
 */
import { isOutcomeUnknown } from "../core/types/outcome_unknown.ts";
import { errorMessage, namedError } from "../base/error_text.ts";
import { runResultIndex } from "../core/types/runs.ts";
import { createKind } from "../core/types/create_calls.ts";
import { awaitsReissue } from "../core/transcript/heal.ts";
import type { Message } from "../core/types/message.ts";
import {
  dropped,
  recovered,
  REDRIVE_IN_MODEL_CALL,
  REDRIVE_UNSEEN,
  reDriving,
  reIssued,
  resuming,
} from "../journal/catalogue_recovery.ts";
import { idempotencyKey, type KeyedKind } from "../platform/idempotency.ts";
import { createOrdinal } from "./keys.ts";
import { budgetAdmits } from "./budget_gate.ts";
import type { ClaimKind } from "../home/claims.ts";
import type { TurnOutcome, TurnSpec } from "./engaged_half.ts";
import { engaged } from "./engaged_half.ts";
import { persist, type Wake } from "./wake_state.ts";
import { SUMMARY_MARKER } from "../core/types/summary_marker.ts";

/** What recovery decided for one item. */
export type Recovery =
  /** Settled by recovery (committed, abandoned or resumed to an end). */
  | "final"
  /** Lost the take-over, or the resume failed: offer it again later. */
  | "pending"
  /** This wake now holds the claim and engages the item normally. */
  | "redrive"
  /** Resumed into a billing wall: pending, and no more model calls this wake. */
  | "billing";

/** Where a turn sits in the transcript: the user message and the end of its work (exclusive). */
export interface TurnSpan {
  readonly start: number;
  readonly end: number;
}

/** The user turn carrying `uuid` in its items, and its work (up to the next real user turn). */
export function findTurn(messages: readonly Message[], uuid: string): TurnSpan | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "user" && !m.injected && m.items?.includes(uuid)) {
      let end = i + 1;
      while (end < messages.length && !(messages[end].role === "user" && !messages[end].injected)) {
        end++;
      }
      return { start: i, end };
    }
  }
  return undefined;
}

/** What the turn's work shows: finished, mid-tool-chain, or dead inside the model call. */
export function turnState(
  messages: readonly Message[],
  span: TurnSpan,
): "completed" | "mid-tools" | "in-model-call" {
  const work = messages.slice(span.start + 1, span.end);
  const assistants = work.filter((m) => m.role === "assistant");
  const last = assistants.at(-1);
  if (last && !last.toolCalls?.length && (last.content ?? "") !== "") return "completed";
  return assistants.some((m) => m.toolCalls?.length) ? "mid-tools" : "in-model-call";
}

/** Whether a compaction summary recorded `uuid` among the turns it destroyed. */
export function summarized(messages: readonly Message[], uuid: string): boolean {
  return messages.some((m) =>
    m.role === "system" && (m.content ?? "").startsWith(SUMMARY_MARKER) && m.items?.includes(uuid)
  );
}

/** One item a recovery pass looks at. */
export interface RecoverableItem {
  readonly uuid: string;
  readonly handle?: string;
  /** The turn spec used if the item's turn is resumed. */
  readonly spec: () => TurnSpec;
}

/**
 * The recovery pass over `items` of claim kind `kind`: only items whose claim is in flight and
 * orphaned (a live owner keeps its item) get a verdict; the rest are absent from the map.
 */
export async function recoverItems(
  wake: Wake,
  kind: ClaimKind,
  items: readonly RecoverableItem[],
): Promise<Map<string, Recovery>> {
  const verdicts = new Map<string, Recovery>();
  const tl = wake.settings.timeline;
  for (const item of items) {
    if (verdicts.has(item.uuid)) continue;
    const owner = await wake.claims.owner(kind, tl, item.uuid);
    if (!owner || owner.phase !== "in-flight" || !wake.claims.isOrphaned(owner)) continue;
    const line = { item: item.uuid, kind: lineKind(kind), timeline: tl, handle: item.handle };
    const span = findTurn(wake.messages, item.uuid);
    if (!span) {
      if (!await wake.claims.takeOver(kind, tl, item.uuid, owner.wake)) {
        verdicts.set(item.uuid, "pending");
      } else if (summarized(wake.messages, item.uuid)) {
        const reason = "its turn was destroyed by a context compaction; what it did is unknown";
        await wake.claims.abandon(kind, tl, item.uuid, reason);
        dropped(wake.journal, { ...line, reason });
        verdicts.set(item.uuid, "final");
      } else {
        reDriving(wake.journal, { ...line, reason: REDRIVE_UNSEEN });
        verdicts.set(item.uuid, "redrive");
      }
      continue;
    }
    const state = turnState(wake.messages, span);
    // A batched turn carries several items; they are settled together, whichever is met first.
    const carried = wake.messages[span.start].items ?? [item.uuid];
    if (state === "completed" && !unsettledCreates(wake.messages, span)) {
      for (const uuid of carried) await wake.claims.commit(kind, tl, uuid);
      recovered(wake.journal, line);
      for (const uuid of carried) verdicts.set(uuid, "final");
      continue;
    }
    if (!await wake.claims.takeOver(kind, tl, item.uuid, owner.wake)) {
      verdicts.set(item.uuid, "pending");
      continue;
    }
    // The rest of the batch was claimed by the same dead wake: hold those claims too, so a dying
    // recovery leaves every one orphaned in this wake's name rather than the first one alone.
    for (const uuid of carried) {
      if (uuid !== item.uuid) await wake.claims.takeOver(kind, tl, uuid);
    }
    if (state === "completed") {
      // The turn ended, but a create in it never got a definite answer: re-send it under its
      // key (a replay can never duplicate it), and commit only once every one is settled.
      const unknownBefore = wake.context.unknownOutcomes;
      await reissueCreates(wake, span, wake.messages[span.start].items?.[0]);
      const settled = wake.context.unknownOutcomes === unknownBefore;
      if (settled) {
        for (const uuid of carried) await wake.claims.commit(kind, tl, uuid);
        recovered(wake.journal, line);
      }
      for (const uuid of carried) verdicts.set(uuid, settled ? "final" : "pending");
      continue;
    }
    if (state === "in-model-call") {
      reDriving(wake.journal, { ...line, reason: REDRIVE_IN_MODEL_CALL });
      wake.messages.splice(span.start, span.end - span.start); // excise the dead turn
      await persist(wake);
      for (const uuid of carried) verdicts.set(uuid, "redrive");
      continue;
    }
    if (!await budgetAdmits(wake)) {
      // docs/operating.md#the-budget-guard: the claims stay in flight in this wake's name, and
      // the first wake after the reset resumes the turn.
      for (const uuid of carried) verdicts.set(uuid, "pending");
      continue;
    }
    resuming(wake.journal, line);
    const outcome = await resume(wake, kind, span, item.spec());
    const verdict: Recovery = outcome === "billing"
      ? "billing"
      : outcome === "failed" || outcome === "unsettled"
      ? "pending"
      : "final";
    if (verdict === "final") {
      for (const uuid of carried) await wake.claims.commit(kind, tl, uuid);
    }
    for (const uuid of carried) verdicts.set(uuid, verdict);
  }
  return verdicts;
}

/**
 * Finishes a turn a dead wake started: re-issue its interrupted creates under their recorded
 * keys, then let the model continue inside that turn (the continuation is spliced into the turn,
 * not appended at the transcript end).
 */
async function resume(
  wake: Wake,
  kind: ClaimKind,
  span: TurnSpan,
  base: TurnSpec,
): Promise<TurnOutcome | "failed"> {
  const anchor = wake.messages[span.start].items?.[0] ?? base.anchor;
  const unknownBefore = wake.context.unknownOutcomes;
  await reissueCreates(wake, span, anchor);
  const spec: TurnSpec = {
    ...base,
    anchor,
    text: wake.messages[span.start].content ?? base.text,
    // The nudge says "nothing posted, shared, or done": false once this very turn has acted
    // (in the dead wake, or by a re-issue just now), so a turn that already acted is disarmed.
    nudge: actedIn(wake.messages, span) ? undefined : base.nudge,
  };
  const head = wake.messages.slice(0, span.end);
  const tail = wake.messages.slice(span.end);
  const save = async () => {
    wake.messages = [...head, ...tail];
    await persist(wake);
  };
  try {
    const { drive } = await engaged();
    const outcome = await drive(wake, spec, head, span.start, save);
    wake.messages = [...head, ...tail];
    await persist(wake);
    // A re-send that still got no definite answer keeps the item for the next wake.
    return outcome === "done" && wake.context.unknownOutcomes > unknownBefore
      ? "unsettled"
      : outcome;
  } catch (error) {
    wake.messages = [...head, ...tail];
    const why = namedError(error);
    wake.journal.text(
      "ERROR",
      `Resuming the interrupted turn failed; the next wake will try again. (${why}) kind=${kind}`,
    );
    return "failed";
  }
}

/** Re-sends each interrupted create of the turn through its tool, under the dead wake's key. */
async function reissueCreates(wake: Wake, span: TurnSpan, anchor: string | undefined) {
  const messages = wake.messages;
  for (let i = span.start + 1; i < span.end; i++) {
    const turn = messages[i];
    if (turn.role !== "assistant" || !turn.toolCalls?.length) continue;
    for (let c = 0; c < turn.toolCalls.length; c++) {
      const call = turn.toolCalls[c];
      const kind = createKind(call) as KeyedKind | undefined;
      if (!kind) continue; // a non-idempotent effect is never re-run
      const resultIndex = runResultIndex(messages, i, call.id);
      if (resultIndex < 0 || !awaitsReissue(messages[resultIndex])) continue;
      const tool = (await wake.engine.get()).registry.get(call.name);
      if (!tool || !anchor) continue;
      const ordinal = createOrdinal(messages, span.start, { assistant: i, call: c }, kind);
      wake.context.beginTurn(anchor, messages, span.start);
      const key = await idempotencyKey({ timeline: wake.settings.timeline, anchor, kind, ordinal });
      wake.context.pin(call.id, key);
      let text: string;
      try {
        const out = await tool.run(call.arguments, { callId: call.id });
        text = typeof out === "string" ? out : out.text;
      } catch (error) {
        text = `Error running '${call.name}': ${errorMessage(error)}`;
      } finally {
        wake.context.endTurn();
      }
      messages[resultIndex] = { role: "tool", toolCallId: call.id, content: text };
      reIssued(wake.journal, { tool: call.name, kind, ordinal, timeline: wake.settings.timeline });
      await persist(wake);
    }
  }
}

/** Whether the turn holds a create the platform never answered definitely. */
function unsettledCreates(messages: readonly Message[], span: TurnSpan): boolean {
  for (let i = span.start + 1; i < span.end; i++) {
    const turn = messages[i];
    if (turn.role !== "assistant" || !turn.toolCalls?.length) continue;
    for (const call of turn.toolCalls) {
      if (!createKind(call)) continue;
      const at = runResultIndex(messages, i, call.id);
      if (at >= 0 && isOutcomeUnknown(messages[at])) return true;
    }
  }
  return false;
}

/** Tool calls that are a visible act on the timeline (what `recordAct` tallies live). */
const VISIBLE_ACTS = new Set([
  "messages/create",
  "assets/create",
  "assets/post_image",
  "tasks/create",
]);

/**
 * Whether the turn's recorded work already holds a visible act: a posting call whose result is
 * neither missing, the interrupted sentinel, nor a tool error.
 */
export function actedIn(messages: readonly Message[], span: TurnSpan): boolean {
  for (let i = span.start + 1; i < span.end; i++) {
    const turn = messages[i];
    if (turn.role !== "assistant") continue;
    for (const call of turn.toolCalls ?? []) {
      const action = call.arguments.action;
      if (!VISIBLE_ACTS.has(`${call.name}/${typeof action === "string" ? action : ""}`)) continue;
      const at = runResultIndex(messages, i, call.id);
      const text = at < 0 ? "" : messages[at].content ?? "";
      if (at >= 0 && !awaitsReissue(messages[at]) && !/^(Error|Couldn't)\b/.test(text)) return true;
    }
  }
  return false;
}

/** The `kind=` word recovery lines use for a claim kind. */
function lineKind(kind: ClaimKind): string {
  const words: Record<ClaimKind, string> = {
    messages: "message",
    assets: "asset",
    webhook_events: "event",
    tasks: "task",
  };
  return words[kind];
}
