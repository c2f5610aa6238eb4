/**
 * A two-peer world for wake end-to-end tests: an in-process sandbox platform, an agent and a
 * human peer who trust each other, a timeline both view, and the environment `harness wake`
 * runs under (a scripted model on the chat surface via AI_BASE_URL).
 *
 * A routed world (`world({ routed: true })`) also runs the sandbox's router twin, as the fleet
 * runs the harness: every event is delivered as it happens and wakes the agent with exactly
 * `harness wake --timeline <uuid>` (from source, the production permission set), by the fleet
 * router's rules. A test then awaits {@link RoutedWorld.settle} and reads the router's history.
 */
import assert from "node:assert/strict";
import {
  type Asset,
  type Message as PlatformMessage,
  PlatformClient,
  type Task,
  type WebhookEvent,
} from "../../lib/platform/mod.ts";
import { type RouterRules, Sandbox, type WakeRecord } from "../../lib/sandbox/mod.ts";
import { chatCompletion, type FixtureUsage, ModelMock } from "../support/model_mock.ts";
import { DENO_DIR, REPO_ROOT, runCli } from "../support/run_cli.ts";
import { asUser } from "../support/cleared.ts";
import { waitFor as pollFor } from "../support/wait_for.ts";

/** A running world; close it with `await using`. */
export interface World extends AsyncDisposable {
  readonly sandbox: Sandbox;
  readonly model: ModelMock;
  readonly home: string;
  readonly timeline: string;
  readonly agent: { uuid: string; handle: string; client: PlatformClient };
  readonly peer: { uuid: string; handle: string; client: PlatformClient };
  /** A third viewer (carol), present only with `world({ third: true })`. */
  readonly third?: { uuid: string; handle: string; client: PlatformClient };
  readonly env: Record<string, string>;
  /** Runs `harness wake --timeline <t>` (plus `args`) as a real process. */
  wake(args?: string[], env?: Record<string, string>): ReturnType<typeof runCli>;
}

/** A world whose events wake the agent through the router twin. */
export interface RoutedWorld extends World {
  /** Resolves once no delivery is queued or running (follow-up wakes included). */
  settle(): Promise<void>;
  /** Every settled delivery, in settling order (each attempt's output included). */
  history(): readonly WakeRecord[];
  /** The deliveries that ran a wake (`woke` or `failed`). */
  wakes(): WakeRecord[];
  /** The stderr of every attempt so far, in order, as one text. */
  stderr(): string;
  /** The sandbox's `sandbox wake …` lines so far. */
  routerLines(): string[];
  /** Queues deliveries without starting wakes until {@link release} (posts arrive together). */
  hold(): void;
  release(): void;
}

/** What {@link world} builds. */
export interface WorldOptions {
  /** carol as a third viewer of the timeline. */
  readonly third?: boolean;
  /** Route events through the router twin (rule changes, or true for the fleet's rules). */
  readonly routed?: boolean | Partial<RouterRules>;
  /** More environment for every wake of the world's agents (direct and routed). */
  readonly env?: Readonly<Record<string, string>>;
}

/** Shell-quotes one word. */
function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The wake command the twin runs: the harness from source with the production permissions. */
export const HARNESS_WAKE_COMMAND: string = [
  Deno.execPath(),
  "run",
  "-P=harness",
  "--quiet",
  "--config",
  `${REPO_ROOT}deno.json`,
  `${REPO_ROOT}main.ts`,
  "wake",
].map(quote).join(" ");

/** World options for a test that is not about the catch-up: its wakes end without it. */
export const NO_CATCH_UP = { env: { HARNESS_CATCH_UP: "off" } } as const;

/**
 * Builds the world: sandbox, two trusting users, one shared timeline (a one-on-one unless
 * `third` adds carol as a third viewer), a model mock; with `routed`, the router twin too.
 */
export async function world(
  options: WorldOptions & { routed: true | Partial<RouterRules> },
): Promise<RoutedWorld>;
export async function world(options?: WorldOptions): Promise<World>;
export async function world(options: WorldOptions = {}): Promise<World | RoutedWorld> {
  const model = await ModelMock.start();
  const root = await Deno.makeTempDir({ prefix: "wake-e2e-" });
  // The agent's home is where the twin puts it: <root>/agents/<handle>.
  const home = `${root}/agents/ada`;
  await Deno.mkdir(home, { recursive: true });
  const agentEnv = {
    BASECRADLE_CONFIG_HOME: `${home}/config`,
    AI_PROVIDER: "openai",
    AI_SDK: "openai",
    AI_SDK_SURFACE: "chat",
    AI_BASE_URL: model.baseURL,
    AI_MODEL: "scripted",
    AI_API_KEY: "sk-test-0000000000",
    HOME: home,
    ...options.env,
  };
  const lines: string[] = [];
  const routed = options.routed === undefined || options.routed === false
    ? null
    : options.routed === true
    ? {}
    : options.routed;
  const sandbox = await Sandbox.start({
    port: 0,
    log: (line) => {
      if (line.startsWith("sandbox wake ")) lines.push(line);
    },
    ...(routed
      ? {
        wakeCommand: HARNESS_WAKE_COMMAND,
        agentsRoot: root,
        wakeEnv: { ...agentEnv, NO_COLOR: "1", DENO_DIR },
        wakeCwd: REPO_ROOT,
        wakeOutput: () => {},
        keepWakeOutput: true,
        routerRules: routed,
      }
      : {}),
  });
  const a = sandbox.createUser({ handle: "ada", name: "Ada", kind: "ai" });
  const p = sandbox.createUser({ handle: "bob", name: "Bob", kind: "human" });
  const client = (token: string) => new PlatformClient({ baseUrl: sandbox.baseUrl, token });
  const agent = { uuid: a.user.uuid, handle: a.user.handle, client: client(a.token) };
  const peer = { uuid: p.user.uuid, handle: p.user.handle, client: client(p.token) };
  await agent.client.users.grantTrust(peer.uuid);
  await peer.client.users.grantTrust(agent.uuid);
  const { timeline } = await peer.client.timelines.create({ name: "chat" });
  await peer.client.timelines.addParticipant(timeline.uuid, agent.uuid);
  let third: World["third"];
  if (options.third) {
    const c = sandbox.createUser({ handle: "carol", name: "Carol", kind: "human" });
    third = { uuid: c.user.uuid, handle: c.user.handle, client: client(c.token) };
    for (const other of [peer, agent]) {
      await third.client.users.grantTrust(other.uuid);
      await other.client.users.grantTrust(third.uuid);
    }
    await peer.client.timelines.addParticipant(timeline.uuid, third.uuid);
  }
  const env = {
    HARNESS_HOME: home,
    BASECRADLE_BASE_URL: sandbox.baseUrl,
    BASECRADLE_TOKEN: a.token,
    ...agentEnv,
  };
  const built: World = {
    sandbox,
    model,
    home,
    timeline: timeline.uuid,
    agent,
    peer,
    third,
    env,
    wake: (args = [], extra = {}) =>
      runCli(["wake", "--timeline", timeline.uuid, ...args], { env: { ...env, ...extra } }),
    async [Symbol.asyncDispose]() {
      await sandbox.close();
      await model.close();
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
  const router = sandbox.router;
  if (!router) return built;
  const history = () => router.history;
  return {
    ...built,
    settle: () => router.idle(),
    history,
    wakes: () => history().filter((r) => r.outcome === "woke" || r.outcome === "failed"),
    stderr: () => history().flatMap((r) => r.attempts.map((a) => a.output ?? "")).join(""),
    routerLines: () => [...lines],
    hold: () => router.hold(),
    release: () => router.release(),
  };
}

/** The routed wake an item's delivery ran: its exit code and its stderr (every attempt's). */
export function wakeFor(
  w: RoutedWorld,
  item: string,
): { code: number | null; stderr: string; record: WakeRecord } {
  const record = w.history().find((r) => r.item === item && r.actor !== w.agent.uuid);
  if (!record) {
    throw new Error(`no delivery of ${item} was settled:\n${w.routerLines().join("\n")}`);
  }
  const stderr = record.attempts.map((a) => a.output ?? "").join("");
  return { code: record.code, stderr, record };
}

/**
 * After a routed round, the message mark is `answered` — or past it only over the agent's own
 * posts, when the wake its own reply was delivered back to ran (a self-authored message moves
 * the mark without being engaged).
 */
export async function assertMessageMark(w: RoutedWorld, answered: string): Promise<void> {
  const marked = await mark(w, "messages");
  const all = await w.peer.client.messages.list({ timeline: w.timeline }).toArray();
  const newer = all.filter((m) => m.content.uuid > answered);
  assert.ok(newer.every((m) => m.user.uuid === w.agent.uuid), "only the agent's posts are newer");
  const allowed = [answered, ...newer.map((m) => m.content.uuid)];
  assert.ok(marked !== undefined && allowed.includes(marked), `mark ${marked} not in ${allowed}`);
}

/**
 * Scripts one reply turn: a `messages` create with `body`, then a closing narration; `usage`
 * gives what each of the two calls reports.
 */
export function scriptReply(
  model: ModelMock,
  body: string,
  narration = "Answered.",
  usage: { create?: FixtureUsage; close?: FixtureUsage } = {},
): void {
  model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "create", body } }],
        usage: usage.create,
      }),
    },
    { json: chatCompletion({ content: narration, usage: usage.close }) },
  );
}

/** The agent's own messages on the timeline, newest first. */
export async function agentPosts(w: World): Promise<string[]> {
  const all = await w.peer.client.messages.list({ timeline: w.timeline }).toArray();
  return all.filter((m) => m.user.uuid === w.agent.uuid).map((m) => m.content.body);
}

// ---------------------------------------------------------------------------------------------
// Peers' actions, state on disk, and wakes that can be killed mid-flight.

/** A sender posts `body` on the world's timeline (the peer by default). */
export async function say(
  w: World,
  body: string,
  who: { client: PlatformClient } = w.peer,
): Promise<PlatformMessage> {
  return await who.client.messages.create(w.timeline, asUser("message", { body }));
}

/** Uploads a small text file as an asset (the peer by default). */
export async function upload(
  w: World,
  filename: string,
  options: { description?: string; who?: { client: PlatformClient } } = {},
): Promise<Asset> {
  const who = options.who ?? w.peer;
  return await who.client.assets.create(
    w.timeline,
    asUser("asset", {
      file: new TextEncoder().encode(`contents of ${filename}`),
      filename,
      contentType: "text/plain",
      description: options.description,
    }),
  );
}

/** Schedules a task far in the future, then activates it now through the admin route. */
export async function activatedTask(
  w: World,
  instructions: string,
  who: { client: PlatformClient } = w.agent,
): Promise<Task> {
  const task = await who.client.tasks.create(
    w.timeline,
    asUser("task", {
      instructions,
      activateAt: new Date(Date.now() + 86_400_000),
    }),
  );
  const res = await fetch(`${w.sandbox.adminUrl}/tasks/${task.content.uuid}/activate`, {
    method: "POST",
    headers: { "sandbox-admin-token": w.sandbox.adminToken },
  });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text).task as Task;
}

/** Creates a webhook endpoint on the timeline (as the agent) and delivers `payload` to it. */
export async function deliver(w: World, payload: string, endpoint?: string): Promise<WebhookEvent> {
  let url = endpoint;
  if (!url) {
    const ep = await w.agent.client.webhookEndpoints.create(
      w.timeline,
      asUser("webhook_endpoint", { description: "hook" }),
    );
    url = ep.content.ingest_url;
    endpoints.set(w.timeline, url);
  }
  const before = new Set(
    (await w.agent.client.webhookEvents.list({ timeline: w.timeline }).toArray())
      .map((e) => e.content.uuid),
  );
  const reply = await w.agent.client.webhookEvents.ingest(url, payload, {
    contentType: "application/json",
  });
  assert.equal(reply.status, 201, reply.body);
  const after = await w.agent.client.webhookEvents.list({ timeline: w.timeline }).toArray();
  return after.find((e) => !before.has(e.content.uuid))!;
}

/** The ingest URL of the endpoint {@link deliver} created for a timeline. */
export const endpoints: Map<string, string> = new Map();

/** The transcript path of the world's timeline. */
export function sessionPath(w: World): string {
  return `${w.home}/sessions/timeline%3A${w.timeline}.json`;
}

/** The persisted transcript (raw JSON objects), or [] when none was written. */
export async function session(w: World): Promise<Record<string, unknown>[]> {
  try {
    return JSON.parse(await Deno.readTextFile(sessionPath(w)));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** The mark of `kind` (undefined when unset). */
export async function mark(
  w: World,
  kind: "messages" | "assets" | "webhook_events",
): Promise<string | undefined> {
  const path = kind === "messages"
    ? `${w.home}/marks/${w.timeline}.txt`
    : `${w.home}/marks/${kind}/${w.timeline}.txt`;
  try {
    return (await Deno.readTextFile(path)).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The task seen-set as lines, in file order. */
export async function seenTasks(w: World): Promise<string[]> {
  try {
    const text = await Deno.readTextFile(`${w.home}/seen/tasks/${w.timeline}.txt`);
    return text.split("\n").filter((l) => l.trim());
  } catch {
    return [];
  }
}

/** The claim record of one item (parsed), or undefined. */
export async function claimOf(
  w: World,
  kind: "messages" | "assets" | "webhook_events" | "tasks",
  uuid: string,
): Promise<Record<string, unknown> | undefined> {
  try {
    const text = await Deno.readTextFile(`${w.home}/claims/${kind}/${w.timeline}/${uuid}.claim`);
    return text.trim() ? JSON.parse(text) : { phase: "done" };
  } catch {
    return undefined;
  }
}

/** The user-turn contents of every chat request the model received, in order. */
export function userTurnsSeen(model: ModelMock): string[][] {
  return model.requestsTo("chat").map((r) =>
    (r.body as { messages: { role: string; content: unknown }[] }).messages
      .filter((m) => m.role === "user").map((m) => String(m.content))
  );
}

/** The messages array of the `i`th chat request. */
export function chatMessages(
  model: ModelMock,
  i: number,
): { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[] {
  return (model.requestsTo("chat")[i].body as { messages: never[] }).messages;
}

/** The Idempotency-Keys the sandbox saw on message creates on the world's timeline, in order. */
export function messageCreateKeys(w: World): (string | null)[] {
  return w.sandbox.requests
    .filter((r) => r.method === "POST" && r.path === `/timelines/${w.timeline}/messages`)
    .map((r) => r.idempotencyKey);
}

/** The shared {@link pollFor} with the e2e files' positional deadline and failure detail. */
export function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  ms = 20_000,
  detail?: () => string,
): Promise<T> {
  return pollFor(what, check, { ms, detail });
}

/** A harness command running as a child process that the test may signal. */
export interface LiveWake {
  readonly child: Deno.ChildProcess;
  /** stderr so far. */
  stderr(): string;
  /** Sends `signal` (default SIGKILL), waits for the process to be gone, returns how it ended. */
  kill(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/** Spawns `harness wake --timeline <t>` exactly as {@link runCli} would, without waiting. */
export function spawnWake(w: World, args: string[] = [], extra: Record<string, string> = {}) {
  return spawnHarness(["wake", "--timeline", w.timeline, ...args], { ...w.env, ...extra });
}

/** Spawns `harness <args>` from source with the production permissions, without waiting. */
export function spawnHarness(args: string[], env: Record<string, string>): LiveWake {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "--quiet", `${REPO_ROOT}main.ts`, ...args],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", DENO_DIR, ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const drained = child.stderr.pipeTo(
    new WritableStream({
      write: (chunk) => void (text += decoder.decode(chunk, { stream: true })),
    }),
  ).catch(() => {});
  const live: LiveWake = {
    child,
    stderr: () => text,
    async kill(signal = "SIGKILL") {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
      const status = await child.status;
      await drained;
      return status;
    },
  };
  return live;
}

// ---------------------------------------------------------------------------------------------
// The model requests exactly as they went over the wire.

/** One model request as raw text, byte for byte what the SDK sent. */
export interface RawRequest {
  readonly method: string;
  /** Path without the query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** The request body, undecoded JSON text exactly as serialised by the SDK. */
  readonly text: string;
}

/** A pass-through proxy in front of the model mock that keeps every request body verbatim. */
export interface ModelTap extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/v1`: point AI_BASE_URL here. */
  readonly baseURL: string;
  /** Every request, in arrival order. */
  readonly requests: RawRequest[];
  close(): Promise<void>;
}

/** Starts a {@link ModelTap} forwarding to the world's model mock. */
export function modelTap(w: World): ModelTap {
  const requests: RawRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    requests.push({ method: req.method, path: url.pathname, text });
    const headers = new Headers(req.headers);
    headers.delete("host");
    headers.delete("content-length");
    const upstream = await fetch(`${w.model.origin}${url.pathname}${url.search}`, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : text,
    });
    return new Response(await upstream.arrayBuffer(), {
      status: upstream.status,
      headers: upstream.headers,
    });
  });
  const close = () => server.shutdown();
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Length of the longest common prefix of two strings, in UTF-16 code units. */
export function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
