/**
 * `--env-file PATH` (docs/operating.md#shared-flags): loads an agent.env into this process's
 * environment before a hand-run command reads it, parsed as the router's wake runner parses it
 * (lib/config/env_file.ts), so `harness doctor --env-file ~/.config/basecradle/agent.env` checks
 * what a routed wake would get, without sourcing the file in a shell. The file's values replace
 * inherited ones, as sourcing it would: a stale export in the operator's shell must not mask what
 * the agent runs with. Loaded only when the flag is given.
 */
import { errorMessage } from "../base/error_text.ts";
import { expandHome } from "../base/paths.ts";
import { parseEnvFile } from "../base/env_file.ts";

/** What loading the file came to: the warnings for its ignored lines, or why it was refused. */
export type EnvFileLoad =
  | { readonly ok: true; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly error: string };

/**
 * Reads the env file at `path` and hands every assignment to `set`, in file order (the last one
 * of a name wins). Nothing is set when the file cannot be read.
 */
export async function loadEnvFile(
  path: string,
  set: (name: string, value: string) => void,
): Promise<EnvFileLoad> {
  // `~/…` against HOME, as a shell would have expanded an unquoted `--env-file ~/…`; without a
  // HOME the path is read as written, and the refusal below names it.
  const file = expandHome(path.trim(), Deno.env.get("HOME")) ?? path.trim();
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "there is no such file"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a directory"
      : errorMessage(error).replace(/\s+/g, " ").trim();
    return {
      ok: false,
      error: `--env-file ${file} cannot be read: ${why}. Name the agent's env file, e.g. ` +
        "--env-file ~/.config/basecradle/agent.env.",
    };
  }
  const parsed = parseEnvFile(text);
  for (const [name, value] of parsed.values) set(name, value);
  return {
    ok: true,
    warnings: parsed.ignored.map(({ line, reason }) =>
      `--env-file ${file} line ${line} was ignored: ${reason}; a routed wake ignores it too.`
    ),
  };
}
