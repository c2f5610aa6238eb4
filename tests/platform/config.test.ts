import assert from "node:assert/strict";
import { json, startStub } from "../support/http_stub.ts";
import {
  ConfigurationError,
  DEFAULT_BASE_URL,
  optionsFromEnv,
  PlatformClient,
} from "../../lib/platform/mod.ts";

function envOf(vars: Record<string, string>) {
  return (name: string) => vars[name];
}

Deno.test("no environment means the public platform and no credentials", () => {
  const options = optionsFromEnv(envOf({}));
  assert.equal(options.baseUrl, undefined);
  assert.equal(options.token, undefined);
  assert.equal(new PlatformClient(options).baseUrl.href, `${DEFAULT_BASE_URL}/`);
});

Deno.test("all five variables are read; blank ones count as unset", () => {
  const options = optionsFromEnv(envOf({
    BASECRADLE_BASE_URL: " http://localhost:3000 ",
    BASECRADLE_TOKEN: "bc_uat_abc\n",
    BASECRADLE_EMAIL: "vega@example.com",
    BASECRADLE_PASSWORD: " spaced pass ",
    BASECRADLE_SESSION_NAME: "",
  }));
  assert.equal(String(options.baseUrl), "http://localhost:3000/");
  assert.equal(options.token, "bc_uat_abc");
  assert.equal(options.email, "vega@example.com");
  assert.equal(options.password, " spaced pass ", "passwords are taken verbatim");
  assert.equal(options.sessionName, undefined);
});

Deno.test("an invalid base URL names the variable", () => {
  for (const bad of ["not a url", "ftp://basecradle.com", "https://basecradle.com/?x=1"]) {
    assert.throws(
      () => optionsFromEnv(envOf({ BASECRADLE_BASE_URL: bad })),
      (e: unknown) => e instanceof ConfigurationError && /^BASECRADLE_BASE_URL /.test(e.message),
      bad,
    );
  }
});

Deno.test("an invalid email names the variable; a lone password names the missing email", () => {
  assert.throws(
    () => optionsFromEnv(envOf({ BASECRADLE_EMAIL: "nope", BASECRADLE_PASSWORD: "x" })),
    /BASECRADLE_EMAIL must be an email address/,
  );
  const err = (() => {
    try {
      optionsFromEnv(envOf({ BASECRADLE_PASSWORD: "hunter2-secret" }));
    } catch (e) {
      return e as Error;
    }
  })();
  assert.ok(err instanceof ConfigurationError);
  assert.match(err.message, /BASECRADLE_EMAIL is not set/);
  assert.ok(!err.message.includes("hunter2-secret"));
});

Deno.test("fromEnv builds a working client; overrides win", async () => {
  await using stub = await startStub(() =>
    json({ identity: { uuid: "u", handle: "h", name: "n", kind: "ai" } })
  );
  const client = PlatformClient.fromEnv(
    { timeoutMs: 1000 },
    envOf({ BASECRADLE_BASE_URL: stub.url, BASECRADLE_TOKEN: "bc_uat_env" }),
  );
  await client.users.dashboard();
  assert.equal(stub.requests[0].headers.get("authorization"), "Bearer bc_uat_env");
});

Deno.test("a base URL with a path prefix keeps it", async () => {
  await using stub = await startStub(() => json({ users: [] }));
  await new PlatformClient({ baseUrl: `${stub.url}/platform/`, token: "t" }).users.list();
  assert.equal(stub.requests[0].path, "/platform/users");
});

Deno.test("constructor rejects a bad timeout and a token with whitespace", () => {
  assert.throws(() => new PlatformClient({ timeoutMs: 0 }), ConfigurationError);
  assert.throws(() => new PlatformClient({ token: "bc_uat_a b" }), ConfigurationError);
  assert.throws(() => new PlatformClient({ baseUrl: "mailto:x@y" }), ConfigurationError);
});
