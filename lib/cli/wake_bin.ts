/**
 * `harness install --wake-bin PATH` (docs/operating.md#run-under-a-router): the wake command a
 * router's registry names as `wake_bin`, written inside the agent's home. The fleet router's
 * `wake-runner` resolves `wake_bin` (symlinks followed) and refuses anything outside
 * `/home/<os_user>/`, then execs exactly `<wake_bin> --timeline <uuid>`; a harness installed in
 * `/usr/local/bin` therefore needs a small executable in the home that runs it. This writes that
 * wrapper: a POSIX sh script that runs `<this harness> wake "$@"` under the Python console-script
 * name (`basecradle-harness-wake`), so the router's argv and environment reach the wake
 * unchanged. Writing it over the Python harness's own console script (its virtualenv's
 * `basecradle-harness-wake`, the path the registry already names) keeps the registry entry
 * working; the file it replaces is kept beside it as `<PATH>.prev`.
 */
import { errorMessage } from "../base/error_text.ts";
import { PACKAGE_ROOT, packageModuleUrl } from "../base/lazy_import.ts";
import { dirname, expandHome } from "../base/paths.ts";
import { fileURLToPath } from "node:url";
import { shellQuote } from "../pycompat/shlex.ts";
import { harnessInvocation, isCompiled } from "../sandbox/wake_process.ts";

/** The line that marks a file as a wrapper this command wrote (so it may be rewritten). */
export const WAKE_BIN_MARK =
  "# basecradle-harness wake wrapper, written by harness install --wake-bin";

/** The Python console-script name the wrapper runs the wake under. */
export const WAKE_SCRIPT_NAME = "basecradle-harness-wake";

/** A wrapper that could not be written; the message names the path and the fix. */
export class WakeBinError extends Error {
  override name = "WakeBinError";
}

/** What {@link installWakeBin} did. */
export interface WakeBinReport {
  /** The wrapper's path, as given (`~/` expanded). */
  readonly path: string;
  /** The path with every symlink resolved: what the router's wake-runner checks and runs. */
  readonly resolved: string;
  /** The command line the wrapper runs before `wake "$@"`, for the summary. */
  readonly harness: string;
  /** Where a file that was not a wrapper of ours was kept, or `null`. */
  readonly keptAs: string | null;
  /** WARNING sentences (the router would refuse the path). */
  readonly warnings: readonly string[];
}

/**
 * The argv that runs this very harness: `HARNESS_BIN` when given, else the compiled binary, else
 * the bundle's launcher beside its main.js, else (from source) `deno run -P=harness` on main.ts.
 */
export function harnessCommand(harnessBin: string | undefined): string[] {
  if (harnessBin?.trim()) return [harnessBin.trim()];
  const launcher = fileURLToPath(new URL("harness", PACKAGE_ROOT));
  const main = fileURLToPath(packageModuleUrl("main.ts"));
  if (!isCompiled() && main.endsWith(".js") && isFile(launcher)) return [launcher];
  // The compiled binary itself, or `deno run -P=harness` on main.ts: the one spawner's argv.
  const { program, args } = harnessInvocation([]);
  return [program, ...args];
}

/** The wrapper's text for `harness` (the argv {@link harnessCommand} gave). */
export function wakeBinText(harness: readonly string[]): string {
  return `#!/bin/sh
${WAKE_BIN_MARK}.
# The router's registry names this file as wake_bin: its wake-runner runs only a wake_bin inside
# the agent's home, and passes exactly --timeline <uuid>. HARNESS_BIN (e.g. in agent.env) overrides
# the harness it runs.
HARNESS_SCRIPT_NAME=${WAKE_SCRIPT_NAME}
export HARNESS_SCRIPT_NAME
if [ -n "\${HARNESS_BIN:-}" ]; then exec "$HARNESS_BIN" wake "$@"; fi
exec ${harness.map(shellQuote).join(" ")} wake "$@"
`;
}

/**
 * Why the fleet router's wake-runner would refuse `resolved` as the `wake_bin` of `user`, or
 * `undefined` when it would run it (its rule: the resolved path lies inside `/home/<user>/`).
 */
export function wakeRunnerRefusal(resolved: string, user: string | undefined): string | undefined {
  if (!user) {
    return `no OS user is named (USER/LOGNAME unset), so whether ${resolved} lies inside ` +
      "/home/<os_user>/, as the router's wake-runner requires, cannot be told";
  }
  if (resolved.startsWith(`/home/${user}/`)) return undefined;
  return `${resolved} is outside /home/${user}/, and the router's wake-runner runs only a ` +
    "wake_bin that resolves inside the agent's home; install it there as that user " +
    `(e.g. harness install --wake-bin ~/.local/bin/${WAKE_SCRIPT_NAME})`;
}

/** What {@link installWakeBin} needs. */
export interface WakeBinOptions {
  /** `--wake-bin`, as given. */
  readonly path: string;
  /** `HOME`, for `~/`. */
  readonly home: string | undefined;
  /** The OS user the router runs this agent as (`USER`, else `LOGNAME`). */
  readonly user: string | undefined;
  /** `HARNESS_BIN` at install time: the harness the wrapper runs (default: this one). */
  readonly harnessBin: string | undefined;
}

/**
 * Writes the wake wrapper at `options.path` (parents created, mode 0755, atomically). A file
 * there that is not a wrapper of ours is kept as `<path>.prev`.
 * @throws {WakeBinError} naming the path and the fix: a relative path, a directory in the way,
 * a `.prev` already taken, or a write that failed.
 */
export async function installWakeBin(options: WakeBinOptions): Promise<WakeBinReport> {
  const given = options.path.trim();
  const path = expandHome(given, options.home);
  if (path === undefined) {
    throw new WakeBinError(`--wake-bin ${given}: HOME is not set, so '~' cannot be expanded`);
  }
  if (!path.startsWith("/")) {
    throw new WakeBinError(
      `--wake-bin ${options.path} is not an absolute path; give the file the router's registry ` +
        `names, e.g. ~/.local/bin/${WAKE_SCRIPT_NAME}`,
    );
  }
  const harness = harnessCommand(options.harnessBin);
  let keptAs: string | null = null;
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    const existing = await Deno.lstat(path).catch((error) => {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    });
    if (existing?.isDirectory) {
      throw new WakeBinError(`--wake-bin ${path} is a directory; name the file to write`);
    }
    if (existing && !(await isOurWrapper(path))) {
      keptAs = `${path}.prev`;
      if (await Deno.lstat(keptAs).then(() => true, () => false)) {
        throw new WakeBinError(
          `${path} is not a wake wrapper of ours and ${keptAs} is taken, so it cannot be kept; ` +
            "move one of them away, then run harness install --wake-bin again",
        );
      }
      await Deno.rename(path, keptAs);
    }
    const temp = `${path}.tmp-${Deno.pid}`;
    await Deno.writeTextFile(temp, wakeBinText(harness), { mode: 0o755 });
    await Deno.chmod(temp, 0o755); // the umask may have narrowed the mode
    await Deno.rename(temp, path);
  } catch (error) {
    if (error instanceof WakeBinError) throw error;
    throw new WakeBinError(
      `could not write the wake wrapper ${path}: ${errorMessage(error)}; run harness install as ` +
        "the agent's user, with a --wake-bin in a directory it may write",
      { cause: error },
    );
  }
  const resolved = await Deno.realPath(path);
  const refusal = wakeRunnerRefusal(resolved, options.user);
  return {
    path,
    resolved,
    harness: harness.map(shellQuote).join(" "),
    keptAs,
    warnings: refusal ? [`The wake wrapper will not run under the router: ${refusal}.`] : [],
  };
}

/** Whether `path` is a wrapper this command wrote (its second line is the mark). */
async function isOurWrapper(path: string): Promise<boolean> {
  try {
    const text = await Deno.readTextFile(path);
    return text.split("\n", 3)[1]?.startsWith(WAKE_BIN_MARK) === true;
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
