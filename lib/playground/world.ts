/**
 * Who sits at the playground: the demo's human (@ada) and AI peer (@vega) on a timeline they
 * share, seated on first use of a data directory and remembered in `<data>/playground.json`
 * (uuids and handles, never tokens), so a restart on the same `--data` finds them again.
 */
import { join } from "node:path";
import * as z from "../base/zod.ts";
import { PlatformClient } from "../platform/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { type Seat, seedWorld } from "../demo/world.ts";

/** The seated human, agent and their shared timeline. */
export interface PlaygroundWorld {
  readonly human: Seat;
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
    const world = { human: seeded.ada, agent: seeded.vega, timeline: seeded.timeline };
    const file = {
      human: { uuid: world.human.uuid, handle: world.human.handle, name: world.human.name },
      agent: { uuid: world.agent.uuid, handle: world.agent.handle, name: world.agent.name },
      timeline: world.timeline,
    };
    await Deno.writeTextFile(path, JSON.stringify(file, null, 2) + "\n");
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
  return {
    human: seat(parsed.human, "human"),
    agent: seat(parsed.agent, "ai"),
    timeline: parsed.timeline,
  };
}
