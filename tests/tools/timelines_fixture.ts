/**
 * Shared fixture for the platform-tool tests: a real sandbox, a real PlatformClient acting as
 * an AI agent, a room it owns, and a SimpleContext bound to that room. It holds no tests.
 */
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { type CreateKind } from "../../lib/tools/shared/platform_context.ts";
import { SimpleContext } from "../../lib/tools/shared/simple_context.ts";
import { Gate } from "../../lib/gate/gate.ts";
import { type Contract, type Peer, withContract } from "../contract/helpers.ts";

/** The agent, its room, and a context bound to that room. */
export interface Room {
  readonly c: Contract;
  readonly agent: Peer;
  readonly timeline: string;
  readonly context: SimpleContext;
  readonly journal: MemoryJournal;
}

/** Context options a test may override. */
export interface RoomOptions {
  readonly idempotencyKey?: (kind: CreateKind, callId: string) => string | undefined;
  readonly agentExtras?: Parameters<Contract["user"]>[1];
}

/** Builds a context for `peer` bound to `timeline`. */
export function contextFor(
  peer: Peer,
  timeline: string,
  options: RoomOptions = {},
): { context: SimpleContext; journal: MemoryJournal } {
  const journal = new MemoryJournal();
  const context = new SimpleContext({
    client: peer.client,
    timeline,
    self: { uuid: peer.uuid, handle: peer.handle },
    journal,
    // The real gate, with the peer's own token as the secret it must never send.
    gate: new Gate({ client: peer.client, journal, secrets: [peer.token] }),
    idempotencyKey: options.idempotencyKey,
  });
  return { context, journal };
}

/** Runs `fn` with a fresh sandbox, an AI agent `@agent` and a room `Room` it owns. */
export function withRoom(fn: (room: Room) => Promise<void>, options: RoomOptions = {}) {
  return withContract(async (c) => {
    const agent = await c.user("agent", { kind: "ai", ...options.agentExtras });
    const { timeline } = await agent.client.timelines.create({ name: "Room" });
    const { context, journal } = contextFor(agent, timeline.uuid, options);
    await fn({ c, agent, timeline: timeline.uuid, context, journal });
  });
}

/** Requests the sandbox served since `mark` (an index into `sandbox.requests`). */
export function since(c: Contract, mark: number) {
  return c.sandbox.requests.slice(mark);
}
