/**
 * How the router twin starts one wake attempt: the {@link WakeLaunch} it hands a launcher, and the
 * default launcher, which runs an operator's command string with exactly `--timeline <uuid>`
 * appended (through `/bin/sh -c`, so the string may carry its own leading words) in the
 * agent's environment, spawned by lib/sandbox/wake_process.ts. An agent's own `agent.env` in its
 * home, when there is one, is read as the fleet's wake runner reads each agent's file, so agents
 * on one sandbox can run different models, keys or settings.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseEnvFile } from "../base/env_file.ts";
import { registerSecret } from "../journal/scrub.ts";
import { registerSecretsFrom } from "../journal/output.ts";
import type { PlatformDelivery } from "./shared/deliveries.ts";
import { spawnWake } from "./wake_process.ts";

/** A viewer as the router needs it. */
export interface WakeViewer {
  /** The user's uuid. */
  readonly uuid: string;
  /** The user's handle. */
  readonly handle: string;
  /** Only `ai` users are woken. */
  readonly kind: "human" | "ai";
  /**
   * True when the user's integration is on: the platform delivers to its integration URL, so
   * whatever listens there wakes it and the twin leaves it alone.
   */
  readonly integrated?: boolean;
}

/** One attempt to wake one agent for one delivery. */
export interface WakeLaunch {
  /** The platform delivery that caused the attempt. */
  readonly delivery: PlatformDelivery;
  /** The agent to wake. */
  readonly agent: WakeViewer;
  /** A live API token for the agent. */
  readonly token: string;
  /** `BASECRADLE_DELIVERY_ID` for the wake, or null when the id is not safe to pass on. */
  readonly deliveryId: string | null;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** Registers the started process so closing the router can stop it. */
  track(child: Deno.ChildProcess): void;
  /** Forgets the process once it has exited. */
  untrack(child: Deno.ChildProcess): void;
}

/** How an attempt ended: the exit code (null when it could not start) and, if kept, its output. */
export interface LaunchResult {
  /** The exit code; null when the process could not be started. */
  readonly code: number | null;
  /** Why it could not start. */
  readonly error?: string;
  /** The process's stdout and stderr, when the launcher keeps them. */
  readonly output?: string;
}

/** Starts one attempt and resolves when it has ended; it must not throw. */
export type WakeLauncher = (launch: WakeLaunch) => Promise<LaunchResult>;

/** Options for {@link commandLauncher}. */
export interface CommandLauncherOptions {
  /** The wake command; the twin appends exactly `--timeline <uuid>`. */
  readonly command: string;
  /** `BASECRADLE_BASE_URL` for the woken process. */
  readonly baseUrl: string;
  /** Each agent's `HARNESS_HOME` is `<homeRoot>/agents/<handle>`. */
  readonly homeRoot: string;
  /**
   * Extra environment for every wake (the process environment is inherited too). An agent's own
   * `<home>/agent.env` goes over it (see {@link AGENT_ENV_FILE}).
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Where a skipped line of an agent's `agent.env` is reported; default: nowhere. */
  readonly log?: (line: string) => void;
  /** The first word of those lines (default `sandbox`). */
  readonly logPrefix?: string;
  /** The working directory of every wake; this process's when absent. */
  readonly cwd?: string;
  /** The woken processes' stdout and stderr; default: this process's stderr, line by line. */
  readonly output?: (chunk: Uint8Array) => void;
  /** Keep each attempt's output in its {@link LaunchResult} (tests read it). */
  readonly keepOutput?: boolean;
}

/**
 * The agent's own settings file in its home (docs/sandbox.md#the-router-twin), in the agent.env
 * format (docs/operating.md#the-agentenv-file). Its variables go over the twin's shared
 * environment; the token, base URL, home and delivery id the twin sets for the wake go over it.
 */
const AGENT_ENV_FILE = "agent.env";

/** The launcher that runs an operator's command. */
export function commandLauncher(options: CommandLauncherOptions): WakeLauncher {
  return async (launch) => {
    const home = join(options.homeRoot, "agents", launch.agent.handle);
    registerSecret(launch.token); // the parent relays the child's output: it scrubs its token too
    try {
      mkdirSync(home, { recursive: true });
      const env: Record<string, string> = {
        ...options.env,
        ...await agentEnv(home, options),
        BASECRADLE_TOKEN: launch.token,
        BASECRADLE_BASE_URL: options.baseUrl,
        HARNESS_HOME: home,
      };
      if (launch.deliveryId !== null) env.BASECRADLE_DELIVERY_ID = launch.deliveryId;
      const exit = await spawnWake({
        // "$@" carries the two appended words, so the command string may hold its own.
        invocation: {
          program: "/bin/sh",
          args: [
            "-c",
            `${options.command} "$@"`,
            "sh",
            "--timeline",
            launch.delivery.timeline_uuid,
          ],
        },
        env,
        cwd: options.cwd,
        onChunk: options.output,
        relayLines: !options.output,
        keep: options.keepOutput ? "output" : undefined,
        track: (child) => launch.track(child),
        untrack: (child) => launch.untrack(child),
      });
      return exit.kept === undefined ? { code: exit.code } : { code: exit.code, output: exit.kept };
    } catch (error) {
      return { code: null, error: String(error) };
    }
  };
}

/**
 * The variables of `<home>/agent.env`, none when the file is absent. A line the format skips is
 * reported by its number and why, never its text (it may hold a secret); a file that exists but
 * cannot be read fails the attempt, as the fleet's runner refuses to start without it.
 */
async function agentEnv(
  home: string,
  options: Pick<CommandLauncherOptions, "log" | "logPrefix">,
): Promise<Record<string, string>> {
  const path = join(home, AGENT_ENV_FILE);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new Error(`cannot read ${path}: ${error instanceof Error ? error.message : error}`);
  }
  const { values, ignored } = parseEnvFile(text);
  // The parent relays the wake's output: the agent's own keys are scrubbed there too.
  registerSecretsFrom((name) => values.get(name));
  for (const { line, reason } of ignored) {
    options.log?.(`${options.logPrefix ?? "sandbox"} agent.env ${path}:${line} skipped: ${reason}`);
  }
  return Object.fromEntries(values);
}
