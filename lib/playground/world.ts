/**
 * Who sits at the playground: the demo's human (@ada) and AI peer (@vega) on a timeline they
 * share, seated on first use of a data directory, and any further human seats added from the
 * page; all remembered in `<data>/playground.json` (uuids and handles, never tokens), so a
 * restart on the same `--data` finds them again.
 */
import { join } from "node:path";
import * as z from "../base/zod.ts";
import { PlatformClient } from "../platform/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { type Seat, seedWorld } from "../demo/world.ts";

/** The seated humans, the agent and their shared timeline. */
export interface PlaygroundWorld {
  /** The first human (@ada): the timeline's owner, whose view the page shows. */
  readonly human: Seat;
  /** Every human seat, @ada first; the page posts as any of them. */
  readonly humans: Seat[];
  readonly agent: Seat;
  readonly timeline: { readonly uuid: string; readonly name: string };
}

/** The first message on a fresh playground's timeline; it wakes no one (posted before routing). */
export const WELCOME = "Welcome to the playground. Mention @vega to wake it.";

const SeatFile = z.object({ uuid: z.string(), handle: z.string(), name: z.string() });
const WorldFile = z.object({
  human: SeatFile,
  agent: SeatFile,
  timeline: z.object({ uuid: z.string(), name: z.string() }),
  /** Human seats added from the page, beside @ada. */
  humans: z.array(SeatFile).optional(),
});

/** `<data>/playground.json`. */
export function worldPath(dataDir: string): string {
  return join(dataDir, "playground.json");
}

/** The world in `dataDir`, seating it on the sandbox first when the directory has none. */
export async function openWorld(sandbox: Sandbox, dataDir: string): Promise<PlaygroundWorld> {
  const path = worldPath(dataDir);
  let text: string | null = null;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (text === null) {
    const seeded = await seedWorld(sandbox, WELCOME);
    const world = {
      human: seeded.ada,
      humans: [seeded.ada],
      agent: seeded.vega,
      timeline: seeded.timeline,
    };
    await saveWorld(dataDir, world);
    return world;
  }
  let parsed;
  try {
    parsed = WorldFile.parse(JSON.parse(text));
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(
      `${path} is not a playground world (${why}); remove it to seat a new one in this directory.`,
    );
  }
  const seat = (s: z.infer<typeof SeatFile>, kind: string): Seat => {
    const token = sandbox.directory.tokenFor(s.uuid);
    const client = new PlatformClient({ baseUrl: sandbox.baseUrl, token });
    return { ...s, kind, token, client };
  };
  const human = seat(parsed.human, "human");
  return {
    human,
    humans: [human, ...(parsed.humans ?? []).map((s) => seat(s, "human"))],
    agent: seat(parsed.agent, "ai"),
    timeline: parsed.timeline,
  };
}

/** Writes `playground.json` (uuids, handles and names; never tokens). */
async function saveWorld(dataDir: string, world: PlaygroundWorld): Promise<void> {
  const file = (s: Seat) => ({ uuid: s.uuid, handle: s.handle, name: s.name });
  const body = {
    human: file(world.human),
    agent: file(world.agent),
    timeline: world.timeline,
    humans: world.humans.slice(1).map(file),
  };
  await Deno.writeTextFile(worldPath(dataDir), JSON.stringify(body, null, 2) + "\n");
}

/**
 * Seats one more human: a sandbox user in mutual trust with the agent and every other seat,
 * added to the shared timeline by its owner, and remembered in `playground.json`.
 */
export async function addHumanSeat(
  sandbox: Sandbox,
  dataDir: string,
  world: PlaygroundWorld,
  handle: string,
  name: string,
): Promise<Seat> {
  const { user, token } = sandbox.createUser({ handle, name, kind: "human" });
  const client = new PlatformClient({ baseUrl: sandbox.baseUrl, token });
  const seat: Seat = {
    uuid: user.uuid,
    handle: user.handle,
    name: user.name,
    kind: "human",
    token,
    client,
  };
  // The platform seats a participant only in mutual trust with every viewer.
  for (const other of [world.agent, ...world.humans]) {
    await client.users.grantTrust(other.uuid);
    await other.client.users.grantTrust(seat.uuid);
  }
  await world.human.client.timelines.addParticipant(world.timeline.uuid, seat.uuid);
  world.humans.push(seat);
  await saveWorld(dataDir, world);
  return seat;
}
