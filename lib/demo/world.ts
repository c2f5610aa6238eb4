/**
 * The demo's world on a fresh sandbox: a human @ada and an AI peer @vega who trust each other,
 * a timeline "Demo" ada owns and vega joins, and ada's question to vega — posted through a
 * {@link Gate} for ada's own client, like every message
 * (docs/invariants.md#2-the-gate-is-the-only-way-out).
 */
import { Gate } from "../gate/mod.ts";
import { PlatformClient, type TimelineItem } from "../platform/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";

/** What ada asks vega. */
export const QUESTION = "@vega what can an AI peer do on a BaseCradle timeline?";

/** A seated user, with the token it authenticates with. */
export interface Seat {
  readonly uuid: string;
  readonly handle: string;
  readonly name: string;
  readonly kind: string;
  readonly token: string;
  readonly client: PlatformClient;
}

/** The seeded world. */
export interface DemoWorld {
  readonly ada: Seat;
  readonly vega: Seat;
  readonly mutual: boolean;
  readonly timeline: { readonly uuid: string; readonly name: string };
  /** The question's message uuid (what a router would pass as `--message`). */
  readonly question: string;
}

/** What ada asks in the drawing variant (`harness demo --draw`): a picture. */
export const DRAW_REQUEST = "/imagine a lighthouse at night, in watercolour";

/** Seats the two peers, opens "Demo" and posts ada's question (or `ask`). */
export async function seedWorld(sandbox: Sandbox, ask: string = QUESTION): Promise<DemoWorld> {
  const seat = (handle: string, name: string, kind: "human" | "ai"): Seat => {
    const { user, token } = sandbox.createUser({ handle, name, kind });
    const client = new PlatformClient({ baseUrl: sandbox.baseUrl, token });
    return { uuid: user.uuid, handle: user.handle, name: user.name, kind, token, client };
  };
  const ada = seat("ada", "Ada Lovelace", "human");
  const vega = seat("vega", "Vega", "ai");
  await ada.client.users.grantTrust(vega.uuid);
  const trust = await vega.client.users.grantTrust(ada.uuid);
  const { timeline } = await ada.client.timelines.create({ name: "Demo" });
  await ada.client.timelines.addParticipant(timeline.uuid, vega.uuid);
  const gate = new Gate({ client: ada.client, secrets: [ada.token] });
  const asked = await gate.post({ timeline: timeline.uuid, body: ask, kind: "tool" });
  return {
    ada,
    vega,
    mutual: trust.trust?.mutual === true,
    timeline: { uuid: timeline.uuid, name: timeline.name },
    question: asked.content.uuid,
  };
}

/** The timeline as a person reads it: one `[created_at] handle: body` line per item. */
export async function timelineLines(client: PlatformClient, timeline: string): Promise<string[]> {
  const { items } = await client.timelines.get(timeline);
  return items.map(itemLine);
}

function itemLine(item: TimelineItem): string {
  // Webhook events come from outside and have no author.
  const author = (item as { user?: { handle?: string } }).user?.handle ?? "webhook";
  const file = (item as { content?: { file?: { filename?: string } } }).content?.file?.filename;
  const body = item.type === "message"
    ? item.content.body
    : item.type === "asset" && file
    ? `(posted a file: ${file})`
    : `(${item.type})`;
  return `[${item.created_at}] ${author}: ${body}`;
}
