import assert from "node:assert/strict";
import { Engine } from "../../lib/core/engine.ts";
import {
  ProviderAuthError,
  ProviderConnectionError,
  ProviderRateLimitError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderServerError,
} from "../../lib/core/types/faults.ts";
import { Message } from "../../lib/core/types/message.ts";
import { ToolRegistry } from "../../lib/core/registry.ts";
import { RecordingJournal, recordingSleep, ScriptedProvider, text } from "./engine_fixtures.ts";

function setup(script: ConstructorParameters<typeof ScriptedProvider>[0], retries?: number) {
  const journal = new RecordingJournal();
  const { waits, sleep } = recordingSleep();
  const provider = new ScriptedProvider(script);
  const engine = new Engine(provider, new ToolRegistry(), {
    journal,
    sleep,
    ...(retries === undefined ? {} : { responseRetries: retries }),
  });
  return { journal, waits, provider, engine };
}

Deno.test("retry: an unparseable response is retried, then succeeds", async () => {
  const { journal, waits, provider, engine } = setup([
    new ProviderResponseError("EOF while parsing a value"),
    new ProviderResponseError("EOF again"),
    text("recovered"),
  ]);
  const result = await engine.run([Message.user("hi")]);
  assert.equal(result.text, "recovered");
  assert.equal(provider.calls.length, 3);
  assert.deepEqual(waits, [500, 1000]);
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING Provider returned an unparseable response (attempt 1/3): EOF while parsing a value " +
    "— retrying in 0.5s",
    "WARNING Provider returned an unparseable response (attempt 2/3): EOF again — retrying in 1.0s",
  ]);
  assert.deepEqual(journal.at("ERROR"), []);
  // A retried call is still one step with one llm line.
  assert.equal(journal.lines().filter((l) => l.startsWith("INFO llm ")).length, 1);
  assert.equal(result.steps, 1);
});

Deno.test("retry: a 5xx on every attempt gives up after retries+1 with an ERROR", async () => {
  const fault = () => new ProviderServerError("upstream fell over", 503);
  const last = fault();
  const { journal, waits, provider, engine } = setup([fault(), fault(), last, text("never")]);
  await assert.rejects(engine.run([Message.user("hi")]), (error) => error === last);
  assert.equal(provider.calls.length, 3);
  assert.deepEqual(waits, [500, 1000]);
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING Provider failed on its own side (HTTP 503) (attempt 1/3): upstream fell over — " +
    "retrying in 0.5s",
    "WARNING Provider failed on its own side (HTTP 503) (attempt 2/3): upstream fell over — " +
    "retrying in 1.0s",
  ]);
  assert.deepEqual(journal.at("ERROR"), [
    "ERROR Provider failed on its own side (HTTP 503) on all 3 attempt(s); giving up: " +
    "upstream fell over",
  ]);
});

Deno.test("retry: the attempt count follows responseRetries", async () => {
  const faults = Array.from({ length: 6 }, () => new ProviderResponseError("bad"));
  const { journal, waits, provider, engine } = setup([...faults, text("x")], 4);
  await assert.rejects(engine.run([Message.user("hi")]), ProviderResponseError);
  assert.equal(provider.calls.length, 5);
  assert.deepEqual(waits, [500, 1000, 1500, 2000]);
  assert.equal(journal.at("WARNING").length, 4);
  assert.deepEqual(journal.at("ERROR"), [
    "ERROR Provider returned an unparseable response on all 5 attempt(s); giving up: bad",
  ]);
});

Deno.test("retry: responseRetries=0 disables the retry", async () => {
  const { journal, waits, provider, engine } = setup(
    [new ProviderResponseError("bad"), text("x")],
    0,
  );
  await assert.rejects(engine.run([Message.user("hi")]), ProviderResponseError);
  assert.equal(provider.calls.length, 1);
  assert.deepEqual(waits, []);
  assert.deepEqual(journal.at("ERROR"), [
    "ERROR Provider returned an unparseable response on all 1 attempt(s); giving up: bad",
  ]);
});

for (
  const [label, fault] of [
    ["auth (401)", new ProviderAuthError("invalid key", 401)],
    ["connection", new ProviderConnectionError("connection refused")],
    ["rate limit (429)", new ProviderRateLimitError("slow down", 429, undefined, 1)],
    ["generic 4xx", new ProviderRequestError("unknown parameter", 400)],
    ["plain Error", new TypeError("bug in an adapter")],
  ] as const
) {
  Deno.test(`retry: a ${label} fault propagates on the first attempt`, async () => {
    const { journal, waits, provider, engine } = setup([fault, text("never")]);
    await assert.rejects(engine.run([Message.user("hi")]), (error) => error === fault);
    assert.equal(provider.calls.length, 1);
    assert.deepEqual(waits, []);
    assert.deepEqual(journal.at("WARNING"), []);
    assert.deepEqual(journal.at("ERROR"), []);
  });
}
