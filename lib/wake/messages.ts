/**
 * The messages reconcile (contracts §6.2): read what is new since the mark (or infer a first
 * wake's starting point), absorb each message into the ledger — own, probe, claimed, or held by
 * another wake — answer the batch as ONE turn, then settle: commit claims, advance the mark up to
 * the first item that must be offered again.
 */
import { Message } from "../core/message.ts";
import type { Message as PlatformMessage } from "../platform/mod.ts";
import {
  bootstrapMark,
  hasPending,
  type LedgerEntry,
  planFirstMessageWake,
  settledMark,
  strandedUuids,
} from "./inference.ts";
import { armedReason, isOneOnOne } from "./nudge.ts";
import { probeAck, verifiedProbe } from "./probe.ts";
import { recoverItems } from "./recovery.ts";
import { messageLine, renderBatch } from "./render.ts";
import { readMark, writeMark } from "./state/marks.ts";
import { postAs } from "./post.ts";
import type { TurnSpec } from "./turn.ts";
import { engaged } from "./load_engaged.ts";
import type { Wake } from "./wake_state.ts";

const KIND = "messages";

/** Reconciles the timeline's messages. */
export async function reconcileMessages(wake: Wake): Promise<void> {
  const { home, timeline } = wake.settings;
  const mark = await readMark(home, KIND, timeline);
  if (mark !== undefined) {
    const unseen = await wake.client.messages.list({ timeline, until: mark }).toArray();
    await respond(wake, unseen.reverse());
    return;
  }
  // First wake: a bounded window, plus anything a dead wake left claimed outside it.
  const limit = wake.settings.window === "all" ? undefined : Math.max(1, wake.settings.window);
  const recent = await wake.client.messages.list({ timeline, limit }).toArray();
  const unsettled = new Set(await wake.claims.unsettled(KIND, timeline));
  const stranded = await fetchStranded(wake, strandedUuids(recent.map(ref), unsettled));
  const plan = planFirstMessageWake({
    recent: recent.map(ref),
    stranded: stranded.map(ref),
    self: wake.context.self.uuid,
    trigger: wake.triggers.message,
    unsettled,
  });
  const byUuid = new Map([...recent, ...stranded].map((m) => [m.content.uuid, m]));
  seedContext(wake, plan.context.map((r) => byUuid.get(r.uuid)!));
  const ledger = await respond(wake, plan.reply.map((r) => byUuid.get(r.uuid)!));
  if (!hasPending(ledger)) {
    const next = bootstrapMark(recent.map(ref), await readMark(home, KIND, timeline));
    if (next) await writeMark(home, KIND, timeline, next);
  }
}

/** Absorbs `items` (oldest first), engages the batch once, settles. Returns the ledger. */
async function respond(wake: Wake, items: PlatformMessage[]): Promise<LedgerEntry[]> {
  const { timeline } = wake.settings;
  const self = wake.context.self.uuid;
  const recoveries = await recoverItems(
    wake,
    KIND,
    items.map((m) => ({
      uuid: m.content.uuid,
      handle: m.user.handle,
      spec: () => batchSpec(wake, [m]),
    })),
  );
  const ledger: LedgerEntry[] = [];
  const batch: PlatformMessage[] = [];
  for (const message of items) {
    const uuid = message.content.uuid;
    if (message.user.uuid === self) {
      ledger.push({ uuid, disposition: "final" });
      continue;
    }
    const nonce = await verifiedProbe(message.content.body, wake.settings.probeSecret);
    if (nonce !== undefined) {
      const acked = await postAs(wake, probeAck(nonce), "probe-ack");
      ledger.push({ uuid, disposition: acked ? "final" : "pending" });
      continue;
    }
    const recovered = recoveries.get(uuid);
    if (recovered === "billing") wake.billingWall = true;
    if (recovered && recovered !== "redrive") {
      ledger.push({ uuid, disposition: recovered === "final" ? "final" : "pending" });
      continue;
    }
    if (recovered === "redrive" || await wake.claims.claim(KIND, timeline, uuid) === "won") {
      ledger.push({ uuid, disposition: "ours" });
      batch.push(message);
      continue;
    }
    const record = await wake.claims.owner(KIND, timeline, uuid);
    ledger.push({
      uuid,
      disposition: record && wake.claims.isSettled(record) ? "final" : "pending",
    });
  }
  if (batch.length && wake.billingWall) {
    for (const entry of ledger) if (entry.disposition === "ours") entry.disposition = "pending";
  } else if (batch.length) {
    const outcome = await (await engaged()).engage(
      wake,
      batchSpec(wake, batch),
      Message.user(renderBatch(batch), { items: batch.map((m) => m.content.uuid) }),
    );
    if (outcome === "billing") {
      for (const entry of ledger) if (entry.disposition === "ours") entry.disposition = "pending";
    }
  }
  await settle(wake, ledger);
  return ledger;
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

/** Fetches stranded messages by uuid; an unreadable one is skipped with a WARNING. */
async function fetchStranded(wake: Wake, uuids: string[]): Promise<PlatformMessage[]> {
  const out: PlatformMessage[] = [];
  for (const uuid of uuids) {
    try {
      out.push(await wake.client.messages.get(uuid));
    } catch {
      wake.journal.text(
        "WARNING",
        `An unsettled message (${uuid}) is no longer readable on the platform; skipping it.`,
      );
    }
  }
  return out;
}

function ref(m: PlatformMessage): { uuid: string; author: string } {
  return { uuid: m.content.uuid, author: m.user.uuid };
}
