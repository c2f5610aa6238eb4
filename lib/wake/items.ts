/**
 * Assets, webhook events and activated tasks (docs/operating.md#what-each-kind-of-item-becomes): one turn per item, each claimed,
 * engaged and committed the moment its turn ends; marks for assets and events, the seen-set for
 * tasks. A self-authored asset is never engaged but its mark still advances (the self-filter that
 * stops an agent answering its own generated images forever).
 */
import { type ImageContent, Message } from "../core/types/message.ts";
import type { ClaimKind } from "../home/claims.ts";
import { readMark, writeMark } from "../home/marks.ts";
import { addSeen, readSeen } from "../home/seen.ts";
import type { Asset, Task, WebhookEvent } from "../platform/mod.ts";
import { renderAsset, renderEvent, renderTask } from "../runtime/item_text.ts";
import { perceiveAsset } from "./asset_view.ts";
import type { TurnSpec } from "./engaged_half.ts";
import { engaged } from "./engaged_half.ts";
import {
  type LedgerEntry,
  planFirstItemWake,
  seenAdditions,
  settledMark,
  unhandledTasks,
  withFetchedTrigger,
} from "./first_wake.ts";
import { humanAuthored } from "./breaker_gate.ts";
import { armedReason } from "./nudge.ts";
import { listFresh, takeTasks } from "./read_ahead.ts";
import { recoverItems } from "./recovery.ts";
import type { ReportedItem } from "./reports.ts";
import { triage, type TriageRules } from "./triage.ts";
import { startDashboardRead, type Wake } from "./wake_state.ts";
import { type KindReader, leaveFirstMark, listSince, onlyOwn, readFirstWindow } from "./window.ts";

/** How one kind reads to the shared per-item loop. */
interface ItemKind<T> {
  readonly claim: ClaimKind;
  uuid(item: T): string;
  author(item: T): string | undefined;
  /** The text a probe marker may ride in. */
  carrier(item: T): string | null | undefined;
  render(item: T): string;
  /**
   * What an engaged turn shows, when it may differ from {@link render} (assets: a viewable image
   * rides the turn on a vision model). Called only for the turn actually engaged.
   */
  perceive?(wake: Wake, item: T): Promise<{ text: string; images?: ImageContent[] }>;
  report(item: T): ReportedItem;
  /** Whether the agent's own items are skipped (assets only). */
  readonly selfFilter: boolean;
  /** Whether a human wrote it (the breaker never holds such an item back). */
  human(item: T): boolean;
}

const ASSETS: ItemKind<Asset> = {
  claim: "assets",
  uuid: (a) => a.content.uuid,
  author: (a) => a.user.uuid,
  carrier: (a) => a.content.description,
  render: renderAsset,
  perceive: (wake, a) =>
    perceiveAsset({
      assets: wake.client.assets,
      journal: wake.journal,
      timeline: wake.settings.timeline,
      model: wake.settings.model,
      provider: async () => {
        try {
          return (await wake.engine.get()).provider;
        } catch {
          return undefined; // the turn itself reports the failed build
        }
      },
    }, a),
  report: (a) => ({ kind: "asset", filename: a.content.file?.filename }),
  selfFilter: true,
  human: (a) => humanAuthored(a.user),
};

const EVENTS: ItemKind<WebhookEvent> = {
  claim: "webhook_events",
  uuid: (e) => e.content.uuid,
  author: () => undefined,
  carrier: (e) => e.content.payload,
  render: renderEvent,
  report: () => ({ kind: "event" }),
  selfFilter: false,
  human: () => false, // a delivery has no author: automation, which is what loops
};

const TASKS: ItemKind<Task> = {
  claim: "tasks",
  uuid: (t) => t.content.uuid,
  author: (t) => t.user.uuid,
  carrier: (t) => t.content.instructions,
  render: renderTask,
  report: () => ({ kind: "task" }),
  selfFilter: false,
  human: (t) => humanAuthored(t.user),
};

/** Assets since the mark, or a first wake's inferred starting point. */
export function reconcileAssets(wake: Wake): Promise<void> {
  return reconcileMarked(wake, ASSETS, "assets", wake.triggers.asset, {
    list: (opts) =>
      wake.client.assets.list({ timeline: wake.settings.timeline, ...opts }).toArray(),
    get: (uuid) => wake.client.assets.get(uuid),
    uuid: ASSETS.uuid,
  });
}

/** Webhook events since the mark, or a first wake's inferred starting point. */
export function reconcileEvents(wake: Wake): Promise<void> {
  return reconcileMarked(wake, EVENTS, "webhook_events", wake.triggers.event, {
    list: (opts) =>
      wake.client.webhookEvents.list({ timeline: wake.settings.timeline, ...opts }).toArray(),
    get: (uuid) => wake.client.webhookEvents.get(uuid),
    uuid: EVENTS.uuid,
  });
}

/** Every activated task not yet in the seen-set, oldest first. */
export async function reconcileTasks(wake: Wake): Promise<void> {
  const { home, timeline } = wake.settings;
  const listed = await (takeTasks(wake) ??
    listFresh(
      wake,
      "tasks",
      () => wake.client.tasks.list({ timeline, status: "activated" }).toArray(),
    ));
  const seen = await readSeen(home, timeline);
  const todo = unhandledTasks(listed.map((t) => ({ uuid: t.content.uuid, task: t })), seen);
  const ledger = await actOn(wake, TASKS, todo.map((t) => t.task));
  const done = seenAdditions(ledger);
  if (done.length) await addSeen(home, timeline, done);
}

async function reconcileMarked<T>(
  wake: Wake,
  kind: ItemKind<T>,
  markKind: "assets" | "webhook_events",
  trigger: string | undefined,
  reader: KindReader<T>,
): Promise<void> {
  const { home, timeline } = wake.settings;
  const own = (items: T[]) => kind.selfFilter && onlyOwn(wake, items, kind.author);
  const mark = await readMark(home, markKind, timeline, wake.journal);
  if (mark !== undefined) {
    const items = await listSince(wake, markKind, mark, reader);
    if (own(items)) return;
    const ledger = await actOn(wake, kind, items);
    const next = settledMark(ledger);
    if (next) await writeMark(home, markKind, timeline, next);
    return;
  }
  const window = await readFirstWindow(wake, markKind, reader);
  if (own([...window.recent, ...window.stranded])) return;
  const refs = (list: T[]) => list.map((item) => ({ uuid: kind.uuid(item), item }));
  const plan = planFirstItemWake({
    recent: refs(window.recent),
    stranded: refs(window.stranded),
    trigger,
    unsettled: window.unsettled,
  });
  let act = plan.act.map((r) => r.item);
  if (plan.fetchTrigger && trigger) {
    let fetched: T | undefined;
    try {
      fetched = await reader.get(trigger);
    } catch {
      fetched = undefined; // a trigger that does not exist: the whole window alone
    }
    if (!fetched && !window.recent.length) return;
    act = withFetchedTrigger(
      refs(window.recent),
      refs(window.stranded),
      fetched ? refs([fetched])[0] : undefined,
    ).map((r) => r.item);
  }
  const ledger = await actOn(wake, kind, act);
  await leaveFirstMark(wake, markKind, window, reader, ledger, settledMark(ledger));
}

/** The shared per-item loop: recovery, self-filter, probe, billing wall, claim, one turn each. */
async function actOn<T>(wake: Wake, kind: ItemKind<T>, items: T[]): Promise<LedgerEntry[]> {
  const { timeline } = wake.settings;
  const self = wake.context.self;
  const specOf = (item: T, text: string = kind.render(item)): TurnSpec => {
    return {
      text,
      anchor: kind.uuid(item),
      itemLabel: kind.uuid(item),
      report: kind.report(item),
      // Only a mention arms an item turn: a 1-on-1 nudge is for a counterpart's message.
      nudge: armedReason({ text, handle: self.handle, counterpartOnOneOnOne: false }),
      recallQuery: text,
    };
  };
  const recoveries = await recoverItems(
    wake,
    kind.claim,
    items.map((item) => ({ uuid: kind.uuid(item), spec: () => specOf(item) })),
  );
  const rules: TriageRules = { kind: kind.claim, selfFilter: kind.selfFilter, recoveries };
  const ledger: LedgerEntry[] = [];
  for (const item of items) {
    const uuid = kind.uuid(item);
    const { disposition } = await triage(wake, rules, {
      uuid,
      author: kind.author(item),
      carrier: kind.carrier(item),
      human: kind.human(item),
    });
    if (disposition !== "ours") {
      ledger.push({ uuid, disposition });
      continue;
    }
    startDashboardRead(wake);
    const shown = kind.perceive ? await kind.perceive(wake, item) : undefined;
    const spec = specOf(item, shown?.text);
    const turn = Message.user(spec.text, { items: [uuid] });
    if (shown?.images?.length) turn.images = shown.images;
    let outcome;
    try {
      outcome = await (await engaged()).engage(wake, spec, turn);
    } finally {
      delete turn.images; // pixels are seen by the turn that showed them, never again
    }
    if (outcome === "billing" || outcome === "unsettled") {
      // Billing: offered again once funded. Unsettled: the claim stays in flight, and the next
      // wake's recovery re-sends the unanswered create under its key, then commits.
      ledger.push({ uuid, disposition: "pending" });
      continue;
    }
    await wake.claims.commit(kind.claim, timeline, uuid); // settled the moment its turn ends
    ledger.push({ uuid, disposition: "final" });
  }
  return ledger;
}
