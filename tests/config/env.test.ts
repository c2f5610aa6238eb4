/**
 * The environment schema (docs/environment.md): defaults, validation, truthiness, secrets, matrix.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/config/errors.ts";
import {
  ENV_DEFAULTS,
  ENV_VARIABLES,
  type HarnessEnv,
  parseEnv,
  SECRET_VARIABLES,
} from "../../lib/config/env.ts";
import { ProviderConfigError, validateModelAxes } from "../../lib/providers/factory.ts";

/** Parses `vars` and returns the ConfigError it must throw. */
function refused(vars: Record<string, string>): ConfigError {
  try {
    parseEnv(vars);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${error}`);
    return error;
  }
  assert.fail(`expected ${JSON.stringify(vars)} to be refused`);
}

/** Asserts `vars` is refused with one issue naming `variable` and containing every `parts`. */
function assertRefused(vars: Record<string, string>, variable: string, ...parts: string[]) {
  const error = refused(vars);
  assert.equal(error.variable, variable, error.message);
  assert.ok(error.message.includes(variable), error.message);
  for (const part of parts) assert.ok(error.message.includes(part), `${part} ∉ ${error.message}`);
}

Deno.test("unset environment: every documented default", () => {
  const env = parseEnv({});
  assert.equal(env.aiProvider, "openai");
  assert.equal(env.aiSdk, "openai");
  assert.equal(env.aiSdkSurface, "responses");
  assert.equal(env.aiModel, undefined);
  assert.equal(env.aiApiKey, undefined);
  assert.equal(env.aiBaseUrl, undefined);
  assert.equal(env.harnessHome, undefined);
  assert.equal(env.maxSteps, 24);
  assert.equal(env.responseRetries, 2);
  assert.equal(env.maxContextTokens, undefined);
  assert.equal(env.contextMessages, 50);
  assert.equal(env.onboard, true);
  assert.equal(env.profile, "locked");
  assert.equal(env.memoryProvider, "sqlite");
  assert.equal(env.mcpTimeoutSeconds, 20);
  assert.equal(env.wakeBreakerMax, 10);
  assert.equal(env.wakeBreakerWindowSeconds, 60);
  assert.equal(env.wakeBreakerCooldownSeconds, 60);
  assert.equal(env.catchUp, true);
  assert.equal(env.wakeStartedAt, undefined);
  assert.equal(env.paceEnabled, true);
  assert.equal(env.paceCharsPerSec, 17);
  assert.equal(env.paceFloorSeconds, 20);
  assert.equal(env.paceMaxBuilds, 3);
  assert.equal(env.logLevel, 20);
  assert.equal(env.systemPrompt, undefined);
  assert.equal(env.baseUrl, undefined);
  assert.equal(env.token, undefined);
  assert.equal(env.deliveryId, undefined);
  assert.equal(env.nocProbeSecret, undefined);
  assert.equal(env.agentSlug, undefined);
  assert.equal(env.noColor, false);
  assert.deepEqual(env.warnings, []);
  assert.equal(ENV_DEFAULTS.maxSteps, 24);
});

Deno.test("a reader function works like a mapping", () => {
  const vars: Record<string, string> = { HARNESS_MAX_STEPS: "7", AI_MODEL: "m" };
  const env = parseEnv((name) => vars[name]);
  assert.equal(env.maxSteps, 7);
  assert.equal(env.aiModel, "m");
});

Deno.test("blank values count as unset for text and blank-means-default knobs", () => {
  const env = parseEnv({
    AI_MODEL: "  ",
    HARNESS_HOME: "",
    HARNESS_MAX_STEPS: " ",
    HARNESS_RESPONSE_RETRIES: "",
    HARNESS_MAX_CONTEXT_TOKENS: "",
    HARNESS_WAKE_BREAKER_MAX: "",
    HARNESS_WAKE_BREAKER_WINDOW: "",
    HARNESS_PACE_CHARS_PER_SEC: "",
    HARNESS_PACE_FLOOR_SECONDS: "",
    HARNESS_PACE_MAX_BUILDS: "",
    HARNESS_LOG_LEVEL: "",
    HARNESS_MCP_TIMEOUT: "",
  });
  assert.equal(env.aiModel, undefined);
  assert.equal(env.harnessHome, undefined);
  assert.equal(env.maxSteps, 24);
  assert.equal(env.responseRetries, 2);
  assert.equal(env.maxContextTokens, undefined);
  assert.equal(env.wakeBreakerMax, 10);
  assert.equal(env.wakeBreakerWindowSeconds, 60);
  assert.equal(env.paceCharsPerSec, 17);
  assert.equal(env.paceFloorSeconds, 20);
  assert.equal(env.paceMaxBuilds, 3);
  assert.equal(env.logLevel, 20);
  assert.equal(env.mcpTimeoutSeconds, 20);
  assert.deepEqual(env.warnings, []);
});

Deno.test("valid values are parsed and trimmed", () => {
  const env: HarnessEnv = parseEnv({
    AI_MODEL: " gpt-x ",
    AI_API_KEY: "sk-1",
    AI_BASE_URL: "http://127.0.0.1:8080/v1",
    HARNESS_HOME: " /var/agent ",
    HARNESS_MAX_STEPS: " 40 ",
    HARNESS_RESPONSE_RETRIES: "0",
    HARNESS_MAX_CONTEXT_TOKENS: "0",
    HARNESS_WAKE_BREAKER_MAX: "-1",
    HARNESS_WAKE_BREAKER_WINDOW: "30.5",
    HARNESS_PACE_CHARS_PER_SEC: "-2",
    HARNESS_PACE_FLOOR_SECONDS: "0",
    HARNESS_LOG_LEVEL: "debug",
    HARNESS_SYSTEM_PROMPT: "  Be kind.  ",
    HARNESS_MEMORY_PROVIDER: " ./mem.ts#Mem ",
    XAI_TEAM_ID: "team",
    HOME: "/home/a",
    NO_COLOR: "1",
  });
  assert.equal(env.aiModel, "gpt-x");
  assert.equal(env.aiApiKey, "sk-1");
  assert.equal(env.aiBaseUrl, "http://127.0.0.1:8080/v1");
  assert.equal(env.harnessHome, "/var/agent");
  assert.equal(env.maxSteps, 40);
  assert.equal(env.responseRetries, 0);
  assert.equal(env.maxContextTokens, 0);
  assert.equal(env.wakeBreakerMax, -1);
  assert.equal(env.wakeBreakerWindowSeconds, 30.5);
  assert.equal(env.wakeBreakerCooldownSeconds, 30.5, "cooldown defaults to the window");
  assert.equal(env.paceCharsPerSec, -2);
  assert.equal(env.paceFloorSeconds, 0);
  assert.equal(env.logLevel, 10);
  assert.equal(env.systemPrompt, "Be kind.");
  assert.equal(env.memoryProvider, "./mem.ts#Mem");
  assert.equal(env.xaiTeamId, "team");
  assert.equal(env.home, "/home/a");
  assert.equal(env.noColor, true);
});

Deno.test("integer knobs refuse junk, naming the variable, the value and the accepted range", () => {
  assertRefused({ HARNESS_MAX_STEPS: "-3" }, "HARNESS_MAX_STEPS", "from 1 to 1000", "'-3'");
  assert.equal(
    refused({ HARNESS_MAX_STEPS: "-3" }).message,
    "HARNESS_MAX_STEPS must be an integer from 1 to 1000, got '-3'.",
  );
  assertRefused({ HARNESS_MAX_STEPS: "0" }, "HARNESS_MAX_STEPS", "'0'");
  assertRefused({ HARNESS_MAX_STEPS: "2.5" }, "HARNESS_MAX_STEPS", "'2.5'");
  assertRefused({ HARNESS_MAX_STEPS: "ten" }, "HARNESS_MAX_STEPS", "'ten'");
  assertRefused({ HARNESS_MAX_STEPS: "1e3" }, "HARNESS_MAX_STEPS");
  assertRefused({ HARNESS_MAX_STEPS: "99999999999999999999" }, "HARNESS_MAX_STEPS");
  assertRefused({ HARNESS_RESPONSE_RETRIES: "-1" }, "HARNESS_RESPONSE_RETRIES", "from 0 to 10");
  assertRefused({ HARNESS_MAX_CONTEXT_TOKENS: "-5" }, "HARNESS_MAX_CONTEXT_TOKENS", "'-5'");
  assertRefused({ HARNESS_MAX_CONTEXT_TOKENS: "128k" }, "HARNESS_MAX_CONTEXT_TOKENS");
  assertRefused({ HARNESS_WAKE_BREAKER_MAX: "many" }, "HARNESS_WAKE_BREAKER_MAX", "integer");
  assertRefused({ HARNESS_PACE_MAX_BUILDS: "3.5" }, "HARNESS_PACE_MAX_BUILDS", "'3.5'");
});

Deno.test("integers accept a sign and surrounding whitespace, like Python's int()", () => {
  assert.equal(parseEnv({ HARNESS_MAX_STEPS: "+5" }).maxSteps, 5);
  assert.equal(parseEnv({ HARNESS_MAX_STEPS: "\t12\n" }).maxSteps, 12);
  assert.equal(parseEnv({ HARNESS_MAX_STEPS: "007" }).maxSteps, 7);
});

Deno.test("decimal knobs accept Python float forms and refuse junk and negatives", () => {
  assert.equal(parseEnv({ HARNESS_WAKE_BREAKER_WINDOW: "1e2" }).wakeBreakerWindowSeconds, 100);
  assert.equal(parseEnv({ HARNESS_PACE_FLOOR_SECONDS: ".5" }).paceFloorSeconds, 0.5);
  assert.equal(parseEnv({ HARNESS_PACE_FLOOR_SECONDS: "5." }).paceFloorSeconds, 5);
  assertRefused({ HARNESS_WAKE_BREAKER_WINDOW: "soon" }, "HARNESS_WAKE_BREAKER_WINDOW", "'soon'");
  assertRefused({ HARNESS_WAKE_BREAKER_WINDOW: "-1" }, "HARNESS_WAKE_BREAKER_WINDOW");
  assertRefused({ HARNESS_WAKE_BREAKER_WINDOW: "inf" }, "HARNESS_WAKE_BREAKER_WINDOW");
  assertRefused({ HARNESS_WAKE_BREAKER_COOLDOWN: "nan" }, "HARNESS_WAKE_BREAKER_COOLDOWN");
  assertRefused({ HARNESS_PACE_CHARS_PER_SEC: "fast" }, "HARNESS_PACE_CHARS_PER_SEC");
  assertRefused({ HARNESS_PACE_FLOOR_SECONDS: "-3" }, "HARNESS_PACE_FLOOR_SECONDS", "'-3'");
});

Deno.test("breaker cooldown: its own value when set, the window when blank", () => {
  const set = parseEnv({ HARNESS_WAKE_BREAKER_WINDOW: "90", HARNESS_WAKE_BREAKER_COOLDOWN: "5" });
  assert.equal(set.wakeBreakerCooldownSeconds, 5);
  const blank = parseEnv({ HARNESS_WAKE_BREAKER_WINDOW: "90", HARNESS_WAKE_BREAKER_COOLDOWN: " " });
  assert.equal(blank.wakeBreakerCooldownSeconds, 90);
});

Deno.test("HARNESS_WAKE_STARTED_AT: epoch seconds, or a refusal naming what it accepts", () => {
  assert.equal(
    parseEnv({ HARNESS_WAKE_STARTED_AT: "1796075529.125" }).wakeStartedAt,
    1796075529.125,
  );
  assert.equal(parseEnv({ HARNESS_WAKE_STARTED_AT: " " }).wakeStartedAt, undefined);
  assertRefused(
    { HARNESS_WAKE_STARTED_AT: "yesterday" },
    "HARNESS_WAKE_STARTED_AT",
    "epoch seconds",
    "'yesterday'",
  );
  assertRefused({ HARNESS_WAKE_STARTED_AT: "-1" }, "HARNESS_WAKE_STARTED_AT");
});

Deno.test("HARNESS_PACE_MAX_BUILDS is at least 1", () => {
  assert.equal(parseEnv({ HARNESS_PACE_MAX_BUILDS: "0" }).paceMaxBuilds, 1);
  assert.equal(parseEnv({ HARNESS_PACE_MAX_BUILDS: "-4" }).paceMaxBuilds, 1);
  assert.equal(parseEnv({ HARNESS_PACE_MAX_BUILDS: "5" }).paceMaxBuilds, 5);
});

Deno.test("HARNESS_CONTEXT_MESSAGES: all (any case), an integer, and the empty-string error", () => {
  assert.equal(parseEnv({ HARNESS_CONTEXT_MESSAGES: "all" }).contextMessages, "all");
  assert.equal(parseEnv({ HARNESS_CONTEXT_MESSAGES: " ALL " }).contextMessages, "all");
  assert.equal(parseEnv({ HARNESS_CONTEXT_MESSAGES: "200" }).contextMessages, 200);
  assert.equal(parseEnv({ HARNESS_CONTEXT_MESSAGES: "0" }).contextMessages, 0);
  // Unlike the other knobs, an empty value is an error, not the default (the reference's int("")).
  assertRefused({ HARNESS_CONTEXT_MESSAGES: "" }, "HARNESS_CONTEXT_MESSAGES", "'all'", "got ''");
  assertRefused({ HARNESS_CONTEXT_MESSAGES: "-1" }, "HARNESS_CONTEXT_MESSAGES", "'-1'");
  assertRefused({ HARNESS_CONTEXT_MESSAGES: "everything" }, "HARNESS_CONTEXT_MESSAGES");
});

Deno.test("flags: only 0/false/no/off (any case, padded) turn them off; empty is not falsy", () => {
  for (const value of ["0", "false", "FALSE", " No ", "off", "Off\n"]) {
    assert.equal(parseEnv({ HARNESS_ONBOARD: value }).onboard, false, value);
    assert.equal(parseEnv({ HARNESS_PACE_ENABLED: value }).paceEnabled, false, value);
    assert.equal(parseEnv({ HARNESS_CATCH_UP: value }).catchUp, false, value);
  }
  for (const value of ["", " ", "1", "true", "yes", "on", "nope", "disabled", "00"]) {
    assert.equal(parseEnv({ HARNESS_ONBOARD: value }).onboard, true, JSON.stringify(value));
    assert.equal(parseEnv({ HARNESS_PACE_ENABLED: value }).paceEnabled, true, value);
    assert.equal(parseEnv({ HARNESS_CATCH_UP: value }).catchUp, true, value);
  }
});

Deno.test("HARNESS_PROFILE fails closed to locked, with a warning for a typo", () => {
  assert.equal(parseEnv({ HARNESS_PROFILE: "unlocked" }).profile, "unlocked");
  assert.equal(parseEnv({ HARNESS_PROFILE: " UNLOCKED " }).profile, "unlocked");
  assert.equal(parseEnv({ HARNESS_PROFILE: "locked" }).profile, "locked");
  assert.deepEqual(parseEnv({ HARNESS_PROFILE: "locked" }).warnings, []);
  assert.equal(parseEnv({ HARNESS_PROFILE: "" }).profile, "locked");
  const typo = parseEnv({ HARNESS_PROFILE: "unlokced" });
  assert.equal(typo.profile, "locked");
  assert.equal(typo.warnings.length, 1);
  assert.match(typo.warnings[0], /HARNESS_PROFILE='unlokced'.*running locked/);
  assert.equal(parseEnv({ HARNESS_PROFILE: "open" }).profile, "locked");
});

Deno.test("HARNESS_MCP_TIMEOUT is lenient: junk or ≤0 falls back to 20 with a warning", () => {
  assert.equal(parseEnv({ HARNESS_MCP_TIMEOUT: "2.5" }).mcpTimeoutSeconds, 2.5);
  for (const value of ["0", "-1", "soon", "inf"]) {
    const env = parseEnv({ HARNESS_MCP_TIMEOUT: value });
    assert.equal(env.mcpTimeoutSeconds, 20, value);
    assert.equal(env.warnings.length, 1, value);
    assert.ok(env.warnings[0].includes("HARNESS_MCP_TIMEOUT"));
  }
});

Deno.test("HARNESS_LOG_LEVEL: names, numbers, and a refusal listing the accepted names", () => {
  assert.equal(parseEnv({ HARNESS_LOG_LEVEL: "WARNING" }).logLevel, 30);
  assert.equal(parseEnv({ HARNESS_LOG_LEVEL: "warn" }).logLevel, 30);
  assert.equal(parseEnv({ HARNESS_LOG_LEVEL: "15" }).logLevel, 15);
  assertRefused({ HARNESS_LOG_LEVEL: "loud" }, "HARNESS_LOG_LEVEL", "DEBUG", "'loud'");
});

Deno.test("HARNESS_MEMORY_PROVIDER: sqlite by default, any case; other specs kept for the loader", () => {
  assert.equal(parseEnv({ HARNESS_MEMORY_PROVIDER: "SQLite" }).memoryProvider, "sqlite");
  assert.equal(parseEnv({ HARNESS_MEMORY_PROVIDER: " " }).memoryProvider, "sqlite");
  assert.equal(parseEnv({ HARNESS_MEMORY_PROVIDER: "mempalace" }).memoryProvider, "mempalace");
});

Deno.test("AI_BASE_URL must be an http(s) URL", () => {
  assertRefused({ AI_BASE_URL: "api.openai.com" }, "AI_BASE_URL", "'api.openai.com'", "http(s)");
  assertRefused({ AI_BASE_URL: "ftp://x/v1" }, "AI_BASE_URL");
});

Deno.test("NTFY_DM_URL must be an http(s) URL; blank reads as unset", () => {
  assertRefused({ NTFY_DM_URL: "ntfy.sh/topic" }, "NTFY_DM_URL", "'ntfy.sh/topic'", "http(s)");
  assertRefused({ NTFY_DM_URL: "ftp://x/topic" }, "NTFY_DM_URL");
  assert.equal(parseEnv({ NTFY_DM_URL: " " }).ntfyDmUrl, undefined);
  assert.equal(
    parseEnv({ NTFY_DM_URL: " http://127.0.0.1:8/dm " }).ntfyDmUrl,
    "http://127.0.0.1:8/dm",
  );
});

Deno.test("XAI_MANAGEMENT_URL must be an http(s) URL", () => {
  assertRefused({ XAI_MANAGEMENT_URL: "management-api.x.ai" }, "XAI_MANAGEMENT_URL", "http(s)");
  assert.equal(
    parseEnv({ XAI_MANAGEMENT_URL: "http://127.0.0.1:5" }).xaiManagementUrl,
    "http://127.0.0.1:5",
  );
});

Deno.test("model axes: defaults per SDK, normalised case, the matrix refusals", () => {
  const xai = parseEnv({ AI_PROVIDER: " XAI ", AI_SDK_SURFACE: "Chat" });
  assert.equal(xai.aiProvider, "xai");
  assert.equal(xai.aiSdkSurface, "chat");
  const native = parseEnv({ AI_PROVIDER: "openrouter", AI_SDK: "openrouter" });
  assert.equal(native.aiSdk, "openrouter");
  assert.equal(native.aiSdkSurface, "chat");
  assertRefused({ AI_PROVIDER: "mistral" }, "AI_PROVIDER", "Unknown AI_PROVIDER 'mistral'");
  // Anthropic is reached through its own SDK: naming the provider picks it.
  const claude = parseEnv({ AI_PROVIDER: "Anthropic" });
  assert.deepEqual([claude.aiProvider, claude.aiSdk, claude.aiSdkSurface], [
    "anthropic",
    "anthropic",
    "messages",
  ]);
  assertRefused({ AI_PROVIDER: "anthropic", AI_SDK: "openai" }, "AI_PROVIDER", "AI_SDK=anthropic");
  assertRefused({ AI_SDK: "anthropic" }, "AI_SDK", "requires AI_PROVIDER=anthropic");
  assertRefused(
    { AI_PROVIDER: "anthropic", AI_SDK_SURFACE: "chat" },
    "AI_SDK_SURFACE",
    "expected one of (messages)",
  );
  assertRefused({ AI_SDK: "langchain" }, "AI_SDK", "AI_SDK='langchain' has no adapter");
  assertRefused({ AI_SDK: "xai-sdk", AI_PROVIDER: "openai" }, "AI_SDK", "requires AI_PROVIDER=xai");
  assertRefused(
    { AI_SDK: "xai-sdk", AI_PROVIDER: "xai", AI_SDK_SURFACE: "responses" },
    "AI_SDK_SURFACE",
    "expected one of (native)",
  );
  // The Python harness's native gRPC profile runs on the openai SDK's Responses surface.
  for (const surface of [undefined, "native", " NATIVE "]) {
    const grok = parseEnv({ AI_SDK: " XAI-SDK ", AI_PROVIDER: "xai", AI_SDK_SURFACE: surface });
    assert.deepEqual(
      [grok.aiProvider, grok.aiSdk, grok.aiSdkSurface, grok.aiSdkConfigured],
      ["xai", "openai", "responses", "xai-sdk"],
    );
  }
  assert.equal(parseEnv({}).aiSdkConfigured, "openai");
  assertRefused({ AI_SDK_SURFACE: "grpc" }, "AI_SDK_SURFACE", "'grpc'", "responses, chat");
  assertRefused(
    { AI_SDK: "openrouter", AI_PROVIDER: "openai" },
    "AI_SDK",
    "requires AI_PROVIDER=openrouter",
  );
  assertRefused({ AI_PROVIDER: "openrouter" }, "AI_PROVIDER", "AI_SDK_SURFACE=chat");
  assert.equal(parseEnv({ AI_PROVIDER: "openrouter", AI_SDK_SURFACE: "chat" }).aiSdk, "openai");
});

Deno.test("validateModelAxes is the factory's own check (one source of truth)", () => {
  assert.deepEqual(validateModelAxes({}), {
    provider: "openai",
    sdk: "openai",
    surface: "responses",
    configuredSdk: "openai",
  });
  assert.throws(() => validateModelAxes({ sdk: "openrouter" }), ProviderConfigError);
});

Deno.test("BASECRADLE_DELIVERY_ID: stripped, empty is absent, charset and length enforced", () => {
  assert.equal(parseEnv({ BASECRADLE_DELIVERY_ID: " d-1:a_b.c " }).deliveryId, "d-1:a_b.c");
  assert.equal(parseEnv({ BASECRADLE_DELIVERY_ID: "" }).deliveryId, undefined);
  assert.equal(parseEnv({ BASECRADLE_DELIVERY_ID: "   " }).deliveryId, undefined);
  assert.equal(parseEnv({ BASECRADLE_DELIVERY_ID: "x".repeat(128) }).deliveryId?.length, 128);
  assertRefused({ BASECRADLE_DELIVERY_ID: "x".repeat(129) }, "BASECRADLE_DELIVERY_ID", "128");
  assertRefused({ BASECRADLE_DELIVERY_ID: "a b" }, "BASECRADLE_DELIVERY_ID", "'a b'");
  assertRefused({ BASECRADLE_DELIVERY_ID: "id=1" }, "BASECRADLE_DELIVERY_ID");
  // A hostile value cannot forge a second line in the error either.
  const forged = refused({ BASECRADLE_DELIVERY_ID: "a\nwake end outcome=ok" });
  assert.ok(!forged.message.includes("\n"), forged.message);
});

Deno.test("platform variables go through the platform client's reader", () => {
  const env = parseEnv({
    BASECRADLE_BASE_URL: "http://127.0.0.1:4000",
    BASECRADLE_EMAIL: "a@b.co",
    BASECRADLE_PASSWORD: " pw ",
    BASECRADLE_SESSION_NAME: "box",
    BASECRADLE_ENV_FILE: "/etc/agent.env",
  });
  assert.equal(env.baseUrl?.href, "http://127.0.0.1:4000/");
  assert.equal(env.email, "a@b.co");
  assert.equal(env.password, " pw ", "passwords are verbatim");
  assert.equal(env.sessionName, "box");
  assert.equal(env.envFile, "/etc/agent.env");
  assertRefused({ BASECRADLE_BASE_URL: "nope" }, "BASECRADLE_BASE_URL");
  assertRefused({ BASECRADLE_EMAIL: "a@b.co" }, "BASECRADLE_PASSWORD", "BASECRADLE_EMAIL");
});

Deno.test("timeline/message/event/asset fallbacks must be UUIDs", () => {
  const id = "0197c0de-0000-7000-8000-000000000001";
  const env = parseEnv({
    BASECRADLE_TIMELINE: ` ${id} `,
    BASECRADLE_MESSAGE: id,
    BASECRADLE_EVENT: "",
    BASECRADLE_ASSET: id.toUpperCase(),
  });
  assert.equal(env.timeline, id);
  assert.equal(env.message, id);
  assert.equal(env.event, undefined);
  assert.equal(env.asset, id.toUpperCase());
  assertRefused({ BASECRADLE_TIMELINE: "general" }, "BASECRADLE_TIMELINE", "UUID", "'general'");
  assertRefused({ BASECRADLE_ASSET: "1234" }, "BASECRADLE_ASSET");
});

Deno.test("identity: config home, agent slug and its OS-user fallback, probe secret", () => {
  assert.equal(parseEnv({ BASECRADLE_CONFIG_HOME: " ~/cfg " }).configHome, "~/cfg");
  assert.equal(parseEnv({ BASECRADLE_AGENT_SLUG: "ada", USER: "u" }).agentSlug, "ada");
  assert.equal(parseEnv({ USER: "u", LOGNAME: "l" }).agentSlug, "l");
  assert.equal(parseEnv({ USERNAME: "w" }).agentSlug, "w");
  assert.equal(parseEnv({ NOC_PROBE_SECRET: "" }).nocProbeSecret, undefined);
  assert.equal(
    parseEnv({ NOC_PROBE_SECRET: " s3 " }).nocProbeSecret,
    " s3 ",
    "an HMAC key is verbatim",
  );
});

Deno.test("secrets are never echoed in a refusal", () => {
  const secret = "sk-live SECRET value";
  const error = refused({ BASECRADLE_TOKEN: secret, HARNESS_MAX_STEPS: "x" });
  assert.ok(error.message.includes("BASECRADLE_TOKEN"), error.message);
  assert.ok(!error.message.includes("SECRET"), error.message);
  for (const name of SECRET_VARIABLES) {
    const attempt = (() => {
      try {
        return JSON.stringify(parseEnv({ [name]: secret, HARNESS_MAX_STEPS: "bad" }));
      } catch (e) {
        return `${(e as Error).message} ${JSON.stringify((e as ConfigError).issues)}`;
      }
    })();
    assert.ok(!attempt.includes("SECRET"), `${name} leaked: ${attempt}`);
  }
});

Deno.test("every refused variable is reported at once, one line", () => {
  const error = refused({ HARNESS_MAX_STEPS: "0", HARNESS_RESPONSE_RETRIES: "-1" });
  assert.deepEqual(error.issues.map((issue) => issue.variable), [
    "HARNESS_MAX_STEPS",
    "HARNESS_RESPONSE_RETRIES",
  ]);
  assert.ok(!error.message.includes("\n"));
});

Deno.test("ENV_VARIABLES covers every model, harness and platform variable", () => {
  const expected = [
    "AI_PROVIDER",
    "AI_SDK",
    "AI_SDK_SURFACE",
    "AI_MODEL",
    "AI_API_KEY",
    "AI_BASE_URL",
    "HARNESS_HOME",
    "HARNESS_MAX_STEPS",
    "HARNESS_RESPONSE_RETRIES",
    "HARNESS_MAX_CONTEXT_TOKENS",
    "HARNESS_CONTEXT_MESSAGES",
    "HARNESS_ONBOARD",
    "HARNESS_PROFILE",
    "HARNESS_MEMORY_PROVIDER",
    "HARNESS_MEMORY_RECALL_K",
    "HARNESS_MEMORY_EMBEDDINGS_MODEL",
    "HARNESS_MEMORY_EMBEDDINGS_URL",
    "MEMPALACE_PALACE_PATH",
    "MEMPAL_PALACE_PATH",
    "HARNESS_MCP_TIMEOUT",
    "HARNESS_WAKE_BREAKER_MAX",
    "HARNESS_WAKE_BREAKER_WINDOW",
    "HARNESS_WAKE_BREAKER_COOLDOWN",
    "HARNESS_CATCH_UP",
    "HARNESS_WAKE_STARTED_AT",
    "HARNESS_PACE_ENABLED",
    "HARNESS_PACE_CHARS_PER_SEC",
    "HARNESS_PACE_FLOOR_SECONDS",
    "HARNESS_PACE_MAX_BUILDS",
    "HARNESS_LOG_LEVEL",
    "HARNESS_SYSTEM_PROMPT",
    "BASECRADLE_TOKEN",
    "BASECRADLE_EMAIL",
    "BASECRADLE_PASSWORD",
    "BASECRADLE_SESSION_NAME",
    "BASECRADLE_ENV_FILE",
    "BASECRADLE_TIMELINE",
    "BASECRADLE_MESSAGE",
    "BASECRADLE_EVENT",
    "BASECRADLE_ASSET",
    "BASECRADLE_CONFIG_HOME",
    "BASECRADLE_AGENT_SLUG",
    "BASECRADLE_DELIVERY_ID",
    "BASECRADLE_BASE_URL",
    "NOC_PROBE_SECRET",
    "NTFY_DM_URL",
    "XAI_MANAGEMENT_URL",
  ];
  for (const name of expected) assert.ok(ENV_VARIABLES.includes(name), name);
});

const UUID_A = "0196a1b2-0000-7000-8000-00000000000a";
const UUID_B = "0196a1b2-0000-7000-8000-00000000000b";

Deno.test("overrides stand in for the variables the command line settled", () => {
  const vars = { BASECRADLE_TIMELINE: UUID_A, BASECRADLE_MESSAGE: UUID_A };
  const env = parseEnv(vars, { timeline: UUID_B, message: UUID_B });
  assert.equal(env.timeline, UUID_B);
  assert.equal(env.message, UUID_B);
  // Not overridden: still read from the variables.
  assert.equal(parseEnv(vars, { timeline: UUID_B }).message, UUID_A);
});

Deno.test("an overridden variable is not judged: a stale malformed value cannot refuse", () => {
  const vars = { BASECRADLE_MESSAGE: "not-a-uuid", BASECRADLE_ASSET: "also bad" };
  assert.throws(() => parseEnv(vars), ConfigError);
  const env = parseEnv(vars, { message: UUID_A, asset: undefined });
  assert.equal(env.message, UUID_A);
  // Present but undefined means unset, whatever the variable holds.
  assert.equal(env.asset, undefined);
});

Deno.test("an override is taken as given only for its own variable", () => {
  assert.throws(
    () => parseEnv({ BASECRADLE_EVENT: "nope" }, { message: UUID_A }),
    (error: unknown) =>
      error instanceof ConfigError && error.issues.some((i) => i.variable === "BASECRADLE_EVENT"),
  );
});

Deno.test("HARNESS_COLD_START_IDLE_SECONDS: default an hour, seconds ≥ 0, 0 or a falsy word turns it off", () => {
  assert.equal(parseEnv({}).coldStartIdleSeconds, 3600);
  assert.equal(parseEnv({ HARNESS_COLD_START_IDLE_SECONDS: "" }).coldStartIdleSeconds, 3600);
  assert.equal(parseEnv({ HARNESS_COLD_START_IDLE_SECONDS: "90.5" }).coldStartIdleSeconds, 90.5);
  for (const off of ["0", "off", "OFF", "false", "no"]) {
    assert.equal(parseEnv({ HARNESS_COLD_START_IDLE_SECONDS: off }).coldStartIdleSeconds, 0, off);
  }
  assertRefused(
    { HARNESS_COLD_START_IDLE_SECONDS: "-1" },
    "HARNESS_COLD_START_IDLE_SECONDS",
    "'-1'",
  );
  assertRefused({ HARNESS_COLD_START_IDLE_SECONDS: "soon" }, "HARNESS_COLD_START_IDLE_SECONDS");
});
