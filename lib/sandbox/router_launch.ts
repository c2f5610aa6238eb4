/**
 * How the router twin starts one wake attempt: the {@link WakeLaunch} it hands a launcher, and the
 * default launcher, which runs an operator's command string with exactly `--timeline <uuid>`
 * appended (through `/bin/sh -c`, so the string may carry its own leading words) in the
 * agent's environment, spawned by lib/sandbox/wake_process.ts.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { registerSecret } from "../journal/scrub.ts";
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
  /** Extra environment for every wake (the process environment is inherited too). */
  readonly env?: Readonly<Record<string, string>>;
  /** The working directory of every wake; this process's when absent. */
  readonly cwd?: string;
  /** The woken processes' stdout and stderr; default: this process's stderr, line by line. */
  readonly output?: (chunk: Uint8Array) => void;
  /** Keep each attempt's output in its {@link LaunchResult} (tests read it). */
  readonly keepOutput?: boolean;
}

/** The launcher that runs an operator's command. */
export function commandLauncher(options: CommandLauncherOptions): WakeLauncher {
  return async (launch) => {
    const home = join(options.homeRoot, "agents", launch.agent.handle);
    const env: Record<string, string> = {
      ...options.env,
      BASECRADLE_TOKEN: launch.token,
      BASECRADLE_BASE_URL: options.baseUrl,
      HARNESS_HOME: home,
    };
    if (launch.deliveryId !== null) env.BASECRADLE_DELIVERY_ID = launch.deliveryId;
    registerSecret(launch.token); // the parent relays the child's output: it scrubs its token too
    try {
      mkdirSync(home, { recursive: true });
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
