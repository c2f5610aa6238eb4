/**
 * What one `harness wake` costs, as a whole process against the sandbox platform, the way a
 * router runs it, in both forms the CLI runs in:
 *
 * - bundle (the shipped form, and the one the targets are judged on): the bundle the binary is
 *   compiled from (deploy/bundle.ts, built here into a temporary directory), run as
 *   `deno run -P=harness --config <bundle>/deno.json <bundle>/main.js wake --timeline <uuid>`;
 * - source (the development form, printed for information): `deno run -P=harness main.ts wake …`.
 *
 *   deno run -A bench/wake_bench.ts [--runs 10] [--warmups 2] [--json] [--help]
 *
 * (a) Idle wake: a timeline where the agent has already answered everything. The median wall
 *     time of N wake processes against the median of N `deno run` of an empty script with the
 *     same flags, config and cache, interleaved in the same run. Target: ≤ 5×. Also checked:
 *     the idle wakes made no model request (the sandbox's model endpoint saw none), and — in an
 *     extra, untimed run under `--log-level=debug` — Deno loaded no model SDK code: from source,
 *     no file of the `openai` or `@openrouter/sdk` package; from the bundle, no bundle file that
 *     holds a model SDK (one naming a vendor's API host). The same debug run of a one-reply wake
 *     must show one, so the signal is not vacuous. For information, the same idle wake of a
 *     timeline whose agent has answered 5,000 items before (one settled claim file each, as a
 *     long-lived agent's home holds them), after a warm-up wake has indexed them.
 * (b) One-reply wake: a new question per run, answered through the sandbox's deterministic demo
 *     model (instant: no delay). Harness overhead = the process's wall time minus the time the
 *     sandbox spent handling that wake's requests (the union of their handling intervals, so
 *     requests made concurrently count once); model and platform time are shown apart. Targets:
 *     median overhead ≤ 150 ms; peak RSS (max over runs, from `/usr/bin/time -f %M`, else VmHWM
 *     polled from /proc/<pid>/status) ≤ 120 MB. For information, each reply wake is followed by
 *     an empty `deno run`, and the median of overhead ÷ that run is printed: the absolute overhead
 *     moves with the machine's speed of the moment, this ratio much less.
 *
 * (c) The catch-up before exit (docs/operating.md#catch-up-before-exit): every idle and reply
 *     wake above runs twice, interleaved, with the catch-up on (the default) and switched off
 *     (`HARNESS_CATCH_UP=off`), the same wake in the same run. Printed: the median wall time and
 *     CPU time (user + system, read by a `--preload` module from `process.cpuUsage()` as the
 *     process exits) of each, and on ÷ off. Target (shipped form): the idle wake's CPU time grows
 *     by no more than 10 % (ratio ≤ 1.10). The wall time grows by design — an idle wake that would
 *     finish inside the second it started in waits for that second to end, asleep — so it is
 *     reported, not judged. The targets of (a) and (b) are judged on the runs with the catch-up
 *     off, so they keep measuring what they always did: the work of a wake, not its wait.
 *
 * The breaker is raised (HARNESS_WAKE_BREAKER_MAX=1000) so N wakes in a minute are not declined.
 * Prints a table and pass/fail per target; exits 1 when a target is missed.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Gate } from "../lib/gate/mod.ts";
import { PlatformClient } from "../lib/platform/mod.ts";
import { type RequestRecord, Sandbox } from "../lib/sandbox/mod.ts";
import { encodeClaimRecord } from "../lib/home/claim_record.ts";
import { claimsDir } from "../lib/home/paths.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TARGETS = { idleRatio: 5, overheadMs: 150, rssMb: 120, catchUpIdleCpu: 1.1 };
/** The catch-up switched off: the baseline of (c), and the runs (a) and (b) are judged on. */
const CATCH_UP_OFF = { HARNESS_CATCH_UP: "off" };
/** Items answered on the long-history timeline, one settled claim file each. */
const HISTORY = 5_000;
const MODEL_SDKS = ["openai", "@openrouter/sdk"];

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "10" },
    warmups: { type: "string", default: "2" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(`Usage: deno run -A bench/wake_bench.ts [--runs N] [--warmups N] [--json]

Whole-process wakes against the sandbox, as a router runs them, in the shipped (bundle) and
source forms: (a) an idle wake against an empty deno run, (b) a one-reply wake's overhead and
peak RSS, (c) the catch-up before exit on vs off (wall and CPU). See docs/benchmarks.md.

  --runs N     timed runs of each measurement (default 10)
  --warmups N  untimed runs first (default 2)
  --json       one JSON object instead of the table`);
  Deno.exit(0);
}
const runs = Number(values.runs);
const warmups = Number(values.warmups);
const TIME = await Deno.stat("/usr/bin/time").then((s) => s.isFile, () => false);

/** One way of running the CLI: the Deno flags (production permissions, config) and entry. */
interface Form {
  readonly name: "bundle" | "source";
  readonly flags: readonly string[];
  readonly main: string;
  /** Whether a `--log-level=debug` run loaded model SDK code. */
  readonly loadedSdk: (debugLog: string) => boolean;
}
/** The Deno cache this process uses, so a child with another HOME does not refetch. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache`}/deno`;

/** One finished process, timed from spawn to exit. */
interface Run {
  readonly ms: number;
  /** Peak resident set, in MB (NaN when unmeasured). */
  readonly rssMb: number;
  /** User + system CPU time, in ms, as the process reported it at exit (NaN when it did not). */
  readonly cpuMs: number;
  readonly stderr: string;
}

/** What the `--preload` module prints at exit: the process's own CPU time, in microseconds. */
const CPU_LINE = /^bench-cpu-us (\d+)$/m;

/** Runs `deno <args>`; with `rss`, measures its peak resident set too. */
async function runDeno(args: string[], env: Record<string, string>, rss = false): Promise<Run> {
  const rssFile = rss && TIME ? await Deno.makeTempFile({ prefix: "wake-bench-rss-" }) : "";
  const [program, argv] = rssFile
    ? ["/usr/bin/time", ["-f", "%M", "-o", rssFile, Deno.execPath(), ...args]]
    : [Deno.execPath(), args];
  const start = performance.now();
  const child = new Deno.Command(program, {
    args: argv,
    cwd: ROOT,
    env: { DENO_DIR, NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const hwm = rss && !TIME ? pollHwm(child.pid, child.status) : Promise.resolve(NaN);
  const [output, polled] = await Promise.all([child.output(), hwm]);
  const ms = performance.now() - start;
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`deno ${args.join(" ")} exited ${output.code}:\n${stderr}`);
  let rssMb = polled;
  if (rssFile) {
    rssMb = Number((await Deno.readTextFile(rssFile)).trim().split("\n").at(-1)) / 1024;
    await Deno.remove(rssFile);
  }
  const cpu = CPU_LINE.exec(stderr);
  return { ms, rssMb, cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN, stderr };
}

/** The highest VmHWM seen in /proc/<pid>/status until the process exits, in MB. */
async function pollHwm(pid: number, status: Promise<unknown>): Promise<number> {
  let done = false;
  status.then(() => done = true);
  let peak = NaN;
  while (!done) {
    try {
      const text = await Deno.readTextFile(`/proc/${pid}/status`);
      const kb = Number(/^VmHWM:\s+(\d+)/m.exec(text)?.[1]);
      if (kb) peak = Math.max(Number.isNaN(peak) ? 0 : peak, kb / 1024);
    } catch { /* exited between checks */ }
    await new Promise((r) => setTimeout(r, 2));
  }
  return peak;
}

/** The medians of (c)'s samples. */
function medians(
  s: { wallOn: number[]; wallOff: number[]; cpuOn: number[]; cpuOff: number[] },
): OnOff {
  return {
    wallOn: median(s.wallOn),
    wallOff: median(s.wallOff),
    cpuOn: median(s.cpuOn),
    cpuOff: median(s.cpuOff),
  };
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The npm packages whose files Deno resolved, read from its `--log-level=debug` output. */
function loadedPackages(debugLog: string): Set<string> {
  const names = new Set<string>();
  const paths = /\/npm\/[^/\s]+\/((?:@[^/\s]+\/)?[^/\s@]+)\/\d[^/\s]*\//g;
  for (const match of debugLog.matchAll(paths)) names.add(match[1]);
  return names;
}

/** The ES modules Deno loaded, read from its `--log-level=debug` output. */
function loadedModules(debugLog: string): Set<string> {
  const found = new Set<string>();
  for (const match of debugLog.matchAll(/code cache \w+ for ES module: (file:\/\/\S+?),/g)) {
    found.add(match[1]);
  }
  return found;
}

/**
 * The bundle's files that hold model SDK code: esbuild heads every inlined module with a
 * `// <path>` comment, and an npm module's path runs through `/npm/<registry>/<package>/`.
 */
async function sdkFiles(bundleDir: string): Promise<Set<string>> {
  const marker = new RegExp(
    `^// \\S*/npm/[^/\\s]+/(${MODEL_SDKS.map((p) => p.replace("/", "\\/")).join("|")})/`,
    "m",
  );
  const found = new Set<string>();
  for await (const entry of Deno.readDir(bundleDir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const path = join(bundleDir, entry.name);
    if (marker.test(await Deno.readTextFile(path))) found.add(`file://${path}`);
  }
  return found;
}

/** Builds the shipped bundle into `outdir`. */
async function buildBundle(outdir: string): Promise<void> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "deploy", "bundle.ts"), "--outdir", outdir],
    cwd: ROOT,
    env: { DENO_DIR },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) throw new Error(new TextDecoder().decode(output.stderr));
}

/**
 * Gives `timeline` the claim files of {@link HISTORY} answered messages, as a long-lived agent's
 * home holds them (claims are kept for good, one per item).
 */
async function settledHistory(home: string, timeline: string): Promise<void> {
  const dir = claimsDir(home, "messages", timeline);
  const done = encodeClaimRecord({ phase: "done", pid: null, wake: null, at: 1796075529.191 });
  for (let i = 0; i < HISTORY; i++) {
    await Deno.writeTextFile(join(dir, `${crypto.randomUUID()}.claim`), done);
  }
}

const isModel = (r: RequestRecord) => r.path.startsWith("/_sandbox/model/");
/**
 * The time during which at least one of `rs` was being handled, in ms: the union of their
 * intervals, so requests a wake makes concurrently are not counted twice.
 */
function busyMs(rs: readonly RequestRecord[]): number {
  const spans = rs.map((r) => [r.startedAt, r.startedAt + r.ms] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [start, end] = [-Infinity, -Infinity];
  for (const [from, to] of spans) {
    if (from > end) {
      if (end > start) total += end - start;
      [start, end] = [from, to];
    } else if (to > end) end = to;
  }
  if (end > start) total += end - start;
  return total;
}

// ---------------------------------------------------------------------------------------------
// The world: a sandbox and a human asking; per form, an AI agent with its own HARNESS_HOME and
// two timelines (one that goes idle, one that gets a fresh question per run).

/** What one form measured. */
interface Measured {
  readonly emptyMs: number;
  readonly idleMs: number;
  readonly ratio: number;
  /** Idle wakes of a timeline whose agent has answered {@link HISTORY} items before. */
  readonly historyMs: number;
  readonly historyRatio: number;
  readonly idleModelRequests: number;
  readonly idleLoadedSdk: boolean;
  readonly replyLoadedSdk: boolean;
  readonly wallMs: number;
  readonly modelMs: number;
  readonly platformMs: number;
  readonly overheadMs: number;
  /** Median over the reply runs of overhead ÷ the empty `deno run` measured right after it. */
  readonly overheadPerEmpty: number;
  readonly rssMb: number;
  /** (c) medians with the catch-up on and off, wall and CPU, idle and reply. */
  readonly catchUp: {
    readonly idle: OnOff;
    readonly reply: OnOff;
  };
}

/** Medians of the same wake with the catch-up on and off. */
interface OnOff {
  readonly wallOn: number;
  readonly wallOff: number;
  readonly cpuOn: number;
  readonly cpuOff: number;
}

const dir = await Deno.makeTempDir({ prefix: "harness-wake-bench-" });
const sandbox = await Sandbox.start({ port: 0, dataDir: dir });
try {
  const bundleDir = join(dir, "bundle");
  await buildBundle(bundleDir);
  const bundleSdk = await sdkFiles(bundleDir);
  if (bundleSdk.size === 0) throw new Error("no bundle file holds a model SDK's modules");
  const forms: Form[] = [
    {
      name: "bundle",
      flags: ["run", "-P=harness", "--quiet", "--config", join(bundleDir, "deno.json")],
      main: join(bundleDir, "main.js"),
      loadedSdk: (log) => [...loadedModules(log)].some((m) => bundleSdk.has(m)),
    },
    {
      name: "source",
      flags: ["run", "-P=harness", "--quiet", "--config", join(ROOT, "deno.json")],
      main: join(ROOT, "main.ts"),
      loadedSdk: (log) => [...loadedPackages(log)].some((p) => MODEL_SDKS.includes(p)),
    },
  ];
  const human = sandbox.createUser({ handle: "ada", name: "Ada", kind: "human" });
  const ada = new PlatformClient({ baseUrl: sandbox.baseUrl, token: human.token });
  const gate = new Gate({ client: ada });
  const ask = (timeline: string, n: number) =>
    gate.post({ timeline, body: `@vega question ${n}: what is new?`, kind: "tool" });
  const empty = join(dir, "empty.ts");
  await Deno.writeTextFile(empty, "");
  // Loaded before the CLI in every timed wake (on and off alike): prints the process's CPU time.
  const cpuPreload = join(dir, "cpu_preload.js");
  await Deno.writeTextFile(
    cpuPreload,
    `import process from "node:process";
globalThis.addEventListener("unload", () => {
  const { user, system } = process.cpuUsage();
  console.error(\`bench-cpu-us \${user + system}\`);
});
`,
  );

  const measure = async (form: Form, handle: string) => {
    const agent = sandbox.createUser({ handle, name: handle, kind: "ai" });
    const vega = new PlatformClient({ baseUrl: sandbox.baseUrl, token: agent.token });
    await ada.users.grantTrust(agent.user.uuid);
    await vega.users.grantTrust(human.user.uuid);
    const open = async (name: string) => {
      const { timeline } = await ada.timelines.create({ name });
      await ada.timelines.addParticipant(timeline.uuid, agent.user.uuid);
      return timeline.uuid;
    };
    const idleTimeline = await open(`${form.name} idle`);
    const replyTimeline = await open(`${form.name} reply`);
    const historyTimeline = await open(`${form.name} history`);
    const home = join(dir, handle);
    const env = {
      HARNESS_HOME: home,
      BASECRADLE_CONFIG_HOME: join(home, "config"),
      BASECRADLE_BASE_URL: sandbox.baseUrl,
      BASECRADLE_TOKEN: agent.token,
      AI_PROVIDER: "openai",
      AI_SDK: "openai",
      AI_SDK_SURFACE: "chat",
      AI_BASE_URL: sandbox.modelUrl,
      AI_MODEL: "sandbox-demo",
      AI_API_KEY: "sandbox-bench-key",
      HARNESS_WAKE_BREAKER_MAX: "1000",
      HOME: home,
    };
    // `--quiet` would silence `--log-level=debug`, so a debug run goes without it.
    const wakeArgs = (timeline: string, debug = false) => [
      ...(debug
        ? [...form.flags.filter((f) => f !== "--quiet"), "--log-level=debug"]
        : [...form.flags, "--preload", cpuPreload]),
      form.main,
      "wake",
      "--timeline",
      timeline,
    ];

    /** One wake; the sandbox requests it made, split into model and platform. */
    const wake = async (
      timeline: string,
      options: { rss?: boolean; debug?: boolean; catchUp?: boolean } = {},
    ) => {
      const before = sandbox.requests.length;
      const vars = options.catchUp === false ? { ...env, ...CATCH_UP_OFF } : env;
      const run = await runDeno(wakeArgs(timeline, options.debug), vars, options.rss);
      const requests = sandbox.requests.slice(before);
      const model = requests.filter(isModel);
      const platform = requests.filter((r) => !isModel(r));
      if (!options.debug && !/wake end .*outcome=ok/.test(run.stderr)) {
        throw new Error(`the wake did not end ok:\n${run.stderr}`);
      }
      return { ...run, model, platform };
    };

    // (a) The agent answers the idle timeline's one question; after that every wake is idle.
    await ask(idleTimeline, 0);
    const answered = await wake(idleTimeline);
    if (answered.model.length === 0) throw new Error("the set-up wake did not call the model");
    // (a′) The history timeline: answered once for real, then given the claims of HISTORY answers.
    await ask(historyTimeline, 0);
    if ((await wake(historyTimeline)).model.length === 0) {
      throw new Error("the history set-up wake did not call the model");
    }
    await settledHistory(home, historyTimeline);
    const idle: number[] = [];
    const historyIdle: number[] = [];
    const baseline: number[] = [];
    let idleModelRequests = 0;
    // (b) A fresh question per run on the reply timeline, one reply each.
    const overhead: number[] = [];
    const wall: number[] = [];
    const modelMs: number[] = [];
    const platformMs: number[] = [];
    const rss: number[] = [];
    const overheadPerEmpty: number[] = [];
    // (c) The same wakes with the catch-up on and off.
    const samples = () => ({
      wallOn: [] as number[],
      wallOff: [] as number[],
      cpuOn: [] as number[],
      cpuOff: [] as number[],
    });
    const catchUpIdle = samples();
    const catchUpReply = samples();
    let asked = 0;
    let turn = 0;
    /** A wake with the catch-up on and the same wake with it off, alternating which goes first. */
    const pair = async <R extends Run>(run: (catchUp: boolean) => Promise<R>) => {
      const first = turn++ % 2 === 0;
      const a = await run(first);
      const b = await run(!first);
      return first ? { on: a, off: b } : { on: b, off: a };
    };
    const record = (into: ReturnType<typeof samples>, on: Run, off: Run) => {
      into.wallOn.push(on.ms);
      into.wallOff.push(off.ms);
      into.cpuOn.push(on.cpuMs);
      into.cpuOff.push(off.cpuMs);
    };
    const idleWake = async (timeline: string, catchUp: boolean) => {
      const w = await wake(timeline, { catchUp });
      if (!/wake end .*turns=0 .*posted=0/.test(w.stderr)) {
        throw new Error(`an idle wake was not idle:\n${w.stderr}`);
      }
      return w;
    };
    const replyWake = async (catchUp: boolean, rssToo: boolean) => {
      await ask(replyTimeline, ++asked);
      const w = await wake(replyTimeline, { rss: rssToo, catchUp });
      if (!/wake end .*turns=1 .*posted=1/.test(w.stderr) || w.model.length === 0) {
        throw new Error(`a reply wake did not reply once:\n${w.stderr}`);
      }
      return w;
    };
    return {
      /** One idle wake each way, one of the history timeline and one empty run; recorded unless `warmup`. */
      async idleOnce(warmup: boolean) {
        const { on, off: w } = await pair((catchUp) => idleWake(idleTimeline, catchUp));
        const h = await idleWake(historyTimeline, false);
        const e = await runDeno([...form.flags, empty], env);
        if (warmup) return;
        idleModelRequests += on.model.length + w.model.length + h.model.length;
        idle.push(w.ms);
        historyIdle.push(h.ms);
        baseline.push(e.ms);
        record(catchUpIdle, on, w);
      },
      /** A question and the wake that answers it, each way; recorded unless `warmup`. */
      async replyOnce(warmup: boolean) {
        const { on, off: w } = await pair((catchUp) => replyWake(catchUp, !catchUp));
        if (warmup) return;
        record(catchUpReply, on, w);
        wall.push(w.ms);
        modelMs.push(busyMs(w.model));
        platformMs.push(busyMs(w.platform));
        const harnessMs = w.ms - busyMs([...w.model, ...w.platform]);
        overhead.push(harnessMs);
        rss.push(w.rssMb);
        // The machine's speed of the moment, so runs on slower and faster stretches compare.
        overheadPerEmpty.push(harnessMs / (await runDeno([...form.flags, empty], env)).ms);
      },
      /** The untimed debug runs, then the medians. */
      async finish(): Promise<Measured> {
        const idleDebug = await wake(idleTimeline, { debug: true });
        await ask(replyTimeline, ++asked);
        const replyDebug = await wake(replyTimeline, { debug: true });
        return {
          emptyMs: median(baseline),
          idleMs: median(idle),
          ratio: median(idle) / median(baseline),
          historyMs: median(historyIdle),
          historyRatio: median(historyIdle) / median(baseline),
          idleModelRequests,
          idleLoadedSdk: form.loadedSdk(idleDebug.stderr),
          replyLoadedSdk: form.loadedSdk(replyDebug.stderr),
          wallMs: median(wall),
          modelMs: median(modelMs),
          platformMs: median(platformMs),
          overheadMs: median(overhead),
          overheadPerEmpty: median(overheadPerEmpty),
          rssMb: Math.max(...rss),
          catchUp: {
            idle: medians(catchUpIdle),
            reply: medians(catchUpReply),
          },
        };
      },
    };
  };

  // The forms take turns run by run, so a machine that speeds up or slows down during the
  // benchmark weighs on both alike.
  const runners = [];
  for (const [i, form] of forms.entries()) runners.push(await measure(form, `vega${i}`));
  for (let i = 0; i < warmups + runs; i++) {
    for (const runner of runners) await runner.idleOnce(i < warmups);
  }
  for (let i = 0; i < warmups + runs; i++) {
    for (const runner of runners) await runner.replyOnce(i < warmups);
  }
  const results: Record<string, Measured> = {};
  for (const [i, form] of forms.entries()) results[form.name] = await runners[i].finish();

  // -------------------------------------------------------------------------------------------
  // The targets are judged on the shipped form; the source form is reported beside it.
  const shipped = results.bundle;
  const checks = [
    ["idle wake / empty deno run", shipped.ratio <= TARGETS.idleRatio],
    [
      "idle wake loads no model SDK",
      shipped.idleModelRequests === 0 && !shipped.idleLoadedSdk,
    ],
    ["(the SDK signal is live: a reply wake loads it)", shipped.replyLoadedSdk],
    ["one-reply harness overhead", shipped.overheadMs <= TARGETS.overheadMs],
    ["one-reply peak RSS", shipped.rssMb <= TARGETS.rssMb],
    [
      "catch-up: idle wake CPU on ÷ off",
      shipped.catchUp.idle.cpuOn / shipped.catchUp.idle.cpuOff <= TARGETS.catchUpIdleCpu,
    ],
  ] as const;

  if (values.json) {
    console.log(JSON.stringify({ runs, warmups, targets: TARGETS, ...results, checks }));
  } else {
    const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
    const rssHow = TIME ? "/usr/bin/time %M" : "VmHWM";
    const row = (label: string, cell: (m: Measured) => string) =>
      console.log(`  ${label.padEnd(30)}${forms.map((f) => cell(results[f.name])).join("")}`);
    console.log(`deno ${Deno.version.deno}, ${runs} runs after ${warmups} warm-ups (medians)`);
    console.log(`  ${"".padEnd(30)}${forms.map((f) => f.name.padStart(10)).join("")}`);
    console.log("(a) idle wake (nothing new)");
    row("deno run empty.ts", (m) => ms(m.emptyMs));
    row("harness wake, idle", (m) => ms(m.idleMs));
    row("  ratio", (m) => `${m.ratio.toFixed(2)}×`.padStart(10));
    row(`idle, ${HISTORY.toLocaleString("en")} items answered`, (m) => ms(m.historyMs));
    row("  ratio", (m) => `${m.historyRatio.toFixed(2)}×`.padStart(10));
    row("model requests", (m) => String(m.idleModelRequests).padStart(10));
    row("model SDK code loaded", (m) => (m.idleLoadedSdk ? "yes" : "no").padStart(10));
    console.log("(b) one-reply wake, sandbox demo model (no delay)");
    row("wall time", (m) => ms(m.wallMs));
    row("model time (sandbox ms)", (m) => ms(m.modelMs));
    row("platform time (sandbox ms)", (m) => ms(m.platformMs));
    row("harness overhead", (m) => ms(m.overheadMs));
    row("  ÷ empty deno run (paired)", (m) => `${m.overheadPerEmpty.toFixed(2)}×`.padStart(10));
    row(`peak RSS (max, ${rssHow})`, (m) => `${m.rssMb.toFixed(1)} MB`.padStart(10));
    console.log("(c) catch-up before exit: on (default) vs HARNESS_CATCH_UP=off, same run");
    const ratio = (on: number, off: number) => `${(on / off).toFixed(2)}×`.padStart(10);
    for (const kind of ["idle", "reply"] as const) {
      const of = (m: Measured) => m.catchUp[kind];
      row(`${kind} wake wall, on`, (m) => ms(of(m).wallOn));
      row(`${kind} wake wall, off`, (m) => ms(of(m).wallOff));
      row("  on ÷ off", (m) => ratio(of(m).wallOn, of(m).wallOff));
      row(`${kind} wake CPU, on`, (m) => ms(of(m).cpuOn));
      row(`${kind} wake CPU, off`, (m) => ms(of(m).cpuOff));
      row("  on ÷ off", (m) => ratio(of(m).cpuOn, of(m).cpuOff));
    }
    console.log("");
    console.log("target (shipped form: bundle)                  result");
    const rows: Array<[string, string, boolean]> = [
      [`idle ratio ≤ ${TARGETS.idleRatio}×`, `${shipped.ratio.toFixed(2)}×`, checks[0][1]],
      ["idle wake: no model request, no SDK loaded", checks[1][1] ? "yes" : "NO", checks[1][1]],
      ["  (control: a reply wake loads the SDK)", checks[2][1] ? "yes" : "NO", checks[2][1]],
      [
        `overhead ≤ ${TARGETS.overheadMs} ms`,
        `${shipped.overheadMs.toFixed(1)} ms`,
        checks[3][1],
      ],
      [`peak RSS ≤ ${TARGETS.rssMb} MB`, `${shipped.rssMb.toFixed(1)} MB`, checks[4][1]],
      [
        `catch-up: idle CPU on ÷ off ≤ ${TARGETS.catchUpIdleCpu}×`,
        `${(shipped.catchUp.idle.cpuOn / shipped.catchUp.idle.cpuOff).toFixed(2)}×`,
        checks[5][1],
      ],
    ];
    for (const [name, result, ok] of rows) {
      console.log(`  ${name.padEnd(45)}${result.padStart(10)}  ${ok ? "pass" : "FAIL"}`);
    }
  }
  if (checks.some(([, ok]) => !ok)) Deno.exitCode = 1;
} finally {
  await sandbox.close();
  await Deno.remove(dir, { recursive: true });
}
