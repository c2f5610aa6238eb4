/**
 * The agent's own executables on the `PATH` of the programs it starts: its `shell` commands and
 * its stdio MCP servers (docs/tools.md#run-any-command-the-shell-tool, docs/mcp.md#the-agents-own-commands-on-path).
 * A router launches a wake by absolute path with an empty environment, so nothing puts the
 * agent's own command-line tools on the `PATH` its children inherit; without this an MCP server
 * installed next to the agent and named by bare command is not found. The directories are derived
 * at spawn time, never configured: the harness's own executable's, then each of
 * {@link AGENT_BIN_DIRS} under `$HOME` that exists. Only ever added, and only when absent, so the
 * box's own order is left alone.
 */
import { dirname, join } from "../base/paths.ts";

/** POSIX `os.defpath` without its leading empty (current-directory) entry. */
export const DEFAULT_PATH = "/bin:/usr/bin";

/**
 * The usual per-agent bin directories, relative to `$HOME`, in the order they go on `PATH`: the
 * XDG user bin (where `harness install --wake-bin` puts the wake wrapper, pip --user and pipx
 * put scripts), `~/bin`, Deno's `deno install -g` target, and the Python harness's virtualenv
 * (`~/venv/bin`, or `~/.venv/bin`), where a moved agent's MCP servers were installed.
 */
export const AGENT_BIN_DIRS: readonly string[] = [
  ".local/bin",
  "bin",
  ".deno/bin",
  "venv/bin",
  ".venv/bin",
];

/** Whether `dir` is an existing directory this process may see (an unreadable one is not). */
function isDirectory(dir: string): boolean {
  try {
    return Deno.statSync(dir).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The directory holding the running executable (the compiled harness binary, or `deno` when run
 * from source), or `undefined` when there is nothing honest to add: unknown, missing, or
 * containing `:` (which cannot be one `PATH` entry — it would silently split into two).
 */
export function harnessBinDir(): string | undefined {
  try {
    const dir = dirname(Deno.execPath());
    if (!dir || dir.includes(":")) return undefined;
    return isDirectory(dir) ? dir : undefined;
  } catch {
    return undefined; // no read permission: add nothing
  }
}

/** `HOME`, or `undefined` when it is unset or cannot be read. */
function homeDir(): string | undefined {
  try {
    return Deno.env.get("HOME") || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The directories a child of this agent should find first, in order: the harness's own
 * executable's, then each of {@link AGENT_BIN_DIRS} under `home` that exists. Each appears once;
 * none holds a `:`.
 */
export function agentBinDirs(home: string | undefined = homeDir()): string[] {
  const dirs: string[] = [];
  const own = harnessBinDir();
  if (own !== undefined) dirs.push(own);
  if (home !== undefined && home.startsWith("/")) {
    for (const rel of AGENT_BIN_DIRS) {
      const dir = join(home, rel);
      if (!dir.includes(":") && !dirs.includes(dir) && isDirectory(dir)) dirs.push(dir);
    }
  }
  return dirs;
}

/**
 * The `PATH` a child should get: `current` with each of `dirs` that is not already an exact entry
 * put in front, in `dirs`' order (an operator's deliberate order is left alone); `<dirs>:/bin:/usr/bin`
 * when `PATH` is unset; `current` unchanged when there is nothing to add.
 */
export function pathWithDirs(
  current: string | undefined,
  dirs: readonly string[],
): string | undefined {
  if (current === undefined) {
    return dirs.length ? [...new Set(dirs), DEFAULT_PATH].join(":") : undefined;
  }
  const present = new Set(current.split(":"));
  const added = [...new Set(dirs)].filter((dir) => !present.has(dir));
  if (!added.length) return current;
  return current ? `${added.join(":")}:${current}` : added.join(":");
}
