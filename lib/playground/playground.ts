/**
 * A running playground: the sandbox platform, the seated human and agent, router emulation
 * running real wakes, and the page's HTTP server (its routes and checks: ./page_routes.ts).
 */
import { Gate } from "../gate/mod.ts";
import { registerSecret } from "../journal/scrub.ts";
import { Sandbox, servedHosts } from "../sandbox/mod.ts";
import { chooseModel } from "../demo/wake_process.ts";
import { type Snapshot, timelineViews } from "./views.ts";
import { WakeRunner } from "./wakes.ts";
import { Hub } from "./hub.ts";
import { handlePage, newPageToken, type PageContext } from "./page_routes.ts";
import { openWorld, type PlaygroundWorld } from "./world.ts";
import type { Seat } from "../demo/world.ts";
import { Studio } from "./studio.ts";
import { WAKE_WINDOW } from "./wake_window.ts";
import { appendWakeLog, readWakeLog, wakeLogPath } from "./wake_log.ts";
import { errorMessage } from "../base/error_text.ts";

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
  /** Lift the router twin's rate caps (a long scripted session); the fleet's apply otherwise. */
  readonly noRateCaps?: boolean;
}

/** A running playground. */
export interface Playground {
  /** The page, e.g. `http://127.0.0.1:8080/`. */
  readonly url: string;
  /** The sandbox platform's base URL (loopback). */
  readonly platformUrl: string;
  /** The sandbox's admin token for this run (its `/_sandbox/*` routes need it). */
  readonly adminToken: string;
  /** Which model the wakes use, in one line. */
  readonly model: string;
  readonly runner: WakeRunner;
  /** What the page's studio panels ask of this playground. */
  readonly studio: Studio;
  /** Stops wakes, the page server and the sandbox; removes a temporary data dir. */
  close(): Promise<void>;
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
    for (const seat of [...world.humans, world.agent]) registerSecret(seat.token);
    const earlier = await readWakeLog(dataDir);
    if (earlier.unreadable) {
      options.log(
        `playground warning: ${earlier.unreadable} line(s) of ${wakeLogPath(dataDir)} could ` +
          "not be read and were skipped",
      );
    }
    const hub = new Hub({
      snapshot: () => snapshot(world, model.label, studio),
      timelines: () => timelineViews(world.human.client),
      summary: (wake) => studio.summary(wake),
    });
    const runner = new WakeRunner({
      directory: sandbox.directory,
      baseUrl: sandbox.baseUrl,
      dataDir,
      model,
      parentEnv: options.env,
      earlier: earlier.wakes,
      noRateCaps: options.noRateCaps,
      onChange: (wake) => hub.changed({ wake }),
      onSettled: (wake) => {
        // Kept for a restart on the same --data; a failed write costs only that.
        appendWakeLog(dataDir, wake).catch((error) =>
          options.log(`playground warning: could not keep wake ${wake.id}: ${errorMessage(error)}`)
        );
        studio.refreshPrices().then(() => hub.changed({ wake }));
      },
      log: options.log,
    });
    const studio = new Studio({
      dataDir,
      world,
      runner,
      sandbox,
      model,
      parentEnv: options.env,
    });
    await studio.refreshPrices();
    cleanups.push(() => runner.close());
    // Routing starts after the world is seated: the welcome message wakes no one.
    const unsubscribe = sandbox.onEvent((event) => {
      runner.dispatch(event);
      hub.changed({ timelines: true });
    });
    cleanups.push(() => Promise.resolve(unsubscribe()));
    const abort = new AbortController();
    // Filled in once the port is known, before the first request can be served.
    const hosts = new Set<string>();
    const gates = new Map(
      world.humans.map((seat) => [seat.handle, seatGate(seat)]),
    );
    const page: PageContext = {
      hosts,
      pageToken: newPageToken(),
      world,
      gate: (handle) => {
        const seat = world.humans.find((s) => s.handle === handle);
        if (!seat) return undefined;
        let found = gates.get(handle);
        if (!found) gates.set(handle, found = seatGate(seat));
        return found;
      },
      hub,
      sandbox,
      studio,
    };
    const server = Deno.serve({
      hostname: options.host,
      port: options.port,
      signal: abort.signal,
      onListen: () => {},
    }, (req) => handlePage(req, page));
    cleanups.push(async () => {
      hub.close();
      abort.abort();
      await server.finished;
    });
    const { hostname, port } = server.addr;
    for (const host of servedHosts([options.host, hostname], port)) hosts.add(host);
    const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
    return {
      url: `http://${shown}:${port}/`,
      platformUrl: sandbox.baseUrl,
      adminToken: sandbox.adminToken,
      model: model.label,
      runner,
      studio,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function snapshot(world: PlaygroundWorld, model: string, studio: Studio): Promise<Snapshot> {
  const newest = studio.newestSummaries();
  return {
    human: { handle: world.human.handle, name: world.human.name },
    humans: world.humans.map((s) => ({ handle: s.handle, name: s.name })),
    agent: { handle: world.agent.handle, name: world.agent.name },
    model,
    prices: studio.prices,
    timelines: await timelineViews(world.human.client),
    wakes: newest.wakes,
    olderWakes: newest.older,
    wakeWindow: WAKE_WINDOW,
  };
}

/** A human seat's outbound gate: every post from the page goes through one, as every message. */
function seatGate(seat: Seat): Gate {
  return new Gate({ client: seat.client, secrets: [seat.token] });
}
