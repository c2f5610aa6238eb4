/**
 * `harness install`: scaffold or upgrade the config home
 * (docs/configuration.md#install-and-upgrade). Prints the reconcile summary for a person on stdout
 * and the WARNING lines on stderr. Safe to re-run on every upgrade; it never touches agent.env,
 * model_params.json, search_params.json or any file it did not ship. Then it loads the config home
 * as a wake would (`checkWakeConfig`) and exits 1 with the wake's own sentence when a wake would
 * refuse it: a green install means the next wake loads.
 */
import { CONFIG_HOME_FLAG, OPT_IN_FLAG, PROVIDER_FLAG } from "./flag_values.ts";
import { errorMessage } from "../base/error_text.ts";
import { PROVIDERS } from "../providers/axes.ts";
import { type Command, commandLabel, processIo, UsageError } from "./command.ts";
import { install } from "../install/installer.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { checkStems, splitStems, UnknownStemError } from "../config/stems.ts";
import { checkWakeConfig } from "../runtime/wake_config.ts";
import { installWakeBin } from "./wake_bin.ts";

const options = {
  "config-home": CONFIG_HOME_FLAG,
  "opt-in": OPT_IN_FLAG,
  "revoke-opt-in": OPT_IN_FLAG,
  provider: PROVIDER_FLAG,
  "all-providers": { type: "boolean" },
  "wake-bin": { type: "string", completes: "file" },
} as const;

const env = (name: string) => Deno.env.get(name);

/** `harness install`: the config-home installer and conffile upgrader. */
export const installCommand: Command<typeof options> = {
  name: "install",
  usage: `Usage: harness install [--config-home DIR] [--opt-in a,b] [--revoke-opt-in a,b]
                       [--provider NAME | --all-providers] [--wake-bin PATH]

Scaffold the config home, or upgrade it to this version's shipped defaults. A default you
never touched is refreshed; one you edited is kept and the new default written beside it as
<file>.new; one you deleted stays deleted. Files you added, agent.env, model_params.json and
search_params.json are never touched. Idempotent. Then every config-home file is loaded as a
wake loads it (in this environment, with the config home's agent.env filling in what it leaves
unset); when a wake would refuse it, the wake's sentence is printed and the exit code is 1.

Options:
  --config-home DIR     the config home (default: $BASECRADLE_CONFIG_HOME, else
                        $HOME/.config/basecradle)
  --opt-in a,b          grant powerful tools by plugin file stem (e.g. web_search,system_prompt)
  --revoke-opt-in a,b   withdraw grants; an unedited plugin file is deleted, an edited one kept
  --provider NAME       lay down only tool defaults relevant to this provider and prune unedited
                        mismatched ones (default: $AI_PROVIDER, else openai)
  --all-providers       lay down every tool default regardless of provider
  --wake-bin PATH       also write the wake command a router runs (its registry's wake_bin),
                        e.g. ~/.local/bin/basecradle-harness-wake: a small script inside the
                        agent's home that runs this harness's wake; a file there that is not
                        one is kept as PATH.prev
  -h, --help            show this help

Exit codes: 0 done, and a wake would load the config home; 1 failed (named on stderr), including
a stem no shipped plugin has (nothing is written then) and a config home a wake would refuse
(after writing what it wrote); 2 usage error.
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
      if (values["wake-bin"] !== undefined) {
        const wrapper = await installWakeBin({
          path: values["wake-bin"],
          home: env("HOME"),
          user: env("USER") || env("LOGNAME"),
          harnessBin: env("HARNESS_BIN"),
        });
        processIo.stdout(
          `wake wrapper: ${wrapper.path} (runs ${wrapper.harness} wake)\n` +
            `  the router's registry wake_bin: ${wrapper.resolved}\n` +
            (wrapper.keptAs ? `  kept the file it replaced as ${wrapper.keptAs}\n` : ""),
        );
        for (const line of wrapper.warnings) processIo.stderr(`${line}\n`);
      }
      // --provider names the agent's provider, so the load judges that one, as verify does.
      const vars: Record<string, string | undefined> = Deno.env.toObject();
      if (fromFlag && provider !== null) vars.AI_PROVIDER = provider;
      const verdict = await checkWakeConfig({ vars, configHome });
      if (verdict.ok) return 0;
      processIo.stderr(
        `${commandLabel("install")}: a wake would refuse this config home: ${verdict.sentence}\n`,
      );
      return 1;
    } catch (error) {
      processIo.stderr(
        `${commandLabel("install")}: ${errorMessage(error)}\n`,
      );
      return 1;
    }
  },
};
