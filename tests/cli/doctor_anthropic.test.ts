/**
 * `harness doctor`'s model row on `AI_PROVIDER=anthropic`: the real anthropic SDK asks the
 * Messages models API (`GET /v1/models/<AI_MODEL>`) of the sandbox's model and of a wire mock —
 * accepted, the key refused, the model unknown, nothing listening.
 */
import assert from "node:assert/strict";
import { checkModel } from "../../lib/cli/doctor_reach.ts";
import { parseEnv } from "../../lib/config/env.ts";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { anthropicError, closedPort, ModelMock } from "../support/model_mock.ts";

function env(baseURL: string, model = "claude-test") {
  return parseEnv({
    AI_PROVIDER: "anthropic",
    AI_BASE_URL: baseURL,
    AI_MODEL: model,
    AI_API_KEY: "sk-ant-test",
  });
}

Deno.test("doctor (anthropic): the sandbox's model accepts the key and knows the model", async () => {
  const sandbox = await Sandbox.start({ port: 0, log: () => {} });
  try {
    const [row] = await checkModel(env(sandbox.anthropicModelUrl, "sandbox-demo"), 10_000);
    assert.equal(row.status, "OK", row.detail);
    assert.match(row.detail, /accepted the key and knows 'sandbox-demo'/);
  } finally {
    await sandbox.close();
  }
});

Deno.test("doctor (anthropic): a refused key, an unknown model, nothing listening", async () => {
  await using mock = await ModelMock.start();
  mock.reply(
    "model",
    { status: 401, json: anthropicError("authentication_error", "invalid x-api-key") },
    { status: 404, json: anthropicError("not_found_error", "model: claude-nope") },
  );
  const [refused] = await checkModel(env(mock.origin), 10_000);
  assert.equal(refused.status, "FAIL");
  assert.match(refused.detail, /refused the key with HTTP 401/);
  assert.match(refused.fix ?? "", /AI_API_KEY/);
  const [unknown] = await checkModel(env(mock.origin, "claude-nope"), 10_000);
  assert.equal(unknown.status, "FAIL");
  assert.match(unknown.detail, /has no model 'claude-nope'/);
  assert.equal(mock.requestsTo("model")[1].path, "/v1/models/claude-nope");
  const [down] = await checkModel(env(`http://127.0.0.1:${closedPort()}`), 10_000);
  assert.equal(down.status, "FAIL");
  assert.match(down.detail, /did not answer/);
  assert.match(down.fix ?? "", /AI_BASE_URL/);
});
