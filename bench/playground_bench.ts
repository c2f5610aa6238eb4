/**
 * What `harness playground` costs the browser and the machine, measured on the real CLI process
 * (from source, `deno run -P=harness main.ts playground`) against the sandbox's deterministic
 * model (no AI_API_KEY):
 *
 *   deno run -A bench/playground_bench.ts [--wakes 200] [--idle 20] [--no-browser] [--json]
 *
 * 1. First load: the page, every embedded script module, stylesheet and the icon
 *    (lib/playground/static/mod.ts), and `/api/state`, requested the way a browser does
 *    (`Accept-Encoding: gzip, br`), summing the bytes on the wire (the body as served, compressed
 *    or not; `content-encoding` is reported). Target ≤ 300 KB, judged at 0 wakes; also shown after
 *    the session. With Chromium (playwright-core, /usr/bin/chromium) the first load is summed from
 *    each finished response's encoded body size too; the event stream never finishes, so it is
 *    counted apart, as the bytes of its first event.
 * 2. Idle CPU: utime+stime of the playground process (and any children) from /proc over
 *    `--idle` seconds with nothing happening, as % of one core, beside an idle
 *    `deno eval "setInterval(() => {}, 1000)"` sampled over the same seconds. Target ≤ 2%.
 * 3. A session of `--wakes` questions (the playground started with `--no-rate-caps`, since one
 *    a second is past the fleet router's caps): one message mentioning the agent posted through
 *    the page's own `POST /api/post`, then waiting (on `/api/state`) until its wake and the
 *    follow-up delivery of the agent's reply have settled, one after another; each is posted
 *    once the clock is past the last wake's start second, since the router twin coalesces an
 *    event into a wake started in the same second, as the fleet router does. The agent's
 *    breaker window file is removed before each post, so that no window left by earlier wakes
 *    can decline one: a declined wake is not the wake a session is about. At 0, 50, 100 and
 *    `--wakes` wakes: `/api/state` size and latency
 *    (p50/p95 of 20 requests). At the end, in Chromium: navigation to the last wake's panel
 *    rendered, a `requestAnimationFrame` round trip, expanding one panel's journal by keyboard,
 *    opening the newest answered wake's context view by keyboard (fetched, rendered, next frame),
 *    and, while one more wake runs with that context view open, the long tasks (≥ 50 ms) on the
 *    page's main thread and the event-stream bytes and events that wake caused.
 *
 * 4. A long session against a short one: the first time the session reaches 40 deliveries and
 *    at its end, the state's size and, in Chromium (medians of three fresh pages), the first
 *    render, a `#wake/<id>` link to the last wake's panel and (information) to the first one;
 *    reported as the end's figures over the 40-delivery ones (target ≤ 1.5× for the renders).
 *
 * Prints a table (or `--json`); exits 1 when a target is missed.
 */
import { parseArgs } from "node:util";
import http from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TARGETS = { firstLoadKb: 300, idleCpuPct: 2, renderGrowth: 1.5 };
/** The short session a long one is compared with, in deliveries. */
const SMALL_SESSION = 40;
const BROWSER_HEADERS = {
  "accept-encoding": "gzip, br",
  "accept": "*/*",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) playground-bench",
};

const { values } = parseArgs({
  args: Deno.args,
  options: {
    wakes: { type: "string", default: "200" },
    idle: { type: "string", default: "20" },
    "no-browser": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const WAKES = Number(values.wakes);
const IDLE_SECONDS = Number(values.idle);
const BROWSER = !values["no-browser"];
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache`}/deno`;

// ---- the playground process -----------------------------------------------------------------

/** What the session reads of `/api/state`. */
interface SessionState {
  /** How many wakes are older than the newest the state carries (docs/playground.md#a-long-session). */
  olderWakes: number;
  wakes: {
    id: string;
    startedAt: string;
    finishedAt: string | null;
    trigger: { item: string | null };
  }[];
}

interface Running {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

async function startPlayground(data: string): Promise<Running> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "--quiet", `${ROOT}main.ts`, "playground", "--port", "0"]
      // One question a second is past the fleet router's rate caps, which would refuse most.
      .concat(["--data", data, "--no-rate-caps"]),
    cwd: ROOT,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/root",
      DENO_DIR,
      NO_COLOR: "1",
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let err = "";
  const errDone = (async () => {
    let rest = "";
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) {
      const lines = (rest + text).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (!line.startsWith("playground wake ")) err += line + "\n";
      }
    }
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`playground exited before serving: ${err}`);
    out += value;
  }
  const drain = (async () => {
    while (!(await reader.read()).done) { /* keep stdout flowing */ }
  })();
  const { url } = JSON.parse(out.split("\n")[0]) as { url: string };
  return {
    url,
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch {
        // Already gone.
      }
      await child.status;
      await Promise.all([errDone, drain]);
    },
  };
}

// ---- raw HTTP (no decompression: the bytes the wire carried) ---------------------------------

interface Fetched {
  readonly status: number;
  readonly encoding: string;
  /** Body bytes as served (compressed when `encoding` says so). */
  readonly wireBytes: number;
  readonly body: Uint8Array;
  readonly ms: number;
}

function rawGet(url: string): Promise<Fetched> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http.get(url, { headers: BROWSER_HEADERS }, (res) => {
      const chunks: Uint8Array[] = [];
      res.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      res.on("end", () => {
        const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
        let at = 0;
        for (const c of chunks) body.set(c, (at += c.length) - c.length);
        resolve({
          status: res.statusCode ?? 0,
          encoding: String(res.headers["content-encoding"] ?? "identity"),
          wireBytes: body.length,
          body,
          ms: performance.now() - started,
        });
      });
      res.on("error", reject);
    }).on("error", reject);
  });
}

async function firstLoad(url: string) {
  const parts: { path: string; bytes: number; encoding: string }[] = [];
  const { STATIC_FILES } = await import("../lib/playground/static/mod.ts");
  const files = Object.keys(STATIC_FILES).map((p) => p.slice(1));
  for (const path of [...files, "api/state"]) {
    const got = await rawGet(`${url}${path}`);
    if (got.status !== 200) throw new Error(`GET /${path} answered ${got.status}`);
    parts.push({ path: `/${path}`, bytes: got.wireBytes, encoding: got.encoding });
  }
  return { parts, totalBytes: parts.reduce((n, p) => n + p.bytes, 0) };
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

async function stateLatency(url: string, wakes: number) {
  const times: number[] = [];
  let wire = 0;
  let encoding = "";
  let text = "";
  for (let i = 0; i < 20; i++) {
    const got = await rawGet(`${url}api/state`);
    times.push(got.ms);
    wire = got.wireBytes;
    encoding = got.encoding;
    if (i === 19 && encoding === "identity") text = new TextDecoder().decode(got.body);
  }
  if (!text) text = await (await fetch(`${url}api/state`)).text();
  times.sort((a, b) => a - b);
  return {
    wakes,
    wireBytes: wire,
    jsonBytes: new TextEncoder().encode(text).length,
    encoding,
    p50Ms: round(quantile(times, 0.5)),
    p95Ms: round(quantile(times, 0.95)),
  };
}

// ---- CPU from /proc ------------------------------------------------------------------------

const TICKS = 100; // USER_HZ on Linux

/** utime+stime (+ waited-for children) of `pid` and of its live descendants, in ticks. */
async function cpuTicks(pid: number): Promise<number> {
  const stats = new Map<number, number[]>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const text = await Deno.readTextFile(`/proc/${entry.name}/stat`);
      stats.set(Number(entry.name), text.slice(text.lastIndexOf(")") + 2).split(" ").map(Number));
    } catch {
      // Exited meanwhile.
    }
  }
  const total = (p: number): number => {
    const f = stats.get(p);
    if (!f) return 0;
    let sum = f[11] + f[12] + f[13] + f[14];
    for (const [child, g] of stats) if (g[1] === p) sum += total(child);
    return sum;
  };
  return total(pid);
}

async function idleCpu(pids: number[], seconds: number): Promise<number[]> {
  const before = await Promise.all(pids.map(cpuTicks));
  const started = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = await Promise.all(pids.map(cpuTicks));
  const wall = (performance.now() - started) / 1000;
  return pids.map((_, i) => round(((after[i] - before[i]) / TICKS / wall) * 100, 2));
}

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

// ---- the session --------------------------------------------------------------------------

const data = await Deno.makeTempDir({ prefix: "playground-bench-" });
const playground = await startPlayground(data);
const url = playground.url;
const report: Record<string, unknown> = { wakesRequested: WAKES };
try {
  // Let start-up work (lazy imports, the first GC) settle before calling it idle.
  await new Promise((r) => setTimeout(r, 3000));
  const baseline = new Deno.Command(Deno.execPath(), {
    args: ["eval", "setInterval(() => {}, 1000)"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  await new Promise((r) => setTimeout(r, 3000));
  const [pgCpu, baseCpu] = await idleCpu([playground.pid, baseline.pid], IDLE_SECONDS);
  baseline.kill("SIGTERM");
  await baseline.status;
  report.idle = {
    seconds: IDLE_SECONDS,
    playgroundPct: pgCpu,
    baselinePct: baseCpu,
    ratio: baseCpu > 0 ? round(pgCpu / baseCpu, 2) : null,
  };

  report.firstLoadAt0 = await firstLoad(url);
  const state0 = await (await fetch(`${url}api/state`)).json() as {
    timelines: { uuid: string }[];
    agent: { handle: string };
  };
  const timeline = state0.timelines[0].uuid;
  // Writes carry the token the page was served with, as the page's own script sends it.
  const page = await (await fetch(url)).text();
  const writeHeaders = {
    "content-type": "application/json",
    "playground-token": page.match(/<meta name="playground-token" content="([^"]*)">/)?.[1] ?? "",
  };
  const breaker = join(data, "agents", state0.agent.handle, "breaker");
  const checkpoints = [0, 50, 100, WAKES].filter((n, i, all) => n <= WAKES && all.indexOf(n) === i);
  const latency = [await stateLatency(url, 0)];
  const wakeMs: number[] = [];
  let lastStart = 0;
  const sessionStarted = performance.now();
  const ask = async (body: string) => {
    for (const suffix of [".wakes", ".tripped"]) {
      await Deno.remove(join(breaker, `${timeline}${suffix}`)).catch(() => {});
    }
    // The router twin coalesces an event into a wake started in the same whole second, as the
    // fleet router does: post once the clock is past the last wake's start, so each is answered.
    while (Math.floor(Date.now() / 1000) <= Math.floor(lastStart / 1000)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const reply = await fetch(`${url}api/post`, {
      method: "POST",
      headers: writeHeaders,
      body: JSON.stringify({ timeline, body }),
    });
    if (reply.status !== 201) throw new Error(`POST /api/post answered ${reply.status}`);
    const { uuid } = await reply.json() as { uuid: string };
    // Its wake, and the follow-up delivery of the agent's own reply, settled.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const wakes = (await (await fetch(`${url}api/state`)).json() as SessionState).wakes;
      lastStart = Math.max(lastStart, ...wakes.map((w) => Date.parse(w.startedAt)));
      const mine = wakes.find((w) => w.trigger.item === uuid);
      if (mine?.finishedAt && wakes.every((w) => w.finishedAt !== null)) return mine;
      if (Date.now() > deadline) throw new Error(`the wake of ${uuid} did not finish`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const growth: Awaited<ReturnType<typeof growthPoint>>[] = [];
  for (let i = 1; i <= WAKES; i++) {
    const posted = performance.now();
    await ask(`@${state0.agent.handle} question ${i}: what is ${i} times seven?`);
    wakeMs.push(performance.now() - posted);
    if (checkpoints.includes(i)) latency.push(await stateLatency(url, i));
    // The small session the long one is compared with: the first time it reaches SMALL deliveries.
    if (growth.length === 0 && await deliveries(url) >= SMALL_SESSION) {
      growth.push(await growthPoint(url));
    }
    if (!values.json && i % 25 === 0) {
      console.error(`… ${i} wakes (${round((performance.now() - sessionStarted) / 1000)} s)`);
    }
  }
  const sortedWakes = [...wakeMs].sort((a, b) => a - b);
  report.session = {
    wakes: WAKES,
    seconds: round((performance.now() - sessionStarted) / 1000),
    wakeP50Ms: Math.round(quantile(sortedWakes, 0.5)),
    wakeP95Ms: Math.round(quantile(sortedWakes, 0.95)),
  };
  report.stateLatency = latency;
  growth.push(await growthPoint(url));
  report.growth = growthRatios(growth);
  report.firstLoadAfter = await firstLoad(url);
  const finalState = await (await fetch(`${url}api/state`)).json() as {
    olderWakes: number;
    wakes: { id: string; n: number; code: number | null; outcome: string }[];
  };
  // Every wake's outcome: the state carries the newest; the older ones come a page at a time.
  const everyWake = [...finalState.wakes];
  while (everyWake[0] && everyWake[0].n > 1) {
    const older = await (await fetch(`${url}api/wakes?before=${everyWake[0].n}&limit=200`))
      .json() as typeof finalState;
    everyWake.unshift(...older.wakes);
  }
  report.outcomes = everyWake.reduce<Record<string, number>>((acc, w) => {
    const key = w.outcome ?? `code ${w.code}`;
    acc[key] = (acc[key] ?? 0) + 1;
    return acc;
  }, {});

  if (BROWSER) {
    report.browser = await inChromium(url, finalState.wakes.at(-1)?.id ?? "", async () => {
      await ask(`@${state0.agent.handle} one more question`);
    });
  }
} finally {
  await playground.stop();
  await Deno.remove(data, { recursive: true }).catch(() => {});
}

// ---- a long session against a short one ---------------------------------------------------

/** Every delivery so far: the wakes the state carries and the older ones it counts. */
async function deliveries(url: string): Promise<number> {
  const state = await (await fetch(`${url}api/state`)).json() as SessionState;
  return state.olderWakes + state.wakes.length;
}

/**
 * At the session's size now: the state's JSON size and, in Chromium, the median of three of
 * (a) the first render — navigation until the conversation and the wakes are rendered, and the
 * next frame — (b) navigation to the last wake's panel by its link (`#wake/<id>`: the panel
 * rendered and focused, and the next frame) and (c), for information, the same to the first
 * wake's panel, which loads every older wake.
 */
async function growthPoint(url: string) {
  const text = await (await fetch(`${url}api/state`)).text();
  const state = JSON.parse(text) as SessionState & { wakes: { id: string }[] };
  const point = {
    deliveries: state.olderWakes + state.wakes.length,
    stateBytes: new TextEncoder().encode(text).length,
    panels: 0,
    firstRenderMs: null as number | null,
    toLastPanelMs: null as number | null,
    toFirstPanelMs: null as number | null,
  };
  if (!BROWSER) return point;
  const last = state.wakes.at(-1)!.id;
  const first = state.olderWakes > 0
    ? (await (await fetch(`${url}api/wakes?before=2&limit=1`)).json() as SessionState).wakes[0].id
    : state.wakes[0].id;
  const { openBrowser } = await import("../tests/playground/browser.ts");
  await using context = await openBrowser();
  const timed = async (href: string, ready: string[]): Promise<number> => {
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(href);
    for (const selector of ready) await page.waitForSelector(selector, { timeout: 120_000 });
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))");
    const ms = performance.now() - started;
    panels.push(await page.locator("article.wake").count());
    await page.close();
    return ms;
  };
  const median = async (href: string, ready: string[]) => {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push(await timed(href, ready));
    return Math.round(runs.sort((a, b) => a - b)[1]);
  };
  const focused = (id: string) => [`article.wake[data-wake="${id}"]:focus`];
  const panels: number[] = [];
  point.firstRenderMs = await median(url, ["#items .item", "article.wake"]);
  // The panels a first render builds (a link to the first wake loads every older one).
  point.panels = panels[0];
  point.toLastPanelMs = await median(`${url}#wake/${last}`, focused(last));
  point.toFirstPanelMs = await median(`${url}#wake/${first}`, focused(first));
  return point;
}

/** The long session's figures over the short one's. */
function growthRatios(points: Awaited<ReturnType<typeof growthPoint>>[]) {
  const [small, long] = points.length === 2 ? points : [points[0], points[0]];
  // A run too short to reach the short session has one point: nothing to compare it with.
  const ratio = (a: number | null, b: number | null) =>
    points.length === 2 && a !== null && b !== null && b > 0 ? round(a / b, 2) : null;
  return {
    small,
    long,
    firstRenderRatio: ratio(long.firstRenderMs, small.firstRenderMs),
    toLastPanelRatio: ratio(long.toLastPanelMs, small.toLastPanelMs),
    stateRatio: ratio(long.stateBytes, small.stateBytes),
  };
}

// ---- Chromium ------------------------------------------------------------------------------

async function inChromium(url: string, lastWake: string, oneMoreWake: () => Promise<void>) {
  // The tests' launcher: Debian's Chromium with the flags this machine needs, a fresh profile.
  const { openBrowser } = await import("../tests/playground/browser.ts");
  await using context = await openBrowser();
  const page = await context.newPage();
  const sizes: Promise<{ url: string; bytes: number }>[] = [];
  page.on("requestfinished", (request) => {
    sizes.push(
      request.sizes().then((s) => ({ url: request.url(), bytes: s.responseBodySize })),
    );
  });
  const started = performance.now();
  await page.goto(url);
  await page.waitForSelector(`article.wake[data-wake="${lastWake}"]`, { timeout: 120_000 });
  const toLastPanelMs = Math.round(performance.now() - started);
  const finished = await Promise.all(sizes);
  const firstEventBytes = new TextEncoder().encode(
    await (await fetch(`${url}api/state`)).text(),
  ).length;
  const panels = await page.locator("article.wake").count();
  const frames: number[] = [];
  for (let i = 0; i < 5; i++) {
    frames.push(
      await page.evaluate<number>(
        "new Promise((r) => { const t = performance.now(); " +
          "requestAnimationFrame(() => r(performance.now() - t)); })",
      ),
    );
  }
  // Expand the newest wake's journal by keyboard: focus its summary, press Enter, until its
  // lines are shown and the next frame.
  const newest = page.locator("article.wake").first();
  await newest.locator("summary", { hasText: /^Journal/ }).focus();
  const expandStarted = performance.now();
  await page.keyboard.press("Enter");
  // The panel's body is fetched and built on its first toggle: wait for it (from here — the
  // page's CSP refuses an in-page poll), then for the next frame.
  await newest.locator("details[open] pre.journal").waitFor({ timeout: 120_000 });
  await page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))");
  const expandMs = Math.round(performance.now() - expandStarted);
  const opened = await page.evaluate<boolean>(
    'document.querySelector("article.wake details[open] pre.journal") !== null',
  );

  // Open the newest answered wake's context view by keyboard: fetched, rendered, next frame.
  const answered = page.locator("article.wake").filter({ hasText: "posted=1" }).first();
  await answered.locator("summary", { hasText: "Context" }).focus();
  const contextStarted = performance.now();
  await page.keyboard.press("Enter");
  await answered.locator(".prefix-diff").waitFor({ timeout: 120_000 });
  await page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))");
  const contextMs = Math.round(performance.now() - contextStarted);
  const contextParts = await answered.locator(".parts > li").count();

  // One more wake with the page open: its long tasks and the event stream it caused.
  await page.evaluate(
    "window.__long = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) " +
      "window.__long.push(e.duration); }).observe({ type: 'longtask' });",
  );
  const stream = await openStream(url);
  await oneMoreWake();
  await new Promise((r) => setTimeout(r, 1500));
  stream.close();
  const long = await page.evaluate<number[]>("window.__long");
  return {
    chromiumFirstLoadBytes: finished.reduce((n, s) => n + Math.max(0, s.bytes), 0),
    chromiumResponses: finished.length,
    eventStreamFirstEventBytes: firstEventBytes,
    panels,
    toLastPanelMs,
    rafMs: frames.map((f) => round(f)),
    expandByKeyboardMs: expandMs,
    expanded: opened === true,
    contextViewMs: contextMs,
    contextParts,
    oneMoreWake: {
      longTasks: long.length,
      longTaskMs: round(long.reduce((a, b) => a + b, 0)),
      longestTaskMs: round(Math.max(0, ...long)),
      streamEvents: stream.events(),
      streamBytes: stream.bytes(),
    },
  };
}

/** Follows `/api/events` as a browser would, counting events and wire bytes. */
function openStream(url: string): Promise<{ events(): number; bytes(): number; close(): void }> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let events = 0;
    let first = true;
    let buffer = "";
    const request = http.get(`${url}api/events`, { headers: BROWSER_HEADERS }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (text: string) => {
        buffer += text;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, end + 2);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue; // keep-alive
          // The snapshot sent on connect is not caused by the wake.
          if (first) {
            first = false;
            continue;
          }
          bytes += new TextEncoder().encode(block).length;
          events++;
        }
      });
      resolve({
        events: () => events,
        bytes: () => bytes,
        close: () => request.destroy(),
      });
    });
    request.on("error", (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}

// ---- the report ---------------------------------------------------------------------------

const first0 = report.firstLoadAt0 as Awaited<ReturnType<typeof firstLoad>>;
const idle = report.idle as { playgroundPct: number; baselinePct: number; ratio: number | null };
const growth = report.growth as ReturnType<typeof growthRatios>;
const grows = [growth.firstRenderRatio, growth.toLastPanelRatio];
const verdicts = {
  firstLoad: first0.totalBytes <= TARGETS.firstLoadKb * 1000,
  idleCpu: idle.playgroundPct <= TARGETS.idleCpuPct,
  /** Null when the run was too short to compare two sessions, or Chromium measured nothing. */
  renderGrowth: grows.some((r) => r === null)
    ? null
    : grows.every((r) => r! <= TARGETS.renderGrowth),
};
report.verdicts = verdicts;
if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const rows: [string, string, string][] = [];
  const encodings = [...new Set(first0.parts.map((p) => p.encoding))].join("/");
  rows.push([
    "first load, 0 wakes (page, scripts, styles, icon, /api/state)",
    `≤ ${TARGETS.firstLoadKb} KB`,
    `${kb(first0.totalBytes)} (${encodings}; ${
      first0.parts.map((p) => `${p.path} ${kb(p.bytes)}`).join(", ")
    })`,
  ]);
  const after = report.firstLoadAfter as typeof first0 | undefined;
  if (after) rows.push([`first load, ${WAKES} wakes`, "(information)", kb(after.totalBytes)]);
  rows.push([
    `idle CPU over ${IDLE_SECONDS} s`,
    `≤ ${TARGETS.idleCpuPct}% of a core`,
    `${idle.playgroundPct}% (idle deno eval: ${idle.baselinePct}%, ratio ${idle.ratio ?? "–"})`,
  ]);
  const session = report.session as { seconds: number; wakeP50Ms: number; wakeP95Ms: number };
  rows.push([
    `session of ${WAKES} wakes`,
    "(information)",
    `${session.seconds} s; post → settled p50 ${session.wakeP50Ms} ms, p95 ${session.wakeP95Ms} ms; ${
      JSON.stringify(report.outcomes)
    }`,
  ]);
  for (const l of report.stateLatency as Awaited<ReturnType<typeof stateLatency>>[]) {
    rows.push([
      `/api/state at ${l.wakes} wakes`,
      "(information)",
      `${kb(l.wireBytes)} on the wire (${l.encoding}), ${
        kb(l.jsonBytes)
      } JSON; p50 ${l.p50Ms} ms, p95 ${l.p95Ms} ms`,
    ]);
  }
  const g = growth;
  for (const p of [g.small, g.long]) {
    rows.push([
      `at ${p.deliveries} deliveries (${p.panels} panels)`,
      "(information)",
      `state ${kb(p.stateBytes)}; first render ${p.firstRenderMs ?? "–"} ms; link to the last ` +
      `wake's panel ${p.toLastPanelMs ?? "–"} ms; link to the first wake's panel ` +
      `${p.toFirstPanelMs ?? "–"} ms (medians of 3)`,
    ]);
  }
  rows.push([
    `${g.long.deliveries} ÷ ${g.small.deliveries} deliveries`,
    `≤ ${TARGETS.renderGrowth}× (render)`,
    `first render ${g.firstRenderRatio ?? "–"}×; last wake's panel ${
      g.toLastPanelRatio ?? "–"
    }×; state size ${g.stateRatio ?? "–"}×`,
  ]);
  const b = report.browser as Awaited<ReturnType<typeof inChromium>> | undefined;
  if (b) {
    rows.push([
      `Chromium first load at ${WAKES} wakes`,
      "(information)",
      `${
        kb(b.chromiumFirstLoadBytes)
      } in ${b.chromiumResponses} finished responses + event stream's first event ${
        kb(b.eventStreamFirstEventBytes)
      }`,
    ]);
    rows.push([
      `Chromium: navigation → last wake's panel (${b.panels} panels)`,
      "(information)",
      `${b.toLastPanelMs} ms`,
    ]);
    rows.push(["Chromium: rAF round trip ×5", "(information)", `${b.rafMs.join(", ")} ms`]);
    rows.push([
      "Chromium: expand a journal by keyboard (Enter → next frame)",
      "(information)",
      `${b.expandByKeyboardMs} ms${b.expanded ? "" : " (did not open)"}`,
    ]);
    const w = b.oneMoreWake;
    rows.push([
      "Chromium: open a context view by keyboard (Enter → rendered → next frame)",
      "(information)",
      `${b.contextViewMs} ms, ${b.contextParts} parts`,
    ]);
    rows.push([
      `Chromium: one more wake with the context view open`,
      "(information)",
      `${w.longTasks} long tasks, ${w.longTaskMs} ms in all, longest ${w.longestTaskMs} ms; ${w.streamEvents} events, ${
        kb(w.streamBytes)
      } streamed`,
    ]);
  }
  const width = Math.max(...rows.map((r) => r[0].length));
  const twidth = Math.max(...rows.map((r) => r[1].length));
  for (const [what, target, measured] of rows) {
    console.log(`${what.padEnd(width)}  ${target.padEnd(twidth)}  ${measured}`);
  }
  console.log(
    `first load: ${verdicts.firstLoad ? "met" : "NOT met"}; idle CPU: ${
      verdicts.idleCpu ? "met" : "NOT met"
    }; render growth: ${
      verdicts.renderGrowth === null ? "not measured" : verdicts.renderGrowth ? "met" : "NOT met"
    }`,
  );
}
if (!verdicts.firstLoad || !verdicts.idleCpu || verdicts.renderGrowth === false) Deno.exit(1);
