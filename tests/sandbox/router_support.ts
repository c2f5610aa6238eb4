/**
 * Scaffolding for the router-twin tests: a tiny wake script that records every run (its
 * arguments, its environment, its exit) as a JSON line and exits 1 while a `fail` flag file
 * exists, and a standalone {@link WakeRouter} over a fixed directory with a clock the test moves.
 */
import { join } from "node:path";
import {
  type PlatformDelivery,
  type RouterRules,
  WakeRouter,
  type WakeViewer,
} from "../../lib/sandbox/mod.ts";

/** One run of the recording script. */
export interface Run {
  readonly args: string[];
  readonly home: string;
  readonly token: string;
  readonly base: string;
  /** `BASECRADLE_DELIVERY_ID`, or `null` when it was not set. */
  readonly delivery: string | null;
  /** True when another run of the same agent was in progress (a busy file existed). */
  readonly overlap: boolean;
  readonly code: number;
  /** `AI_MODEL` as the run saw it (empty when unset). */
  readonly model: string;
}

/** A scratch directory with the recording script in it. */
export interface Recorder extends AsyncDisposable {
  readonly dir: string;
  /** Runs `sh <script>` — the twin appends `--timeline <uuid>`. */
  readonly command: string;
  /** Every run so far, in the order they ended. */
  runs(): Promise<Run[]>;
  /** While failing, every run exits 1. */
  failing(on: boolean): Promise<void>;
  /** The next run exits 1, the ones after it 0. */
  failingOnce(): Promise<void>;
}

/** Writes the script into a fresh temp dir. `sleep` is how long each run takes, in seconds. */
export async function recorder(sleep = 0.05): Promise<Recorder> {
  const dir = await Deno.makeTempDir({ prefix: "router-twin-" });
  const log = join(dir, "runs.jsonl");
  const flag = join(dir, "fail");
  const script = join(dir, "wake.sh");
  await Deno.writeTextFile(
    script,
    `#!/bin/sh
busy="$HARNESS_HOME/busy"
overlap=false
[ -e "$busy" ] && overlap=true
touch "$busy"
sleep ${sleep}
code=0
[ -e "${flag}" ] && code=1
if [ -e "${flag}-once" ]; then code=1; rm -f "${flag}-once"; fi
args=""
for a in "$@"; do args="$args\\"$a\\","; done
if [ -n "\${BASECRADLE_DELIVERY_ID+set}" ]; then d="\\"$BASECRADLE_DELIVERY_ID\\""; else d=null; fi
printf '{"args":[%s],"home":"%s","token":"%s","base":"%s","delivery":%s,"overlap":%s,"code":%s,"model":"%s"}\\n' \\
  "\${args%,}" "$HARNESS_HOME" "$BASECRADLE_TOKEN" "$BASECRADLE_BASE_URL" "$d" "$overlap" "$code" "$AI_MODEL" >> "${log}"
rm -f "$busy"
echo "woken $*"
exit $code
`,
  );
  return {
    dir,
    command: `sh ${script}`,
    async runs() {
      try {
        const text = await Deno.readTextFile(log);
        return text.trim().split("\n").filter(Boolean).map((line) => JSON.parse(line) as Run);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return [];
        throw error;
      }
    },
    async failing(on) {
      if (on) await Deno.writeTextFile(flag, "");
      else await Deno.remove(flag).catch(() => {});
    },
    async failingOnce() {
      await Deno.writeTextFile(`${flag}-once`, "");
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A clock a test sets by hand (ms since the epoch). */
export class ManualClock {
  now: number;
  constructor(iso: string) {
    this.now = Date.parse(iso);
  }
  /** Moves to `iso`. */
  set(iso: string): void {
    this.now = Date.parse(iso);
  }
  /** Moves forward by `ms`. */
  advance(ms: number): void {
    this.now += ms;
  }
  readonly read = (): number => this.now;
}

/** The standalone twin under test, with everything it logged. */
export interface Twin {
  readonly router: WakeRouter;
  readonly lines: string[];
  /** Delivers `event` on `timeline` to `agent`, stamped `occurredAt`; returns the delivery id. */
  deliver(agent: WakeViewer, options?: Partial<DeliveryShape>): string;
}

interface DeliveryShape {
  event: string;
  timeline: string;
  occurredAt: string;
  id: string;
  actor: string | null;
}

let sequence = 0;

/** Two AI agents and a human, as a fixed directory. */
export const AGENTS = {
  a: { uuid: "0190a000-0000-7000-8000-00000000000a", handle: "a", kind: "ai" },
  b: { uuid: "0190a000-0000-7000-8000-00000000000b", handle: "b", kind: "ai" },
  h: { uuid: "0190a000-0000-7000-8000-0000000000f1", handle: "h", kind: "human" },
} as const satisfies Record<string, WakeViewer>;

/**
 * A standalone router running `rec`'s script, by the fleet's rules with `rules` applied, on
 * `clock` (real time if absent). Coalescing is off unless `rules` turns it on, so a test of
 * another rule sees every delivery run.
 */
export function twin(
  rec: Recorder,
  rules: Partial<RouterRules> = {},
  clock?: ManualClock,
): Twin {
  const lines: string[] = [];
  const router = new WakeRouter({
    command: rec.command,
    baseUrl: "http://127.0.0.1:9",
    homeRoot: rec.dir,
    directory: {
      viewers: () => Object.values(AGENTS),
      tokenFor: (user) => `tok-${user.slice(-1)}`,
    },
    log: (line) => lines.push(line),
    output: () => {},
    rules: { coalesce: false, ...rules },
    clock: clock?.read,
  });
  return {
    router,
    lines,
    deliver(agent, options = {}) {
      const id = options.id ?? `0190a000-0000-7000-9000-${String(++sequence).padStart(12, "0")}`;
      const timeline = options.timeline ?? "0190b000-0000-7000-8000-000000000001";
      const delivery: PlatformDelivery = {
        event: options.event ?? "message.created",
        event_id: id,
        occurred_at: options.occurredAt ?? new Date(clock?.now ?? Date.now()).toISOString(),
        actor_uuid: options.actor === undefined ? AGENTS.h.uuid : options.actor,
        recipient_uuid: agent.uuid,
        timeline_uuid: timeline,
        resource: { type: "message", uuid: id, url: `http://127.0.0.1:9/messages/${id}` },
      };
      router.deliver(delivery, agent);
      return id;
    },
  };
}

/** The log lines of one kind (`start`, `exit`, `retry`, `coalesced`, …). */
export function linesOf(lines: readonly string[], kind: string): string[] {
  return lines.filter((line) => line.startsWith(`sandbox wake ${kind} `));
}
