/**
 * `lib/config/`: reading and validating configuration: the environment, the config home, plugin
 * files, the install reconcile.
 *
 * `agent.env` as the router's wake runner reads it (docs/operating.md#the-agentenv-file): one
 * `KEY=VALUE` per line, read literally, never through a shell. A leading `export ` and one layer
 * of matching quotes around the value are stripped, because the runner strips them and a box's
 * file must mean the same thing to every reader; blank lines, `#` comments, lines without `=` and
 * keys that are not variable names are skipped; the last assignment of a name wins. Nothing is
 * expanded: `$HOME` in a value is those five characters.
 *
 * @module
 */
import { join } from "../base/paths.ts";
import { readText } from "../base/read_files.ts";

/** The file's name in the config home. */
export const AGENT_ENV_FILE = "agent.env";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables `text` assigns, name → value, as the router's wake runner would export them. */
export function parseAgentEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trimStart();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("export ")) line = line.slice("export ".length);
    const eq = line.indexOf("=");
    if (eq < 0) continue;
    const name = line.slice(0, eq).trim();
    if (!NAME.test(name)) continue;
    vars[name] = unquoted(line.slice(eq + 1));
  }
  return vars;
}

/** `value` without one layer of matching surrounding quotes (`"…"` or `'…'`), else as written. */
function unquoted(value: string): string {
  if (value.length < 2) return value;
  const first = value[0];
  if ((first === '"' || first === "'") && value.at(-1) === first) return value.slice(1, -1);
  return value;
}

/**
 * `<configHome>/agent.env` parsed by {@link parseAgentEnv}; `{}` when there is no such file or it
 * cannot be read (a reader that only fills in what the environment lacks has nothing to add).
 */
export async function readAgentEnv(configHome: string): Promise<Record<string, string>> {
  try {
    return parseAgentEnv(await readText(join(configHome, AGENT_ENV_FILE)));
  } catch {
    return {};
  }
}

/**
 * `vars` with every variable they leave unset taken from `<configHome>/agent.env`: the
 * environment a wake of this agent would parse, for a command run from an operator's shell. A
 * variable `vars` sets (even to an empty value) is kept as it is.
 */
export async function withAgentEnv(
  vars: Readonly<Record<string, string | undefined>>,
  configHome: string,
): Promise<Record<string, string | undefined>> {
  const merged: Record<string, string | undefined> = { ...await readAgentEnv(configHome) };
  for (const [name, value] of Object.entries(vars)) if (value !== undefined) merged[name] = value;
  return merged;
}
