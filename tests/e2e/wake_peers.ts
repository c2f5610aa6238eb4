/**
 * A second AI agent on a wake world's timeline, with its own HARNESS_HOME, so two agents can be
 * woken in turn the way a router wakes each participant (argv `--timeline` only), and a scripted
 * model under which every agent always answers.
 */
import { PlatformClient } from "../../lib/platform/mod.ts";
import { chatCompletion, type ModelMock } from "../support/model_mock.ts";
import type { CliResult } from "../support/run_cli.ts";
import { runCli } from "../support/run_cli.ts";
import type { World } from "./wake_support.ts";

/** Another AI agent of the world: its identity, client and `harness wake` for the timeline. */
export interface Peer {
  readonly uuid: string;
  readonly handle: string;
  readonly client: PlatformClient;
  readonly home: string;
  readonly env: Record<string, string>;
  /** Runs `harness wake --timeline <t>` as this agent, with `extra` in its environment. */
  wake(extra?: Record<string, string>): Promise<CliResult>;
}

/**
 * Seats an AI agent `handle` on the world's timeline: trusted by and trusting everyone already
 * there, its own home (removed with the world's, which holds it), the same model settings as the
 * world's agent unless `model` overrides them.
 */
export async function aiPeer(
  w: World,
  handle: string,
  model: Record<string, string> = {},
): Promise<Peer> {
  const created = w.sandbox.createUser({ handle, name: handle, kind: "ai" });
  const client = new PlatformClient({ baseUrl: w.sandbox.baseUrl, token: created.token });
  const others = [w.agent, w.peer, ...(w.third ? [w.third] : [])];
  for (const other of others) {
    await client.users.grantTrust(other.uuid);
    await other.client.users.grantTrust(created.user.uuid);
  }
  await w.peer.client.timelines.addParticipant(w.timeline, created.user.uuid);
  const home = `${w.home}/peer-${handle}`;
  await Deno.mkdir(home, { recursive: true });
  const env = {
    ...w.env,
    HARNESS_HOME: home,
    BASECRADLE_TOKEN: created.token,
    BASECRADLE_CONFIG_HOME: `${home}/config`,
    HOME: home,
    ...model,
  };
  return {
    uuid: created.user.uuid,
    handle,
    client,
    home,
    env,
    wake: (extra = {}) => runCli(["wake", "--timeline", w.timeline], { env: { ...env, ...extra } }),
  };
}

/**
 * From now on, every turn on `model` answers: it posts `answer <n>` with the `messages` tool, then
 * closes with a line of narration once the tool's result is back. (The sandbox's demo model will
 * not answer another model's reply, so it cannot play a loop.)
 */
export function alwaysAnswer(model: ModelMock): void {
  let n = 0;
  model.always("chat", (request) => {
    const messages = (request.body as { messages: { role: string }[] }).messages;
    // Once this turn's call has its result (notes may follow it), close the turn.
    const turn = messages.findLastIndex((m) => m.role === "user");
    if (messages.slice(turn + 1).some((m) => m.role === "tool")) {
      return { json: chatCompletion({ content: "Answered." }) };
    }
    const body = `answer ${++n}`;
    return {
      json: chatCompletion({
        toolCalls: [{ id: `call_${n}`, name: "messages", arguments: { action: "create", body } }],
      }),
    };
  });
}

/** The stamps in an agent home's breaker window for `timeline` (0 when it has none). */
export async function breakerStamps(home: string, timeline: string): Promise<number> {
  try {
    const text = await Deno.readTextFile(`${home}/breaker/${timeline}.wakes`);
    return text.split("\n").filter((line) => line.trim()).length;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}
