/**
 * What one `harness wake` costs, as a whole process against the sandbox platform — the way a
 * router runs it (`deno run -P=harness main.ts wake --timeline <uuid>`, production permissions).
 *
 *   deno run -A bench/wake_bench.ts [--runs 10] [--warmups 2] [--json]
 *
 * (a) Idle wake: a timeline where the agent has already answered everything. The median wall
 *     time of N wake processes against the median of N `deno run` of an empty script with the
 *     same flags, config and cache, interleaved in the same run. Target: ≤ 5×. Also checked:
 *     the idle wakes made no model request (the sandbox's model endpoint saw none), and — in an
 *     extra, untimed run under `--log-level=debug` — Deno resolved no file of a model SDK package
 *     (`openai`, `@openrouter/sdk`); the same debug run of a one-reply wake must show `openai`,
 *     so the signal is not vacuous.
 * (b) One-reply wake: a new question per run, answered through the sandbox's deterministic demo
 *     model (instant: no delay). Harness overhead = the process's wall time minus the model time
 *     and the platform time, both the sandbox's own per-request handler ms for the requests made
 *     during that wake. Targets: median overhead ≤ 150 ms; peak RSS (max over runs, from
 *     `/usr/bin/time -f %M`, else VmHWM polled from /proc/<pid>/status) ≤ 120 MB.
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

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TARGETS = { idleRatio: 5, overheadMs: 150, rssMb: 120 };
const MODEL_SDKS = ["openai", "@openrouter/sdk"];

const { values } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "10" },
    warmups: { type: "string", default: "2" },
    json: { type: "boolean", default: false },
  },
});
const runs = Number(values.runs);
const warmups = Number(values.warmups);
const TIME = await Deno.stat("/usr/bin/time").then((s) => s.isFile, () => false);

/** The Deno flags every process here runs with: the production permission set and config. */
const DENO_FLAGS = ["run", "-P=harness", "--quiet", "--config", join(ROOT, "deno.json")];
/** The Deno cache this process uses, so a child with another HOME does not refetch. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache`}/deno`;

/** One finished process, timed from spawn to exit. */
interface Run {
  readonly ms: number;
  /** Peak resident set, in MB (NaN when unmeasured). */
  readonly rssMb: number;
  readonly stderr: string;
}

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
  return { ms, rssMb, stderr };
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

const isModel = (r: RequestRecord) => r.path.startsWith("/_sandbox/model/");
const sumMs = (rs: readonly RequestRecord[]) => rs.reduce((total, r) => total + r.ms, 0);

// ---------------------------------------------------------------------------------------------
// The world: a sandbox, a human asking, an AI agent with its own HARNESS_HOME, two timelines.

const dir = await Deno.makeTempDir({ prefix: "harness-wake-bench-" });
const sandbox = await Sandbox.start({ port: 0, dataDir: dir });
try {
  const human = sandbox.createUser({ handle: "ada", name: "Ada", kind: "human" });
  const agent = sandbox.createUser({ handle: "vega", name: "Vega", kind: "ai" });
  const ada = new PlatformClient({ baseUrl: sandbox.baseUrl, token: human.token });
  const vega = new PlatformClient({ baseUrl: sandbox.baseUrl, token: agent.token });
  await ada.users.grantTrust(agent.user.uuid);
  await vega.users.grantTrust(human.user.uuid);
  const gate = new Gate({ client: ada });
  const open = async (name: string) => {
    const { timeline } = await ada.timelines.create({ name });
    await ada.timelines.addParticipant(timeline.uuid, agent.user.uuid);
    return timeline.uuid;
  };
  const ask = (timeline: string, n: number) =>
    gate.post({ timeline, body: `@vega question ${n}: what is new?`, kind: "tool" });
  const idleTimeline = await open("idle");
  const replyTimeline = await open("reply");
  const home = join(dir, "vega");
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
    ...(debug ? [...DENO_FLAGS.filter((f) => f !== "--quiet"), "--log-level=debug"] : DENO_FLAGS),
    join(ROOT, "main.ts"),
    "wake",
    "--timeline",
    timeline,
  ];
  const empty = join(dir, "empty.ts");
  await Deno.writeTextFile(empty, "");

  /** One wake; the sandbox requests it made, split into model and platform. */
  const wake = async (timeline: string, options: { rss?: boolean; debug?: boolean } = {}) => {
    const before = sandbox.requests.length;
    const run = await runDeno(
      wakeArgs(timeline, options.debug),
      env,
      options.rss,
    );
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
  const idle: number[] = [];
  const baseline: number[] = [];
  let idleModelRequests = 0;
  for (let i = 0; i < warmups + runs; i++) {
    const w = await wake(idleTimeline);
    if (!/wake end .*turns=0 .*posted=0/.test(w.stderr)) {
      throw new Error(`an idle wake was not idle:\n${w.stderr}`);
    }
    const e = await runDeno([...DENO_FLAGS, empty], env);
    if (i < warmups) continue;
    idleModelRequests += w.model.length;
    idle.push(w.ms);
    baseline.push(e.ms);
  }
  const idleDebug = await wake(idleTimeline, { debug: true });
  const idleSdks = [...loadedPackages(idleDebug.stderr)].filter((p) => MODEL_SDKS.includes(p));

  // (b) A fresh question per run on the reply timeline, one reply each.
  const overhead: number[] = [];
  const wall: number[] = [];
  const modelMs: number[] = [];
  const platformMs: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < warmups + runs; i++) {
    await ask(replyTimeline, i + 1);
    const w = await wake(replyTimeline, { rss: true });
    if (!/wake end .*turns=1 .*posted=1/.test(w.stderr) || w.model.length === 0) {
      throw new Error(`a reply wake did not reply once:\n${w.stderr}`);
    }
    if (i < warmups) continue;
    const m = sumMs(w.model);
    const p = sumMs(w.platform);
    wall.push(w.ms);
    modelMs.push(m);
    platformMs.push(p);
    overhead.push(w.ms - m - p);
    rss.push(w.rssMb);
  }
  await ask(replyTimeline, 0);
  const replyDebug = await wake(replyTimeline, { debug: true });
  const replySdks = [...loadedPackages(replyDebug.stderr)].filter((p) => MODEL_SDKS.includes(p));

  // -------------------------------------------------------------------------------------------
  const m = {
    emptyMs: median(baseline),
    idleMs: median(idle),
    ratio: median(idle) / median(baseline),
    idleModelRequests,
    idleSdks,
    replySdks,
    wallMs: median(wall),
    modelMs: median(modelMs),
    platformMs: median(platformMs),
    overheadMs: median(overhead),
    rssMb: Math.max(...rss),
  };
  const signalValid = replySdks.includes("openai");
  const checks = [
    ["idle wake / empty deno run", m.ratio <= TARGETS.idleRatio],
    ["idle wake loads no model SDK", idleModelRequests === 0 && idleSdks.length === 0],
    ["(the SDK signal is live: a reply wake loads openai)", signalValid],
    ["one-reply harness overhead", m.overheadMs <= TARGETS.overheadMs],
    ["one-reply peak RSS", m.rssMb <= TARGETS.rssMb],
  ] as const;

  if (values.json) {
    console.log(JSON.stringify({ runs, warmups, targets: TARGETS, ...m, checks }));
  } else {
    const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
    const rssHow = TIME ? "/usr/bin/time %M" : "VmHWM";
    console.log(`deno ${Deno.version.deno}, ${runs} runs after ${warmups} warm-ups (medians)`);
    console.log("(a) idle wake (nothing new)");
    console.log(`  deno run empty.ts            ${ms(m.emptyMs)}`);
    console.log(`  harness wake, idle           ${ms(m.idleMs)}   ${m.ratio.toFixed(2)}×`);
    console.log(`  model requests               ${String(m.idleModelRequests).padStart(10)}`);
    console.log(`  SDK packages resolved        ${(idleSdks.join(",") || "none").padStart(10)}`);
    console.log("(b) one-reply wake, sandbox demo model (no delay)");
    console.log(`  wall time                    ${ms(m.wallMs)}`);
    console.log(`  model time (sandbox ms)      ${ms(m.modelMs)}`);
    console.log(`  platform time (sandbox ms)   ${ms(m.platformMs)}`);
    console.log(`  harness overhead             ${ms(m.overheadMs)}`);
    console.log(`  peak RSS (max, ${rssHow}) ${`${m.rssMb.toFixed(1)} MB`.padStart(10)}`);
    console.log("");
    console.log("target                                         result");
    const rows: Array<[string, string, boolean]> = [
      [`idle ratio ≤ ${TARGETS.idleRatio}×`, `${m.ratio.toFixed(2)}×`, checks[0][1]],
      ["idle wake: no model request, no SDK loaded", checks[1][1] ? "yes" : "NO", checks[1][1]],
      ["  (control: reply wake loads openai)", signalValid ? "yes" : "NO", signalValid],
      [`overhead ≤ ${TARGETS.overheadMs} ms`, `${m.overheadMs.toFixed(1)} ms`, checks[3][1]],
      [`peak RSS ≤ ${TARGETS.rssMb} MB`, `${m.rssMb.toFixed(1)} MB`, checks[4][1]],
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
