/**
 * A running playground: the sandbox platform, the seated human and agent, router emulation
 * running real wakes, and the page's HTTP server. Every response body the page server sends is
 * text it built itself and then scrubbed of secrets, except asset bytes, which it relays.
 */
import { errorMessage } from "../base/error_text.ts";
import { Gate, GateRefusal } from "../gate/mod.ts";
import { registerSecret, scrubSecrets } from "../journal/scrub.ts";
import * as z from "../base/zod.ts";
import { Sandbox } from "../sandbox/mod.ts";
import { chooseModel } from "../cli/demo/wake_process.ts";
import { STATIC_FILES } from "./static/mod.ts";
import { type Snapshot, type SnapshotUpdate, type TimelineView, timelineViews } from "./views.ts";
import { WakeRunner, type WakeView } from "./wakes.ts";
import { isLoopback } from "./host.ts";
import { openWorld, type PlaygroundWorld } from "./world.ts";

/** Options for {@link startPlayground}. */
export interface PlaygroundOptions {
  /** Where the page is served; loopback unless the caller checked otherwise. */
  readonly host: string;
  /** The page's port; 0 picks a free one. */
  readonly port: number;
  /** Keep the sandbox, the world and the agents' homes here; a removed temp dir when absent. */
  readonly dataDir?: string;
  /** The environment wakes inherit (minus agent settings) and the model is chosen from. */
  readonly env: Readonly<Record<string, string>>;
  /** Wake start and exit lines. */
  readonly log: (line: string) => void;
}

/** A running playground. */
export interface Playground {
  /** The page, e.g. `http://127.0.0.1:8080/`. */
  readonly url: string;
  /** The sandbox platform's base URL (loopback). */
  readonly platformUrl: string;
  /** Which model the wakes use, in one line. */
  readonly model: string;
  readonly runner: WakeRunner;
  /** Stops wakes, the page server and the sandbox; removes a temporary data dir. */
  close(): Promise<void>;
}

const PostBody = z.object({ timeline: z.string().min(1), body: z.string().min(1).max(20_000) });
const TaskBody = z.object({
  timeline: z.string().min(1),
  instructions: z.string().min(1).max(20_000),
  minutes: z.number().int().min(1).max(525_600),
});

/** A browser-facing refusal: a status and one line the page shows. */
class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** Starts everything and resolves once the page is served. */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ??
    await Deno.makeTempDir({ prefix: "harness-playground-" });
  await Deno.mkdir(dataDir, { recursive: true });
  const sandbox = await Sandbox.start({ port: 0, dataDir });
  const cleanups: (() => Promise<void>)[] = [async () => {
    await sandbox.close();
    if (temporary) await Deno.remove(dataDir, { recursive: true });
  }];
  const close = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => {});
  };
  try {
    const model = chooseModel({ ...options.env }, sandbox.modelUrl, sandbox.anthropicModelUrl);
    const world = await openWorld(sandbox, dataDir);
    registerSecret(world.human.token);
    registerSecret(world.agent.token);
    const hub = new Hub({
      snapshot: () => snapshot(world, model.label, runner),
      timelines: () => timelineViews(world.human.client),
    });
    const runner = new WakeRunner({
      directory: sandbox.directory,
      baseUrl: sandbox.baseUrl,
      dataDir,
      model,
      parentEnv: options.env,
      onChange: (wake) => hub.changed({ wake }),
      log: options.log,
    });
    cleanups.push(() => runner.close());
    // Routing starts after the world is seated: the welcome message wakes no one.
    const unsubscribe = sandbox.onEvent((event) => {
      runner.dispatch(event);
      hub.changed({ timelines: true });
    });
    cleanups.push(() => Promise.resolve(unsubscribe()));
    const abort = new AbortController();
    const gate = new Gate({ client: world.human.client, secrets: [world.human.token] });
    const server = Deno.serve({
      hostname: options.host,
      port: options.port,
      signal: abort.signal,
      onListen: () => {},
    }, (req) => handle(req, { loopbackOnly: isLoopback(options.host), world, gate, hub, sandbox }));
    cleanups.push(async () => {
      hub.close();
      abort.abort();
      await server.finished;
    });
    const { hostname, port } = server.addr;
    const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
    return {
      url: `http://${shown}:${port}/`,
      platformUrl: sandbox.baseUrl,
      model: model.label,
      runner,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function snapshot(
  world: PlaygroundWorld,
  model: string,
  runner: WakeRunner,
): Promise<Snapshot> {
  return {
    human: { handle: world.human.handle, name: world.human.name },
    agent: { handle: world.agent.handle, name: world.agent.name },
    model,
    timelines: await timelineViews(world.human.client),
    wakes: runner.wakes,
  };
}

/** What {@link Hub} builds its events from. */
interface HubSources {
  /** The whole snapshot: `/api/state` and each stream's first event. */
  readonly snapshot: () => Promise<Snapshot>;
  /** The timelines alone, re-read when a platform event or a write touched them. */
  readonly timelines: () => Promise<TimelineView[]>;
}

/** What changed; see {@link Hub.changed}. */
interface HubChange {
  readonly wake?: WakeView;
  readonly timelines?: boolean;
}

/**
 * The server-sent-event subscribers. Each stream starts with the whole scrubbed snapshot
 * (`event: state`); after that, each burst of changes is one `event: update` carrying only the
 * wakes that changed and, when they changed, the timelines — so a long session does not re-send
 * every finished wake on every journal line (docs/playground.md#the-page).
 */
class Hub {
  readonly #sources: HubSources;
  readonly #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  readonly #encoder = new TextEncoder();
  readonly #wakes = new Set<WakeView>();
  #timelines = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Updates are built and sent one after another, so they arrive in the order they happened. */
  #sending: Promise<void> = Promise.resolve();
  #keepAlive: ReturnType<typeof setInterval>;

  constructor(sources: HubSources) {
    this.#sources = sources;
    this.#keepAlive = setInterval(() => this.#send(": keep-alive\n\n"), 15_000);
  }

  /** The current snapshot as scrubbed JSON text. */
  async json(): Promise<string> {
    return scrubSecrets(JSON.stringify(await this.#sources.snapshot()));
  }

  /** Notes a change and coalesces a burst of them (a wake's journal lines) into one update. */
  changed(change: HubChange): void {
    if (change.wake) this.#wakes.add(change.wake);
    if (change.timelines) this.#timelines = true;
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const wakes = [...this.#wakes];
      const timelines = this.#timelines;
      this.#wakes.clear();
      this.#timelines = false;
      if (this.#streams.size === 0) return;
      this.#sending = this.#sending.then(async () => {
        try {
          const update: SnapshotUpdate = timelines
            ? { timelines: await this.#sources.timelines(), wakes }
            : { wakes };
          this.#send(`event: update\ndata: ${scrubSecrets(JSON.stringify(update))}\n\n`);
        } catch {
          // The sandbox is closing; the next change (if any) tries again.
        }
      });
    }, 100);
  }

  /** A new event stream, sent the current snapshot first. */
  stream(): ReadableStream<Uint8Array> {
    let mine: ReadableStreamDefaultController<Uint8Array>;
    return new ReadableStream({
      start: async (controller) => {
        mine = controller;
        this.#streams.add(controller);
        controller.enqueue(this.#encoder.encode(`event: state\ndata: ${await this.json()}\n\n`));
      },
      cancel: () => {
        this.#streams.delete(mine);
      },
    });
  }

  close(): void {
    clearInterval(this.#keepAlive);
    if (this.#timer !== null) clearTimeout(this.#timer);
    for (const stream of this.#streams) {
      try {
        stream.close();
      } catch {
        // Already closed by the client.
      }
    }
    this.#streams.clear();
  }

  #send(text: string): void {
    const bytes = this.#encoder.encode(text);
    for (const stream of this.#streams) {
      try {
        stream.enqueue(bytes);
      } catch {
        this.#streams.delete(stream);
      }
    }
  }
}

interface Context {
  /** Served on loopback: requests must name a loopback host too. */
  readonly loopbackOnly: boolean;
  readonly world: PlaygroundWorld;
  readonly gate: Gate;
  readonly hub: Hub;
  readonly sandbox: Sandbox;
}

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function text(body: string, type: string, status = 200): Response {
  return new Response(scrubSecrets(body), {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": type },
  });
}

function json(value: unknown, status = 200): Response {
  return text(JSON.stringify(value), "application/json; charset=utf-8", status);
}

async function handle(req: Request, ctx: Context): Promise<Response> {
  const url = new URL(req.url);
  try {
    if (ctx.loopbackOnly) loopbackHost(req);
    if (req.method === "GET") return await read(url.pathname, ctx);
    if (req.method !== "POST") throw new Refusal(405, `${req.method} is not allowed here.`);
    sameOrigin(req);
    const response = await write(url.pathname, req, ctx);
    ctx.hub.changed({ timelines: true });
    return response;
  } catch (error) {
    if (error instanceof Refusal) return json({ error: error.message }, error.status);
    if (error instanceof GateRefusal) {
      return json({ error: `The outbound gate refused the post (check: ${error.check}).` }, 422);
    }
    return json({ error: errorMessage(error) }, 502);
  }
}

async function read(path: string, ctx: Context): Promise<Response> {
  const file = STATIC_FILES[path];
  if (file) return text(file.body, file.type);
  if (path === "/api/state") return text(await ctx.hub.json(), "application/json; charset=utf-8");
  if (path === "/api/events") {
    return new Response(ctx.hub.stream(), {
      headers: { ...SECURITY_HEADERS, "content-type": "text/event-stream" },
    });
  }
  const asset = path.match(/^\/api\/assets\/([0-9a-f-]{36})$/);
  if (asset) {
    const found = await ctx.world.human.client.assets.get(asset[1]);
    const blob = await ctx.world.human.client.assets.download(found);
    const type = found.content.file?.content_type ?? "application/octet-stream";
    return new Response(blob.bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        ...SECURITY_HEADERS,
        "content-type": type,
        "content-disposition": "inline",
      },
    });
  }
  throw new Refusal(404, `Nothing at ${path}.`);
}

/**
 * A page on loopback answers only requests addressed to loopback: a web page whose own name was
 * re-pointed at 127.0.0.1 (DNS rebinding) sends its own name as `Host` and is refused.
 */
function loopbackHost(req: Request): void {
  const host = req.headers.get("host") ?? "";
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  if (!isLoopback(name)) throw new Refusal(403, "This playground answers loopback addresses only.");
}

/**
 * Writes come only from the page itself: a cross-site form or script on another origin must
 * not post as the human (the browser always sends `Origin` on such a POST).
 */
function sameOrigin(req: Request): void {
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  if (origin !== null && (host === null || origin !== `http://${host}`)) {
    throw new Refusal(403, "Writes are accepted from the playground's own page only.");
  }
}

async function write(path: string, req: Request, ctx: Context): Promise<Response> {
  const { world } = ctx;
  if (path === "/api/post") {
    const input = PostBody.safeParse(await req.json().catch(() => null));
    if (!input.success) throw new Refusal(400, "Send {timeline, body} with a non-empty body.");
    const message = await ctx.gate.post({ ...input.data, kind: "tool" });
    return json({ uuid: message.content.uuid }, 201);
  }
  if (path === "/api/upload") {
    const form = await req.formData().catch(() => null);
    const file = form?.get("file");
    const timeline = form?.get("timeline");
    if (!(file instanceof File) || typeof timeline !== "string" || file.size === 0) {
      throw new Refusal(400, "Choose a file to upload.");
    }
    const description = form?.get("description");
    const asset = await world.human.client.assets.create(timeline, {
      file: new Uint8Array(await file.arrayBuffer()),
      filename: file.name || "upload",
      contentType: file.type || undefined,
      description: typeof description === "string" && description.trim() ? description : undefined,
    });
    return json({ uuid: asset.content.uuid }, 201);
  }
  if (path === "/api/tasks") {
    const input = TaskBody.safeParse(await req.json().catch(() => null));
    if (!input.success) throw new Refusal(400, "Send {timeline, instructions, minutes}.");
    const { timeline, instructions, minutes } = input.data;
    const task = await world.human.client.tasks.create(timeline, {
      instructions,
      activateAt: new Date(Date.now() + minutes * 60_000),
    });
    return json({ uuid: task.content.uuid }, 201);
  }
  const activate = path.match(/^\/api\/tasks\/([0-9a-f-]{36})\/activate$/);
  if (activate) {
    const reply = await fetch(`${ctx.sandbox.adminUrl}/tasks/${activate[1]}/activate`, {
      method: "POST",
    });
    const body = await reply.text();
    if (!reply.ok) throw new Refusal(reply.status, `The platform refused: ${body.slice(0, 200)}`);
    return json({ activated: activate[1] });
  }
  throw new Refusal(404, `Nothing at ${path}.`);
}
