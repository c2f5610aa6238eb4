/**
 * `harness verify`: proves the config home's declared capability set is present and current, and
 * writes `.verified.json` when it is (docs/operating.md#harness-verify). Exit 0 only when nothing
 * is missing; 1 on any finding, including a state in which nothing can be proven. A converge
 * runs it so a stripped overlay fails the deploy instead of surviving it silently.
 * `--emit-claims` prints the claims manifest instead (the bytes `harness claims` prints).
 */
import { CONFIG_HOME_FLAG, PROVIDER_FLAG } from "./flag_values.ts";
import { errorMessage } from "../base/error_text.ts";
import { pythonJsonFile } from "../config/bookkeeping.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { type Finding, proveConfigHome, reportDocument, reportSummary } from "../install/proof.ts";
import { checkWakeConfig } from "../runtime/wake_config.ts";
import { agentManifestText } from "./claims.ts";
import { type Command, commandLabel, processIo } from "./command.ts";

const options = {
  "config-home": CONFIG_HOME_FLAG,
  provider: PROVIDER_FLAG,
  "expect-version": { type: "string" },
  json: { type: "boolean" },
  "no-evidence": { type: "boolean" },
  "emit-claims": { type: "boolean" },
  subject: { type: "string" },
} as const;

const env = (name: string) => Deno.env.get(name);

/** `harness verify`: the declared-capability prover. */
export const verifyCommand: Command<typeof options> = {
  name: "verify",
  usage: `Usage: harness verify [--config-home DIR] [--provider NAME] [--expect-version V]
                      [--json] [--no-evidence]
       harness verify --emit-claims [--config-home DIR] [--subject SLUG]

Prove this agent's declared capability set is present and current: every shipped default it
should have, every powerful tool it was granted, the overlay's currency with this binary. And
load every config-home file as a wake loads it (in this environment, with the config home's
agent.env filling in what it leaves unset): a file a wake would refuse is a finding. Operator
edits and deletions the last install ratified are never findings. On success it records
<config home>/.verified.json.

Options:
  --config-home DIR   the config home (default: $BASECRADLE_CONFIG_HOME, else
                      $HOME/.config/basecradle)
  --provider NAME     the provider this agent runs (default: $AI_PROVIDER, else the last
                      AI_PROVIDER= line of <config home>/agent.env, else openai)
  --expect-version V  the version this box was pinned to; the running binary must be it
  --json              print the full report as JSON (stdout); the exit code is unchanged
  --no-evidence       do not write .verified.json (a read-only check)
  --emit-claims       print the claims manifest (as harness claims) and exit 0 instead
  --subject SLUG      the agent slug for --emit-claims (default: $BASECRADLE_AGENT_SLUG, else
                      the OS user)
  --version           print the version line and exit
  -h, --help          show this help

Output: OK on stdout; FAILED and one [check] subject: detail / → remedy stanza per finding on
stderr. Exit codes: 0 no findings; 1 at least one finding (or the home could not be read);
2 a usage error.
`,
  options,
  async run({ values }) {
    const label = commandLabel("verify");
    try {
      if (values["emit-claims"]) {
        processIo.stdout(`${await agentManifestText(values["config-home"], values.subject)}\n`);
        return 0;
      }
      const configHome = resolveConfigHome(
        { configHome: env("BASECRADLE_CONFIG_HOME"), home: env("HOME") },
        values["config-home"],
      );
      const report = await proveConfigHome({
        configHome,
        provider: values.provider,
        expectVersion: values["expect-version"],
        record: !values["no-evidence"],
        env,
        ...await wakeLoadFindings(configHome, values.provider),
      });
      for (const line of report.warnings) processIo.stderr(`WARNING ${line}\n`);
      if (values.json) processIo.stdout(pythonJsonFile(reportDocument(report)));
      else if (report.findings.length) processIo.stderr(`${reportSummary(report, label)}\n`);
      else processIo.stdout(`${reportSummary(report, label)}\n`);
      return report.findings.length ? 1 : 0;
    } catch (error) {
      processIo.stderr(`${label}: ${errorMessage(error)}\n`);
      return 1;
    }
  },
};

/**
 * The wake's own configuration load as verify findings: none (and the knowledge pack's sha256)
 * when a wake would load the config home, else one `wake-would-refuse` finding carrying the
 * wake's sentence. `--provider` stands in for `AI_PROVIDER` here too, so the load judges the
 * provider the rest of the report does.
 */
async function wakeLoadFindings(
  configHome: string,
  provider?: string,
): Promise<{ findings: Finding[]; knowledgeSha256?: string }> {
  const vars: Record<string, string | undefined> = Deno.env.toObject();
  if (provider?.trim()) vars.AI_PROVIDER = provider.trim();
  const verdict = await checkWakeConfig({ vars, configHome });
  if (verdict.ok) return { findings: [], knowledgeSha256: verdict.knowledge.sha256 };
  const subject = verdict.subject.startsWith(`${configHome}/`)
    ? verdict.subject.slice(configHome.length + 1)
    : verdict.subject;
  return {
    findings: [{
      check: "wake-would-refuse",
      subject,
      detail: verdict.sentence,
      remedy: "fix what the sentence names; `harness resolved-config` prints the same refusal, " +
        "and the next wake loads once it is fixed",
    }],
  };
}
