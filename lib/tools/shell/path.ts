/**
 * The agent's own executables on a shell command's `PATH`
 * (docs/tools.md#run-any-command-the-shell-tool): the directories of lib/box/child_path.ts go in
 * the child's environment, and again in a one-line prelude run after the login profile, which may
 * assign `PATH` outright and so discard the inherited ones. Both only ever add, and only when
 * absent.
 */
export { DEFAULT_PATH, pathWithDirs } from "../../box/child_path.ts";

/** Quotes `text` for POSIX sh, leaving obviously safe words bare (as Python's `shlex.quote`). */
export function shellQuote(text: string): string {
  if (text === "") return "''";
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

/**
 * One line of shell that puts each of `dirs` that is absent in front of `PATH`, `dirs[0]` first.
 * It runs after the login profile, which may assign `PATH` outright (Debian's does) and so discard
 * an inherited prepend. Each dir sits in a variable because a quoted expansion matches literally
 * inside `case`, so a glob character in a path cannot turn the test into a wildcard;
 * `${PATH:+:$PATH}` keeps an empty `PATH` from gaining an empty (current-directory) entry. `""`
 * when there is nothing to add.
 */
export function pathPrelude(dirs: readonly string[]): string {
  if (!dirs.length) return "";
  // Prepending one at a time reverses the order, so the last dir goes first.
  const words = [...new Set(dirs)].reverse().map(shellQuote).join(" ");
  return `for __bc_bin in ${words}; do case ":$PATH:" in *":$__bc_bin:"*) ;; ` +
    '*) PATH="$__bc_bin${PATH:+:$PATH}" ;; esac; done; export PATH; unset __bc_bin';
}
