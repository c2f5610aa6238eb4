/**
 * `harness doctor`'s checks of the environment and the config home
 * (docs/operating.md#harness-doctor): every variable parsed as a wake parses it (unknown ones
 * named with the nearest known), and the config home's reconcile previewed on a scratch copy.
 */
import { closest } from "../base/suggest.ts";
import { errorMessage } from "../base/error_text.ts";
import { VERSION } from "../base/version.ts";
import { ENV_VARIABLES, type HarnessEnv, parseEnv } from "../config/env.ts";
import { ConfigError, type ConfigIssue } from "../config/errors.ts";
import { resolveConfigHome } from "../config/prompts.ts";
import { previewReconcile } from "../install/reconcile_preview.ts";
import { type CheckResult, fail, ok, warn } from "./doctor_report.ts";

/** The variables a box's environment holds, by name. */
export type EnvMap = Readonly<Record<string, string | undefined>>;

/** Names with one of these prefixes are the harness's own: an unknown one is likely a typo. */
const OWN_PREFIXES = ["HARNESS_", "BASECRADLE_"] as const;

/** Own-prefixed names read by something other than the runtime (the deploy wrappers). */
const OTHER_READERS: ReadonlySet<string> = new Set(["HARNESS_BIN"]);

/** The parsed environment, or as much of it as parses, and the rows about it. */
export interface EnvironmentCheck {
  /** The environment with every refused variable left unset, so later checks can go on. */
  readonly env: HarnessEnv | undefined;
  readonly rows: CheckResult[];
}

/**
 * The environment: parsed by the wake's own parser. Every refused variable is a FAIL naming it;
 * a lenient fallback the parser took (a profile typo running locked) is a WARN; an
 * own-prefixed variable nothing reads is a WARN with the name it probably meant.
 */
export function checkEnvironment(envMap: EnvMap): EnvironmentCheck {
  const rows: CheckResult[] = [];
  const dropped = new Set<string>();
  const issues: ConfigIssue[] = [];
  let env: HarnessEnv | undefined;
  // Each refused variable is left unset and the parse retried, so one bad value does not hide
  // the rest of the box from the checks that follow.
  for (let round = 0; round <= ENV_VARIABLES.length && env === undefined; round++) {
    try {
      env = parseEnv((name) => (dropped.has(name) ? undefined : envMap[name]));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const fresh = error.issues.filter((issue) => !dropped.has(issue.variable));
      for (const issue of fresh) {
        issues.push(issue);
        dropped.add(issue.variable);
      }
      if (fresh.length > 0) continue;
      // A pair that refuses together (an email without its password) names one variable first
      // and stays refused without it: leave unset every variable the remaining sentences name.
      const named = ENV_VARIABLES.filter((name) =>
        !dropped.has(name) && error.issues.some((issue) => issue.message.includes(name))
      );
      if (named.length === 0) break;
      for (const name of named) dropped.add(name);
    }
  }
  for (const issue of issues) {
    rows.push(fail("environment", issue.message, `correct ${issue.variable} in agent.env`));
  }
  for (const line of env?.warnings ?? []) {
    rows.push(warn("environment", line, "correct the variable named in agent.env"));
  }
  const known = new Set(ENV_VARIABLES);
  for (const name of Object.keys(envMap).sort()) {
    if (!OWN_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    if (known.has(name) || OTHER_READERS.has(name)) continue;
    const guess = closest(name, ENV_VARIABLES);
    rows.push(
      warn(
        "environment",
        `${name} is set but nothing reads it${guess ? ` (did you mean ${guess}?)` : ""}`,
        guess ? `rename it to ${guess}` : "remove it, or check docs/environment.md for the name",
      ),
    );
  }
  if (rows.length === 0 && env) {
    rows.push(
      ok(
        "environment",
        `parses; model axes ${env.aiProvider}/${env.aiSdk}/${env.aiSdkSurface}, profile ` +
          env.profile,
      ),
    );
  }
  return { env, rows };
}

/** The resolved config home, or the FAIL row saying why there is none. */
export function configHomeOf(env: HarnessEnv): string | CheckResult {
  try {
    return resolveConfigHome(env);
  } catch (error) {
    return fail(
      "config-home",
      errorMessage(error),
      "set BASECRADLE_CONFIG_HOME to an absolute path (or HOME)",
    );
  }
}

/**
 * The config home: installed, stamped with this build's version, and what the next wake's
 * reconcile would change when it is not (previewed on a scratch copy, never written).
 */
export async function checkConfigHome(env: HarnessEnv, configHome: string): Promise<CheckResult[]> {
  const name = "config-home";
  try {
    const info = await Deno.stat(configHome);
    if (!info.isDirectory) {
      return [
        fail(name, `${configHome} is not a directory`, "point BASECRADLE_CONFIG_HOME at one"),
      ];
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) {
      return [fail(name, `${configHome}: ${errorMessage(error)}`, "make it readable by this user")];
    }
    return [
      warn(
        name,
        `${configHome} does not exist: a wake runs on the embedded defaults`,
        "run 'harness install' to scaffold it",
      ),
    ];
  }
  const preview = await previewReconcile(configHome, env.aiProvider);
  if (!preview.installed) {
    return [
      warn(
        name,
        `${configHome} was never installed (no .manifest.json): a wake runs on the embedded ` +
          "default prompts and tools",
        "run 'harness install'",
      ),
    ];
  }
  if (preview.stamp === VERSION) return [ok(name, `${configHome} is installed at ${VERSION}`)];
  const changes = preview.pending.map((p) => `${p.rel} (${p.action})`);
  return [
    warn(
      name,
      `${configHome} is stamped ${preview.stamp ?? "with no version"}, this build is ` +
        `${VERSION}: the next wake reconciles it` +
        (changes.length ? `, changing ${changes.length} file(s): ${changes.join(", ")}` : "") +
        (preview.warnings.length ? `; ${preview.warnings.join(" ")}` : ""),
      "run 'harness install' now to review the changes (or let the next wake apply them)",
    ),
  ];
}
