/**
 * A two-peer world for wake end-to-end tests: an in-process sandbox platform, an agent and a
 * human peer who trust each other, a timeline both view, and the environment `harness wake`
 * runs under (a scripted model on the chat surface via AI_BASE_URL).
 */
import { PlatformClient } from "../../lib/platform/mod.ts";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { chatCompletion, ModelMock } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";

/** A running world; close it with `await using`. */
export interface World extends AsyncDisposable {
  readonly sandbox: Sandbox;
  readonly model: ModelMock;
  readonly home: string;
  readonly timeline: string;
  readonly agent: { uuid: string; handle: string; client: PlatformClient };
  readonly peer: { uuid: string; handle: string; client: PlatformClient };
  readonly env: Record<string, string>;
  /** Runs `harness wake --timeline <t>` (plus `args`) as a real process. */
  wake(args?: string[], env?: Record<string, string>): ReturnType<typeof runCli>;
}

/** Builds the world: sandbox, two trusting users, one shared timeline, a model mock. */
export async function world(): Promise<World> {
  const sandbox = await Sandbox.start({ port: 0, log: () => {} });
  const model = await ModelMock.start();
  const home = await Deno.makeTempDir({ prefix: "wake-e2e-" });
  const a = sandbox.createUser({ handle: "ada", name: "Ada", kind: "ai" });
  const p = sandbox.createUser({ handle: "bob", name: "Bob", kind: "human" });
  const client = (token: string) => new PlatformClient({ baseUrl: sandbox.baseUrl, token });
  const agent = { uuid: a.user.uuid, handle: a.user.handle, client: client(a.token) };
  const peer = { uuid: p.user.uuid, handle: p.user.handle, client: client(p.token) };
  await agent.client.users.grantTrust(peer.uuid);
  await peer.client.users.grantTrust(agent.uuid);
  const { timeline } = await peer.client.timelines.create({ name: "chat" });
  await peer.client.timelines.addParticipant(timeline.uuid, agent.uuid);
  const env = {
    HARNESS_HOME: home,
    BASECRADLE_BASE_URL: sandbox.baseUrl,
    BASECRADLE_TOKEN: a.token,
    BASECRADLE_CONFIG_HOME: `${home}/config`,
    AI_PROVIDER: "openai",
    AI_SDK: "openai",
    AI_SDK_SURFACE: "chat",
    AI_BASE_URL: model.baseURL,
    AI_MODEL: "scripted",
    AI_API_KEY: "sk-test-0000000000",
    HOME: home,
  };
  return {
    sandbox,
    model,
    home,
    timeline: timeline.uuid,
    agent,
    peer,
    env,
    wake: (args = [], extra = {}) =>
      runCli(["wake", "--timeline", timeline.uuid, ...args], { env: { ...env, ...extra } }),
    async [Symbol.asyncDispose]() {
      await model.close();
      await sandbox.close();
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}

/** Scripts one reply turn: a `messages` create with `body`, then a closing narration. */
export function scriptReply(model: ModelMock, body: string, narration = "Answered."): void {
  model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "create", body } }],
      }),
    },
    { json: chatCompletion({ content: narration }) },
  );
}

/** The agent's own messages on the timeline, newest first. */
export async function agentPosts(w: World): Promise<string[]> {
  const all = await w.peer.client.messages.list({ timeline: w.timeline }).toArray();
  return all.filter((m) => m.user.uuid === w.agent.uuid).map((m) => m.content.body);
}
