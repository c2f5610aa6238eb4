/**
 * `harness doctor`'s checks of what a wake must reach (docs/operating.md#harness-doctor): the
 * platform credential, proven by one authenticated read (or, for an email and password, by
 * minting a session as a wake does), and the model endpoint, asked without a completion.
 */
import { errorMessage } from "../base/error_text.ts";
import type { HarnessEnv } from "../config/env.ts";
import {
  ForbiddenError,
  PlatformClient,
  TransportError,
  UnauthorizedError,
} from "../platform/mod.ts";
import { probeModel } from "../providers/model_probe.ts";
import { refusalIn } from "../net/refusal.ts";
import { type CheckResult, fail, ok, warn } from "./doctor_report.ts";

/** The fix under a check the host rules refused: a wake would be refused the same way. */
const HOST_RULES_FIX = (what: string) =>
  `add ${what} to host_rules.json if a wake should reach it (a wake is refused the same way)`;

/** The platform credential, proven by one authenticated read (the dashboard's identity). */
export async function checkPlatform(env: HarnessEnv, timeoutMs: number): Promise<CheckResult[]> {
  const name = "platform";
  const credential = env.token !== undefined
    ? "BASECRADLE_TOKEN"
    : env.email !== undefined
    ? "BASECRADLE_EMAIL and BASECRADLE_PASSWORD"
    : undefined;
  if (credential === undefined) {
    return [
      fail(
        name,
        "no platform credential is set",
        "set BASECRADLE_TOKEN (or BASECRADLE_EMAIL and BASECRADLE_PASSWORD)",
      ),
    ];
  }
  let client: PlatformClient;
  try {
    client = new PlatformClient({ ...env.platform, timeoutMs });
  } catch (error) {
    return [fail(name, errorMessage(error), `correct ${credential}`)];
  }
  const where = client.baseUrl.href;
  try {
    const { identity } = await client.users.dashboard();
    const verb = env.token !== undefined ? "is" : "are";
    return [
      ok(name, `${credential} ${verb} accepted at ${where}: signed in as @${identity.handle}`),
    ];
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      return [
        fail(
          name,
          `${where} refused ${credential} (HTTP 401)`,
          `set a valid ${credential} for this agent (a revoked or mistyped token answers 401)`,
        ),
      ];
    }
    if (error instanceof ForbiddenError) {
      return [
        fail(
          name,
          `${where} refused the account (HTTP 403${error.code ? ` ${error.code}` : ""})`,
          "ask the platform's operators why the account is refused",
        ),
      ];
    }
    const refusal = refusalIn(error);
    if (refusal) {
      return [fail(name, `${where} was not asked: ${refusal.message}`, HOST_RULES_FIX("its host"))];
    }
    if (error instanceof TransportError) {
      return [
        fail(
          name,
          `cannot reach ${where}: ${errorMessage(error)}`,
          "check BASECRADLE_BASE_URL and this box's network",
        ),
      ];
    }
    return [
      fail(
        name,
        `${where}: ${errorMessage(error)}`,
        "retry; if it persists, check the platform's status",
      ),
    ];
  }
}

/** The model endpoint: reachable, the key accepted, the model known where the API can say. */
export async function checkModel(env: HarnessEnv, timeoutMs: number): Promise<CheckResult[]> {
  const name = "model";
  if (!env.aiModel) {
    return [fail(name, "AI_MODEL is not set", "set AI_MODEL to the model id this agent runs on")];
  }
  if (!env.aiApiKey) return [fail(name, "AI_API_KEY is not set", "set AI_API_KEY")];
  const probe = await probeModel({
    provider: env.aiProvider,
    model: env.aiModel,
    apiKey: env.aiApiKey,
    baseURL: env.aiBaseUrl,
    timeoutMs,
  });
  switch (probe.verdict) {
    case "ok":
      return [ok(name, probe.detail)];
    case "key-refused":
      return [fail(name, probe.detail, "set a valid AI_API_KEY for this endpoint")];
    case "model-unknown":
      return [fail(name, probe.detail, "set AI_MODEL to a model id this endpoint serves")];
    case "unconfirmed":
      return [
        warn(
          name,
          probe.detail,
          "nothing to do if a wake works; else check AI_MODEL and AI_API_KEY",
        ),
      ];
    case "unreachable":
      return [fail(name, probe.detail, "check AI_BASE_URL and this box's network")];
    case "refused":
      return [fail(name, probe.detail, HOST_RULES_FIX("the model's host"))];
    default:
      return [fail(name, probe.detail, "retry; if it persists, check the endpoint's status")];
  }
}
