/**
 * `shell`: full command-line access as the agent's OS user
 * (docs/tools.md#run-any-command-the-shell-tool) — the most dangerous tool in the kit. There is no
 * allow-list and no per-command confirmation: the OS user's Unix permissions are the whole
 * boundary, exactly what a human with a terminal on that account has.
 *
 * Two gates, both required: the plugin is opt-in (stem `shell`), and it `requires` SHELL, which
 * the locked policy refuses — so only an opted-in agent on the unlocked profile ever gets it.
 * Under the locked profile Deno's run permission is revoked as well, and a call that slips
 * through anyway returns an error text instead of spawning
 * (docs/invariants.md#7-safe-by-default-enforced-twice).
 *
 * The tool's safety rests on that OS user being unprivileged, which the NOC verifies; as an
 * in-process backstop for the catastrophic case it refuses to load, and to run, as root.
 *
 * Each call is a fresh login shell (`/bin/bash -lc`), in its own process group, with no TTY,
 * stderr merged into stdout, a timeout and a 30 000-character output cap.
 *
 * @module
 */
import { errorMessage } from "../../base/error_text.ts";
import { expandHome } from "../../base/paths.ts";
import {
  type Capability,
  type JsonSchema,
  SHELL,
  Tool,
  type ToolContext,
} from "../../core/types/tool.ts";
import type { LoadRefusing } from "../../core/policy.ts";
import { headCodePoints } from "../../base/code_points.ts";
import { pathPrelude, pathWithDirs } from "./path.ts";
import { agentBinDirs } from "../../box/child_path.ts";
import { type GroupedResult, runGrouped } from "./run.ts";
import { pyRepr } from "../../pycompat/repr.ts";

/** Seconds a call may run when it names no timeout. */
export const DEFAULT_SHELL_TIMEOUT = 120;
/** The ceiling a requested timeout is clamped to, so the model cannot disable the guard. */
export const MAX_SHELL_TIMEOUT = 600;
/** Characters of output returned (and read into memory) before truncation. */
export const MAX_SHELL_OUTPUT = 30_000;
/** Seconds to wait while draining or reaping a killed command. */
export const SHELL_DRAIN_TIMEOUT = 10;

/** The shell the command runs under; a login shell, so the terminal matches a human's. */
const BASH = "/bin/bash";

/** Why the tool will not load or run as root (also the registry's refusal text). */
export const ROOT_REFUSAL: string =
  "the shell tool refuses to run as root — it is designed for an unprivileged OS user, and " +
  "a root shell would expose the whole machine rather than one account. Run the agent as a " +
  "non-root user (see the constitution's Operational Baselines).";

/** The text a call returns when Deno's run permission is not granted to this process. */
export const RUN_NOT_PERMITTED: string =
  "Couldn't start a shell: this harness process is not permitted to run subprocesses — " +
  "Deno's run permission is not granted (the locked profile revokes it at start-up; only the " +
  "unlocked profile keeps it).";

/** Options for {@link ShellTool}; every field has a production default. */
export interface ShellToolOptions {
  /** The directory a call runs in when it names none (default: `$HOME` at call time). */
  readonly workdir?: string;
  /** Seconds when a call names no timeout (default 120, clamped into [1, maxTimeout]). */
  readonly defaultTimeout?: number;
  /** The timeout ceiling in seconds (default 600). */
  readonly maxTimeout?: number;
  /** The output cap in characters (default 30 000). */
  readonly maxOutput?: number;
  /** Seconds to wait while draining or reaping a killed command (default 10). */
  readonly drainTimeout?: number;
  /**
   * Reads the effective uid (default: `process.geteuid()`; `null` on a host without one).
   * A test seam: the CI machine runs as root, where the real check refuses every call, so the
   * run-path tests inject a non-zero uid to exercise spawning. Never set this in production.
   */
  readonly euid?: () => number | null;
  /**
   * The directories put on `PATH`, first first (default: the agent's own, `agentBinDirs()` of
   * lib/box/child_path.ts, read at each call; `[]` adds none).
   */
  readonly binDirs?: readonly string[];
}

/** The arguments as the model may send them. */
export interface ShellArgs {
  /** The command line; required, a non-blank string. */
  readonly command?: unknown;
  /** Seconds (an integer, or a numeric string); clamped into [1, max]. */
  readonly timeout?: unknown;
  /** The directory to run in; a leading `~` is the home directory. */
  readonly workdir?: unknown;
}

/**
 * The effective uid through Deno's `process` global, which loads the Node layer only when first
 * touched — here, only once the shell tool is asked for. Should the global be missing, the real
 * uid stands in (`Deno.uid()`), so the root check never passes for want of an answer.
 */
function realEuid(): number | null {
  const { process } = globalThis as { process?: { geteuid?: () => number } };
  return typeof process?.geteuid === "function" ? process.geteuid() : Deno.uid();
}

/** Run a shell command as the agent's OS user; returns its merged output and exit code. */
export class ShellTool extends Tool implements LoadRefusing {
  /** The name the model calls it by. */
  readonly name: string = "shell";
  /** What it does, for the model. */
  readonly description: string =
    "Run a shell command as your OS user and get back its combined stdout+stderr and exit " +
    "code. This is a real, unrestricted shell — the same access a human with a terminal on " +
    "this account has. Two first-class uses: (1) execute code locally — 'python3 -c \"…\"', " +
    "run a .py or other script, 'pip install', any interpreter on the box; (2) make arbitrary " +
    "outbound network calls — 'curl'/'wget' to any URL, method, and headers, with any " +
    "credential you can read from your environment. Full shell syntax works (pipes, " +
    "redirects, '&&', globs). There is no TTY, so interactive programs (vim, top, an ssh " +
    "password prompt) will not work — pass everything on the command line. Each call is a " +
    "fresh shell: the working directory and environment do NOT carry over between calls. " +
    "Output is captured and very long output is truncated.";
  /** `command` (required), `timeout`, `workdir`. */
  override readonly parameters: JsonSchema = {
    type: "object",
    properties: {
      command: {
        type: "string",
        description: "The command line to run, e.g. 'ls -la' or 'python3 script.py'.",
      },
      timeout: {
        type: "integer",
        description: `Seconds to allow before the command is killed (default ` +
          `${DEFAULT_SHELL_TIMEOUT}, max ${MAX_SHELL_TIMEOUT}).`,
      },
      workdir: {
        type: "string",
        description: "Directory to run the command in (default: your home directory).",
      },
    },
    required: ["command"],
  };
  /** The shell capability: the locked policy refuses this tool at registration. */
  override readonly requires: ReadonlySet<Capability> = new Set([SHELL]);

  readonly #workdir?: string;
  readonly #defaultTimeout: number;
  readonly #maxTimeout: number;
  readonly #maxOutput: number;
  readonly #drainTimeout: number;
  readonly #euid: () => number | null;
  readonly #binDirs?: readonly string[];

  /** A shell tool; `options` tune limits, and two test seams (see {@link ShellToolOptions}). */
  constructor(options: ShellToolOptions = {}) {
    super();
    this.#workdir = options.workdir;
    // Clamped so a misconfiguration can never weaken the guard.
    this.#maxTimeout = Math.max(1, Math.trunc(options.maxTimeout ?? MAX_SHELL_TIMEOUT));
    this.#defaultTimeout = Math.max(
      1,
      Math.min(Math.trunc(options.defaultTimeout ?? DEFAULT_SHELL_TIMEOUT), this.#maxTimeout),
    );
    this.#maxOutput = Math.max(1, Math.trunc(options.maxOutput ?? MAX_SHELL_OUTPUT));
    this.#drainTimeout = Math.max(1, options.drainTimeout ?? SHELL_DRAIN_TIMEOUT);
    this.#euid = options.euid ?? realEuid;
    this.#binDirs = options.binDirs;
  }

  /**
   * Non-empty when this runtime must not load the tool: running as root (euid 0), or unable to
   * tell — without sys permission the uid cannot be read, and the backstop fails closed.
   */
  loadRefusal(): string | undefined {
    return this.#rootProblem();
  }

  /** Runs `command` in a fresh login shell; a non-zero exit is reported, never thrown. */
  async run(args: ShellArgs = {}, context?: ToolContext): Promise<string> {
    // Checked again per call: a tool constructed and called directly bypasses the registry.
    const root = this.#rootProblem();
    if (root) return `Error: ${root}`;
    const command = args?.command;
    if (typeof command !== "string" || !command.trim()) {
      return "Error: 'shell' needs a 'command' to run.";
    }
    const cwd = this.#cwd(args.workdir);
    try {
      if (!(await Deno.stat(cwd)).isDirectory) throw new Error("not a directory");
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) return `Error: ${error.message}`;
      return `Error: workdir ${pyRepr(cwd)} is not a directory.`;
    }
    const seconds = this.#timeout(args.timeout);
    const binDirs = this.#binDirs ?? agentBinDirs();
    const prelude = pathPrelude(binDirs);
    const inherited = readEnv("PATH");
    // An unreadable PATH (no env permission) is left alone: replacing it would drop the box's
    // own entries; the prelude still adds the directory inside the shell.
    const path = inherited === UNREADABLE ? undefined : pathWithDirs(inherited, binDirs);
    let result: GroupedResult;
    try {
      result = await runGrouped({
        // The outer bash only merges stderr into stdout (at the descriptor, so interleaving is
        // exact, and the login profile's own errors are caught too) and then becomes the login
        // shell by exec, keeping the pid — and so the process group — the same.
        argv: [
          BASH,
          "-c",
          `exec 2>&1; exec ${BASH} -lc "$1"`,
          "bash",
          prelude ? `${prelude}\n${command}` : command,
        ],
        cwd,
        env: path === undefined ? undefined : { PATH: path },
        timeoutMs: seconds * 1000,
        maxChars: this.#maxOutput,
        drainMs: this.#drainTimeout * 1000,
        signal: context?.signal,
      });
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) return `${RUN_NOT_PERMITTED} ${error.message}`;
      return `Couldn't start a shell: ${errorMessage(error)}`;
    }
    return this.#format(result, seconds);
  }

  #rootProblem(): string | undefined {
    let euid: number | null;
    try {
      euid = this.#euid();
    } catch (error) {
      const why = errorMessage(error);
      return `the shell tool cannot confirm it is not running as root (${why}), so it refuses ` +
        "to load — grant the harness sys access to read its uid.";
    }
    return euid === 0 ? ROOT_REFUSAL : undefined;
  }

  /** The call's directory: its own, else the configured one, else home (a leading `~` expands). */
  #cwd(requested: unknown): string {
    const home = readEnv("HOME");
    const homeDir = typeof home === "string" && home ? home : "/";
    const dir = typeof requested === "string" && requested ? requested : this.#workdir ?? "~";
    return expandHome(dir, homeDir) ?? dir;
  }

  /** Python's `int()` leniency: a numeric string or float is accepted; anything else defaults. */
  #timeout(requested: unknown): number {
    const value = typeof requested === "number"
      ? requested
      : typeof requested === "string" && /^\s*[+-]?\d+\s*$/.test(requested)
      ? Number(requested)
      : NaN;
    if (!Number.isFinite(value)) return this.#defaultTimeout;
    return Math.max(1, Math.min(Math.trunc(value), this.#maxTimeout));
  }

  /** Capped output, then one status footer line (docs/tools.md#run-any-command-the-shell-tool). */
  #format(result: GroupedResult, seconds: number): string {
    const cap = this.#maxOutput;
    const head = headCodePoints(result.output, cap);
    const truncated = head.length < result.output.length;
    const body = head.trimEnd();
    const lines = [body || "(no output)"];
    if (result.overCap) {
      lines.push(`[killed: output exceeded the ${cap}-character limit]`);
    } else {
      if (truncated) lines.push(`[output truncated at ${cap} characters]`);
      if (result.timedOut) lines.push(`[timed out after ${seconds}s and was killed]`);
      else lines.push(`[exit code: ${result.code ?? "unknown"}]`);
    }
    return lines.join("\n");
  }
}

/** What {@link readEnv} returns when the process may not read its environment. */
const UNREADABLE: unique symbol = Symbol("unreadable");

/** An environment variable; `undefined` when unset, {@link UNREADABLE} without env permission. */
function readEnv(name: string): string | undefined | typeof UNREADABLE {
  try {
    return Deno.env.get(name);
  } catch {
    return UNREADABLE;
  }
}
