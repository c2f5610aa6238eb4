/**
 * The messages reconcile (docs/operating.md#what-each-kind-of-item-becomes): read what is new since the mark (or infer a first
 * wake's starting point), absorb each message into the ledger — own, probe, claimed, or held by
 * another wake — answer the batch as ONE turn, then settle: commit claims, advance the mark up to
 * the first item that must be offered again.
 */
import { Message } from "../core/types/message.ts";
import { readMark, writeMark } from "../home/marks.ts";
import type { Message as PlatformMessage } from "../platform/mod.ts";
import { messageLine, renderBatch } from "../runtime/item_text.ts";
import type { Rebuild, TurnSpec } from "./engaged_half.ts";
import { engaged } from "./engaged_half.ts";
import { type LedgerEntry, planFirstMessageWake, settledMark } from "./first_wake.ts";
import { carriesHuman, humanAuthored } from "./breaker_gate.ts";
import { armedReason, isOneOnOne } from "./nudge.ts";
import { paceConfig, PACING_FAILED, settleRead } from "./pacing.ts";
import { recoverItems } from "./recovery.ts";
import { triage, type TriageRules } from "./triage.ts";
import { startDashboardRead, type Wake } from "./wake_state.ts";
import { type KindReader, leaveFirstMark, listSince, onlyOwn, readFirstWindow } from "./window.ts";

const KIND = "messages";

/** How messages are read from the platform. */
function reader(wake: Wake): KindReader<PlatformMessage> {
  const { timeline } = wake.settings;
  return {
    list: (options) => wake.client.messages.list({ timeline, ...options }).toArray(),
    get: (uuid) => wake.client.messages.get(uuid),
    uuid: (m) => m.content.uuid,
  };
}

/** Reconciles the timeline's messages. */
export async function reconcileMessages(wake: Wake): Promise<void> {
  const { home, timeline } = wake.settings;
  const read = reader(wake);
  const author = (m: PlatformMessage) => m.user.uuid;
  const mark = await readMark(home, KIND, timeline, wake.journal);
  if (mark !== undefined) {
    const items = await listSince(wake, KIND, mark, read);
    if (!onlyOwn(wake, items, author)) await respond(wake, items);
    return;
  }
  // First wake: a bounded window, plus anything a dead wake left claimed outside it.
  const window = await readFirstWindow(wake, KIND, read);
  if (onlyOwn(wake, [...window.recent, ...window.stranded], author)) return;
  const plan = planFirstMessageWake({
    recent: window.recent.map(ref),
    stranded: window.stranded.map(ref),
    self: wake.context.self.uuid,
    trigger: wake.triggers.message,
    unsettled: window.unsettled,
  });
  const byUuid = new Map([...window.recent, ...window.stranded].map((m) => [m.content.uuid, m]));
  seedContext(wake, plan.context.map((r) => byUuid.get(r.uuid)!));
  const ledger = await respond(wake, plan.reply.map((r) => byUuid.get(r.uuid)!));
  await leaveFirstMark(wake, KIND, window, read, ledger);
}

/** Absorbs `items` (oldest first), engages the batch once, settles. Returns the ledger. */
async function respond(wake: Wake, items: PlatformMessage[]): Promise<LedgerEntry[]> {
  const { timeline } = wake.settings;
  const recoveries = await recoverItems(
    wake,
    KIND,
    items.map((m) => ({
      uuid: m.content.uuid,
      handle: m.user.handle,
      spec: () => batchSpec(wake, [m]),
    })),
  );
  const rules: TriageRules = { kind: KIND, selfFilter: true, recoveries };
  const ledger: LedgerEntry[] = [];
  const batch: PlatformMessage[] = [];
  let probeSeen = false;
  // A batch with a human's message in it is a conversation, never a loop: the breaker lets all of
  // it through (docs/operating.md#the-wake-breaker).
  const human = carriesHuman(items, wake.context.self.uuid);
  const absorb = async (message: PlatformMessage): Promise<void> => {
    const item = {
      uuid: message.content.uuid,
      author: message.user.uuid,
      carrier: message.content.body,
      human: human || humanAuthored(message.user),
    };
    const { disposition, rule } = await triage(wake, rules, item);
    if (rule === "probe") probeSeen = true;
    ledger.push({ uuid: item.uuid, disposition });
    if (disposition === "ours") batch.push(message);
  };
  for (const message of items) await absorb(message);
  // Messages newer than the cursor (the newest item read so far), absorbed in order; whether the
  // batch grew.
  let cursor = items.at(-1)?.content.uuid;
  const reread = async (): Promise<boolean> => {
    if (cursor === undefined) return false;
    const fresh = await wake.client.messages.list({ timeline, until: cursor }).toArray();
    const before = batch.length;
    for (const message of fresh.reverse()) {
      await absorb(message);
      cursor = message.content.uuid;
    }
    return batch.length > before;
  };
  const pace = paceConfig(wake.env);
  if (batch.length && wake.billingWall) {
    for (const entry of ledger) if (entry.disposition === "ours") entry.disposition = "pending";
  } else if (batch.length) {
    if (pace.enabled) {
      // Loop 1: read the newest peer AI's message at a human's pace, settling on the true newest.
      await settleRead({
        config: pace,
        timeline,
        warn: (text) => wake.journal.text("WARNING", text),
        target: () => {
          const newest = batch.at(-1);
          if (probeSeen || !newest || newest.user.kind !== "ai") return undefined;
          return { body: newest.content.body, created_at: newest.created_at };
        },
        reread,
      });
    }
    const rebuild: Rebuild | undefined = pace.enabled
      ? {
        maxBuilds: pace.maxBuilds,
        // Loop 2: a message that landed during a tool-free build is folded in and the turn rebuilt.
        check: async () => {
          try {
            if (!await reread()) return undefined;
          } catch {
            wake.journal.text("WARNING", PACING_FAILED);
            return undefined;
          }
          return { spec: batchSpec(wake, batch), turn: batchTurn(batch) };
        },
      }
      : undefined;
    // After the read pacing (which can last minutes), so the primer the model sees is fresh.
    startDashboardRead(wake);
    const outcome = await (await engaged()).engage(
      wake,
      batchSpec(wake, batch),
      batchTurn(batch),
      rebuild,
    );
    if (outcome === "billing" || outcome === "unsettled") {
      // Unsettled: the claims stay in flight for the next wake's recovery (see items.ts).
      for (const entry of ledger) if (entry.disposition === "ours") entry.disposition = "pending";
    }
  }
  await settle(wake, ledger);
  return ledger;
}

/** The batch's one user turn: every message a `[created_at] handle: body` line. */
function batchTurn(batch: PlatformMessage[]): Message {
  return Message.user(renderBatch(batch), { items: batch.map((m) => m.content.uuid) });
}

/** Commits every claim this wake holds and moves the mark up to the first pending item. */
async function settle(wake: Wake, ledger: LedgerEntry[]): Promise<void> {
  const { home, timeline } = wake.settings;
  for (const entry of ledger) {
    if (entry.disposition !== "ours") continue;
    await wake.claims.commit(KIND, timeline, entry.uuid);
    entry.disposition = "final";
  }
  const mark = settledMark(ledger);
  if (mark) await writeMark(home, KIND, timeline, mark);
}

/** The turn spec of a batch: anchored on its oldest message, armed by mention or 1-on-1. */
function batchSpec(wake: Wake, batch: PlatformMessage[]): TurnSpec {
  const self = wake.context.self;
  const text = renderBatch(batch);
  const counterpart = batch.some((m) => m.user.uuid !== self.uuid);
  return {
    text,
    anchor: batch[0]?.content.uuid,
    itemLabel: batch.map((m) => m.content.uuid).join(","),
    report: { kind: "message", count: batch.length },
    nudge: armedReason({
      text,
      handle: self.handle,
      counterpartOnOneOnOne: counterpart && isOneOnOne(wake.viewers, self.uuid),
    }),
    // Recall keys on the newest message only: the most specific thing just said.
    recallQuery: batch.length ? messageLine(batch[batch.length - 1]) : text,
  };
}

/**
 * A fresh session (no user/assistant turn yet) reads the older backlog as prior turns, oldest
 * first: the agent's own posts as its replies, everyone else's as user lines.
 */
function seedContext(wake: Wake, contextNewestFirst: PlatformMessage[]): void {
  if (wake.messages.some((m) => m.role === "user" || m.role === "assistant")) return;
  if (!contextNewestFirst.length) return;
  const self = wake.context.self.uuid;
  for (const m of [...contextNewestFirst].reverse()) {
    wake.messages.push(
      m.user.uuid === self
        ? Message.assistant({ content: m.content.body })
        : Message.user(messageLine(m)),
    );
  }
}

function ref(m: PlatformMessage): { uuid: string; author: string } {
  return { uuid: m.content.uuid, author: m.user.uuid };
}
