/**
 * `harness claims`: prints this agent's claims manifest and exits 0 whatever the verify verdict,
 * even with no config home (docs/operating.md#harness-claims). It takes no arguments: the config
 * home and the subject come from the ordinary resolvers, so the manifest always describes the
 * agent the command runs as. Exit 1 only when the manifest cannot be produced at all.
 */
import { userInfo } from "node:os";
import { errorMessage } from "../base/error_text.ts";
import { dirname, join } from "../base/paths.ts";
import { capabilityManifestText } from "../install/capability_manifest.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { type Command, commandLabel, processIo } from "./command.ts";

const env = (name: string) => Deno.env.get(name);
/** Where the slug is read from, in order: the override, then the login variables. */
const SLUG_VARIABLES = ["BASECRADLE_AGENT_SLUG", "LOGNAME", "USER", "LNAME", "USERNAME"];

/**
 * This agent's slug: `explicit`, else `BASECRADLE_AGENT_SLUG`, else the OS user (the login
 * variables, then the account database), else `unknown`.
 */
export function agentSlug(explicit?: string): string {
  const named = [explicit, ...SLUG_VARIABLES.map(env)].find((value) => value?.trim());
  if (named) return named.trim();
  try {
    return userInfo().username || "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * A probe command's program: the script's absolute path when it is installed beside the running
 * binary (where `deploy/bin` goes), so a converge without the agent's PATH can run it; else the
 * bare name.
 */
export function scriptPath(name: string): string {
  const beside = join(dirname(Deno.execPath()), name);
  try {
    return Deno.statSync(beside).isFile ? beside : name;
  } catch {
    return name;
  }
}

/** The capability manifest text for `configHome` (or the resolved one) and `subject`. */
export async function agentManifestText(
  configHome?: string,
  subject?: string,
): Promise<string> {
  const root = resolveConfigHome(
    { configHome: env("BASECRADLE_CONFIG_HOME"), home: env("HOME") },
    configHome,
  );
  return await capabilityManifestText({
    configHome: root,
    subject: agentSlug(subject),
    script: scriptPath,
  });
}

/** `harness claims`: the claims emitter a fleet's collector runs with no arguments. */
export const claimsCommand: Command<Record<string, never>> = {
  name: "claims",
  usage: `Usage: harness claims

Print this agent's claims manifest (JSON, contract 1) and exit 0, whatever the verify verdict
and even with no config home. Takes no arguments: the config home is $BASECRADLE_CONFIG_HOME,
else $HOME/.config/basecradle; the subject is agent:<slug> with the slug from
$BASECRADLE_AGENT_SLUG, else the OS user. The same bytes as harness verify --emit-claims.

Exit codes: 0 printed; 1 the manifest could not be produced (the reason on stderr); 2 a usage
error (any argument).
`,
  options: {},
  async run() {
    let text: string;
    try {
      text = await agentManifestText();
    } catch (error) {
      processIo.stderr(
        `${commandLabel("claims")}: cannot state this agent's claims: ${errorMessage(error)}\n`,
      );
      return 1;
    }
    processIo.stdout(`${text}\n`);
    return 0;
  },
};
