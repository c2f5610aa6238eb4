/**
 * Gate and messages-tool scaffolding: a real in-process sandbox (via the contract helpers), an
 * agent (@vega, ai) sharing a timeline with a human (@ada), a real Gate over vega's real client,
 * and a PlatformContext that records what the tool asked of it.
 */
import { type Contract, type Peer, withContract } from "../contract/helpers.ts";
import { Gate, type GateOptions } from "../../lib/gate/mod.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import type {
  CreateKind,
  PlatformContext,
  VisibleAct,
} from "../../lib/tools/shared/platform_context.ts";

/** A PlatformContext that remembers the keys it handed out and the acts recorded. */
export interface RecordingContext extends PlatformContext {
  readonly acts: VisibleAct[];
  readonly keyRequests: Array<{ kind: CreateKind; callId: string }>;
}

/** One scenario's world. */
export interface World {
  readonly c: Contract;
  readonly ada: Peer;
  readonly vega: Peer;
  /** The engaged timeline (ada owns it, vega participates). */
  readonly tl: string;
  readonly journal: MemoryJournal;
  readonly gate: Gate;
  /** Builds vega's context; `keys` maps callId → Idempotency-Key (absent ⇒ no key). */
  context(options?: { keys?: Record<string, string>; timeline?: string }): RecordingContext;
  /** POSTs the sandbox has served to any `/timelines/…/messages`. */
  messagePosts(): number;
}

/** Runs `fn` against a fresh sandbox; `gate` options override the defaults (vega's token is secret). */
export function withWorld(
  fn: (w: World) => Promise<void>,
  gate: Partial<Omit<GateOptions, "client" | "journal">> = {},
): Promise<void> {
  return withContract(async (c) => {
    const ada = await c.user("ada");
    const vega = await c.user("vega", { kind: "ai" });
    await c.mutual(ada, vega);
    const tl = (await ada.client.timelines.create({ name: "Shared" })).timeline.uuid;
    await ada.client.timelines.addParticipant(tl, vega.uuid);
    const journal = new MemoryJournal();
    const g = new Gate({ client: vega.client, journal, secrets: [vega.token], ...gate });
    const context = (options: { keys?: Record<string, string>; timeline?: string } = {}) => {
      const acts: VisibleAct[] = [];
      const keyRequests: Array<{ kind: CreateKind; callId: string }> = [];
      return {
        client: vega.client,
        gate: g,
        timeline: options.timeline ?? tl,
        self: { uuid: vega.uuid, handle: vega.handle },
        journal,
        acts,
        keyRequests,
        idempotencyKey(kind: CreateKind, callId: string) {
          keyRequests.push({ kind, callId });
          return Promise.resolve(options.keys?.[callId]);
        },
        recordAct(act: VisibleAct) {
          acts.push(act);
        },
      };
    };
    const messagePosts = () => c.count("POST", /^\/timelines\/[^/]+\/messages$/);
    await fn({ c, ada, vega, tl, journal, gate: g, context, messagePosts });
  });
}

/** Awaits `promise` and returns what it rejected with; fails if it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, but the promise resolved");
}
