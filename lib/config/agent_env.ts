/**
 * The config home's `agent.env`, read as the router's wake runner reads it
 * (docs/operating.md#the-agentenv-file), through the one parser of the format
 * (`lib/base/env_file.ts`): the file's variables, and an environment filled in from them.
 *
 * @module
 */
import { join } from "../base/paths.ts";
import { readText } from "../base/read_files.ts";
import { parseEnvFile } from "../base/env_file.ts";

/** The file's name in the config home. */
export const AGENT_ENV_FILE = "agent.env";

/**
 * The variables `text` assigns, name → value, as the router's wake runner would export them
 * (the one agent.env parser, {@link parseEnvFile}; lines it skips are skipped here too).
 */
export function parseAgentEnv(text: string): Record<string, string> {
  return Object.fromEntries(parseEnvFile(text).values);
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
