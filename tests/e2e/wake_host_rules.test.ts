/**
 * Host rules in a real wake (docs/security.md#host-rules): `host_rules.json` is in force from the
 * wake's first platform read, the model call is checked too, and a wake whose hosts are listed
 * runs as it always does. The sandbox and the model mock both listen on 127.0.0.1; `localhost`
 * names the same machine, so only the rules can tell the two spellings apart.
 */
import assert from "node:assert/strict";
import { say, scriptReply, world } from "./wake_support.ts";

async function rules(home: string, allow: string[]): Promise<void> {
  await Deno.mkdir(`${home}/config`, { recursive: true });
  await Deno.writeTextFile(`${home}/config/host_rules.json`, JSON.stringify({ allow }));
}

Deno.test("a platform host the rules do not list: refused before the wake's first request", async () => {
  await using w = await world();
  await say(w, "hello?");
  await rules(w.home, ["localhost"]);
  const before = w.sandbox.requests.length;
  const result = await w.wake();
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /WARNING host refused host=127\.0\.0\.1 via=platform/);
  assert.match(result.stderr, /host '127\.0\.0\.1', which the host rules in .*host_rules\.json/);
  assert.equal(w.sandbox.requests.length, before, "nothing reached the platform");
  assert.equal(w.model.hits(), 0);
});

Deno.test("a model host the rules do not list: the turn's model call is refused, not retried", async () => {
  await using w = await world();
  await say(w, "hello?");
  scriptReply(w.model, "hi there");
  await rules(w.home, ["127.0.0.1"]);
  const result = await w.wake([], {
    AI_BASE_URL: w.model.baseURL.replace("127.0.0.1", "localhost"),
  });
  const refusals = result.stderr.split("\n").filter((l) => l.includes("host refused"));
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /ERROR wake failed timeline=\S+ error="host 'localhost', which the host rules/,
  );
  assert.equal(refusals.length, 1, "one attempt, never retried");
  assert.match(refusals[0], /WARNING host refused host=localhost via=model/);
  assert.equal(w.model.hits(), 0, "nothing reached the model");
});

Deno.test("every host listed: the wake answers as it always does", async () => {
  await using w = await world();
  await say(w, "hello?");
  scriptReply(w.model, "hi there");
  await rules(w.home, ["127.0.0.1"]);
  const result = await w.wake();
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /host refused/);
  assert.ok(w.model.hits() > 0);
});
