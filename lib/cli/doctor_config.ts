/**
 * `harness doctor`'s `wake-config` row (docs/operating.md#harness-doctor): the config home loaded
 * exactly as a wake loads it (`checkWakeConfig`, the function `harness wake`, `resolved-config`,
 * `install` and `verify` share). A file a wake would refuse is a FAIL whose detail is the very
 * sentence the wake prints after `harness wake: `, so the doctor and the wake can never disagree.
 * Also the one place the doctor reads the config home's `agent.env`: every variable the doctor's
 * own environment leaves unset is taken from it, as a wake under the router would get it.
 */
import { withAgentEnv } from "../config/agent_env.ts";
import type { HarnessEnv } from "../config/env.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { checkWakeConfig } from "../runtime/wake_config.ts";
import type { EnvMap } from "./doctor_env.ts";
import { type CheckResult, fail, ok } from "./doctor_report.ts";

/**
 * `vars` filled in from the config home's `agent.env` (a variable `vars` sets wins); `vars` as
 * they are when no config home can be named (no `HOME`, no `BASECRADLE_CONFIG_HOME`).
 */
export async function withAgentEnvOf(vars: EnvMap): Promise<EnvMap> {
  let configHome: string;
  try {
    configHome = resolveConfigHome({ configHome: vars.BASECRADLE_CONFIG_HOME, home: vars.HOME });
  } catch {
    return vars;
  }
  return await withAgentEnv(vars, configHome);
}

/**
 * The `wake-config` row for `env`, parsed from `vars` (already filled in from agent.env by
 * {@link withAgentEnvOf}, so the check does not read it again; refused variables left unset).
 */
export async function checkWakeLoad(vars: EnvMap, env: HarnessEnv): Promise<CheckResult[]> {
  const verdict = await checkWakeConfig({ filled: { vars, env } });
  if (!verdict.ok) {
    return [
      fail(
        "wake-config",
        verdict.sentence,
        "fix what the sentence names; every wake refuses with this sentence until then",
      ),
    ];
  }
  return [
    ok(
      "wake-config",
      `${verdict.configHome} loads as a wake loads it: ${verdict.tools} tool(s), ` +
        `${verdict.builtins} built-in(s) active`,
    ),
  ];
}
