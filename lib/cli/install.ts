/**
 * `harness install`: scaffold or upgrade the config home
 * (docs/configuration.md#install-and-upgrade). Prints the reconcile summary for a person on stdout
 * and the WARNING lines on stderr. Safe to re-run on every upgrade; it never touches agent.env,
 * model_params.json, search_params.json or any file it did not ship.
 */
import { errorMessage } from "../base/error_text.ts";
import { PROVIDERS } from "../providers/axes.ts";
import { type Command, commandLabel, processIo, UsageError } from "./command.ts";
import { install } from "../config/installer.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { checkStems, splitStems, UnknownStemError } from "../config/resolve.ts";

const options = {
  "config-home": { type: "string" },
  "opt-in": { type: "list" },
  "revoke-opt-in": { type: "list" },
  provider: { type: "string" },
  "all-providers": { type: "boolean" },
} as const;

const env = (name: string) => Deno.env.get(name);

/** `harness install`: the config-home installer and conffile upgrader. */
export const installCommand: Command<typeof options> = {
  name: "install",
  usage: `Usage: harness install [--config-home DIR] [--opt-in a,b] [--revoke-opt-in a,b]
                       [--provider NAME | --all-providers]

Scaffold the config home, or upgrade it to this version's shipped defaults. A default you
never touched is refreshed; one you edited is kept and the new default written beside it as
<file>.new; one you deleted stays deleted. Files you added, agent.env, model_params.json and
search_params.json are never touched. Idempotent.

Options:
  --config-home DIR     the config home (default: $BASECRADLE_CONFIG_HOME, else
                        $HOME/.config/basecradle)
  --opt-in a,b          grant powerful tools by plugin file stem (e.g. web_search,system_prompt)
  --revoke-opt-in a,b   withdraw grants; an unedited plugin file is deleted, an edited one kept
  --provider NAME       lay down only tool defaults relevant to this provider and prune unedited
                        mismatched ones (default: $AI_PROVIDER, else openai)
  --all-providers       lay down every tool default regardless of provider
  -h, --help            show this help

Exit codes: 0 done; 1 failed (named on stderr), including a stem no shipped plugin has (nothing
is written then); 2 usage error.
`,
  options,
  async run({ values }) {
    if (values["all-providers"] && values.provider !== undefined) {
      throw new UsageError("--provider and --all-providers are mutually exclusive");
    }
    // An unknown provider would prune every tool default it finds "irrelevant": refuse it first.
    const fromFlag = values.provider !== undefined;
    const provider = values["all-providers"]
      ? null
      : (values.provider ?? env("AI_PROVIDER") ?? "").trim().toLowerCase() || "openai";
    if (provider !== null && !(PROVIDERS as readonly string[]).includes(provider)) {
      const accepted = `expected one of (${PROVIDERS.join(", ")})`;
      if (fromFlag) throw new UsageError(`--provider '${provider}' is unknown; ${accepted}`);
      processIo.stderr(
        `${
          commandLabel("install")
        }: AI_PROVIDER='${provider}' is unknown; ${accepted}, or pass --provider.\n`,
      );
      return 1;
    }
    const optIn = splitStems(values["opt-in"]);
    const revokeOptIn = splitStems(values["revoke-opt-in"]);
    try {
      // A misspelt stem refuses the whole run before anything is written, as harness resolve
      // refuses it: a grant that silently did nothing is found only when the tool is missing.
      checkStems([...optIn, ...revokeOptIn]);
    } catch (error) {
      if (!(error instanceof UnknownStemError)) throw error;
      processIo.stderr(`${commandLabel("install")}: ${error.message}\n`);
      return 1;
    }
    try {
      const configHome = resolveConfigHome(
        { configHome: env("BASECRADLE_CONFIG_HOME"), home: env("HOME") },
        values["config-home"],
      );
      const report = await install({
        configHome,
        provider,
        optIn,
        revokeOptIn,
      });
      for (const line of report.warnings) processIo.stderr(`${line}\n`);
      processIo.stdout(`${report.summary()}\n`);
      return 0;
    } catch (error) {
      processIo.stderr(
        `${commandLabel("install")}: ${errorMessage(error)}\n`,
      );
      return 1;
    }
  },
};
