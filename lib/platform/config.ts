/**
 * Client configuration: the options a PlatformClient takes, their defaults, and reading them
 * from the harness's BASECRADLE_* environment variables. Bad values refuse to load with a
 * sentence naming the variable; secret values are never echoed.
 */
import * as z from "../base/zod.ts";
import type { Credentials } from "./auth.ts";
import { ConfigurationError } from "./errors.ts";
import type { FetchLike } from "./http.ts";

/** The platform's public address. */
export const DEFAULT_BASE_URL = "https://basecradle.com";

/** Everything a PlatformClient can be given. */
export interface PlatformClientOptions extends Credentials {
  /** Platform root, default https://basecradle.com (a path prefix is kept). */
  readonly baseUrl?: string | URL;
  /** Per-call deadline in milliseconds, default 30 000. */
  readonly timeoutMs?: number;
  /** A replacement `fetch` (for observing or rerouting traffic). */
  readonly fetch?: FetchLike;
  /** Overrides the User-Agent (default: the harness's own). */
  readonly userAgent?: string;
  /**
   * The waits before each re-send of a keyed create whose outcome is unknown (default
   * `CREATE_BACKOFF_MS`: three sends in all); `[]` sends once.
   */
  readonly createBackoffMs?: readonly number[];
}

/** Reads one environment variable; injectable so tests need no real environment. */
export type EnvReader = (name: string) => string | undefined;

/** Parses and checks a base URL; `source` names where it came from for the error. */
export function parseBaseUrl(value: string | URL, source = "baseUrl"): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new ConfigurationError(
      `${source} is not a valid URL; expected e.g. ${DEFAULT_BASE_URL}.`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(
      `${source} must use http or https, not ${url.protocol.replace(":", "")}.`,
    );
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new ConfigurationError(
      `${source} must be a plain origin or path, without credentials, query or fragment.`,
    );
  }
  return url;
}

/** Blank values count as unset: env files often carry `NAME=` lines. */
const trimmed = z.string().transform((s) => s.trim()).pipe(z.string()).optional()
  .transform((s) => (s === "" ? undefined : s));

const EnvSchema = z.object({
  BASECRADLE_BASE_URL: trimmed,
  BASECRADLE_TOKEN: trimmed.refine((s) => s === undefined || !/\s/.test(s), {
    message: "must not contain whitespace",
  }),
  BASECRADLE_EMAIL: trimmed.refine((s) => s === undefined || z.email().safeParse(s).success, {
    message: "must be an email address",
  }),
  // Passwords are taken verbatim: leading or trailing spaces may be part of them.
  BASECRADLE_PASSWORD: z.string().optional().transform((s) => (s === "" ? undefined : s)),
  BASECRADLE_SESSION_NAME: trimmed,
});

/**
 * Whether `credentials` can authenticate: a token, or an email and a password to mint one.
 * Options from {@link optionsFromEnv} carry either both of the pair or neither.
 */
export function hasCredentials(credentials: Credentials): boolean {
  return credentials.token !== undefined ||
    (credentials.email !== undefined && credentials.password !== undefined);
}

/**
 * The sentence a command that reads its credentials from the environment says when there are
 * none, naming the variables to set.
 */
export const NO_CREDENTIALS_IN_ENV =
  "No platform credential: set BASECRADLE_TOKEN to this agent's API token, or " +
  "BASECRADLE_EMAIL and BASECRADLE_PASSWORD to sign in with.";

/** The variables `optionsFromEnv` reads. */
export const ENV_VARS: readonly string[] = Object.keys(EnvSchema.shape);

/**
 * Builds client options from BASECRADLE_BASE_URL, BASECRADLE_TOKEN, BASECRADLE_EMAIL,
 * BASECRADLE_PASSWORD and BASECRADLE_SESSION_NAME.
 */
export function optionsFromEnv(
  env: EnvReader = (name) => Deno.env.get(name),
): PlatformClientOptions {
  const raw = Object.fromEntries(ENV_VARS.map((name) => [name, env(name)]));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    throw new ConfigurationError(`${name} ${issue?.message ?? "is invalid"}.`);
  }
  const v = parsed.data;
  if ((v.BASECRADLE_EMAIL === undefined) !== (v.BASECRADLE_PASSWORD === undefined)) {
    const missing = v.BASECRADLE_EMAIL === undefined ? "BASECRADLE_EMAIL" : "BASECRADLE_PASSWORD";
    throw new ConfigurationError(
      `${missing} is not set; minting a token needs both BASECRADLE_EMAIL and BASECRADLE_PASSWORD.`,
    );
  }
  const baseUrl = v.BASECRADLE_BASE_URL === undefined
    ? undefined
    : parseBaseUrl(v.BASECRADLE_BASE_URL, "BASECRADLE_BASE_URL");
  return {
    baseUrl,
    token: v.BASECRADLE_TOKEN,
    email: v.BASECRADLE_EMAIL,
    password: v.BASECRADLE_PASSWORD,
    sessionName: v.BASECRADLE_SESSION_NAME,
  };
}
