/**
 * `lib/tools/shell/`: the opt-in shell tool and its process control.
 *
 * The harness's own executables on a subprocess's `PATH`
 * (docs/tools.md#run-any-command-the-shell-tool). The router launches the harness by absolute path,
 * so nothing puts its directory on the `PATH` its children inherit; without this a command the
 * agent runs could reach the harness's tools only by a private path. The directory is derived from
 * the running executable at spawn time, never configured, so a moved install is followed
 * automatically. Both helpers only ever add, and only when absent.
 */
import { dirname } from "../../base/paths.ts";

/** POSIX `os.defpath` without its leading empty (current-directory) entry. */
export const DEFAULT_PATH = "/bin:/usr/bin";

/**
 * The directory holding the running executable (the compiled harness binary, or `deno` when run
 * from source), or `undefined` when there is nothing honest to add: unknown, missing, or
 * containing `:` (which cannot be one `PATH` entry — it would silently split into two).
 */
export function harnessBinDir(): string | undefined {
  try {
    const dir = dirname(Deno.execPath());
    if (!dir || dir.includes(":")) return undefined;
    return Deno.statSync(dir).isDirectory ? dir : undefined;
  } catch {
    return undefined; // no read permission, or no such directory: add nothing
  }
}

/**
 * The `PATH` a child should get: `current` with `binDir` first when it is not already an exact
 * entry (an operator's deliberate order is left alone), `<binDir>:/bin:/usr/bin` when `PATH` is
 * unset, and `current` unchanged when there is no `binDir`.
 */
export function pathWithBin(
  current: string | undefined,
  binDir: string | undefined,
): string | undefined {
  if (binDir === undefined) return current;
  if (current === undefined) return `${binDir}:${DEFAULT_PATH}`;
  if (current.split(":").includes(binDir)) return current;
  return current ? `${binDir}:${current}` : binDir;
}

/** Quotes `text` for POSIX sh, leaving obviously safe words bare (as Python's `shlex.quote`). */
export function shellQuote(text: string): string {
  if (text === "") return "''";
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

/**
 * One line of shell that re-adds `binDir` to `PATH` if absent. It runs after the login profile,
 * which may assign `PATH` outright (Debian's does) and so discard an inherited prepend. The dir
 * sits in a variable because a quoted expansion matches literally inside `case`, so a glob
 * character in the path cannot turn the test into a wildcard; `${PATH:+:$PATH}` keeps an empty
 * `PATH` from gaining an empty (current-directory) entry. `""` when there is nothing to add.
 */
export function pathPrelude(binDir: string | undefined): string {
  if (binDir === undefined) return "";
  return `__bc_bin=${shellQuote(binDir)}; ` +
    'case ":$PATH:" in *":$__bc_bin:"*) ;; ' +
    '*) PATH="$__bc_bin${PATH:+:$PATH}"; export PATH ;; esac; ' +
    "unset __bc_bin";
}
