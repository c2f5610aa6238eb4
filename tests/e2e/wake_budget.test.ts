/**
 * The budget guard through real wakes on the sandbox: a wake over budget.json's daily limit makes
 * no model request and claims nothing; the item is answered by the first wake after the UTC day
 * turns (the day's ledger moved to yesterday's name — the clock as the guard reads it); the
 * WARNING and the INFO come once per transition; a per-wake limit reached in one turn leaves the
 * wake's later items pending for the next wake; the notice goes out once per limit and day for
 * the whole box; a wrong budget.json refuses.
 */
import assert from "node:assert/strict";
import { startStub } from "../support/http_stub.ts";
import { runCli } from "../support/run_cli.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { agentPosts, say, upload, world } from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

const today = () => new Date().toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

async function config(home: string, name: string, value: unknown) {
  await Deno.mkdir(`${home}/config`, { recursive: true });
  await Deno.writeTextFile(`${home}/config/${name}`, JSON.stringify(value));
}

/** A reply turn whose model calls report `tokens` prompt tokens each, and a cost. */
function reply(w: Awaited<ReturnType<typeof world>>, body: string, tokens = 100) {
  const usage = { prompt: tokens, completion: 10, cost: 0.25 };
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "call_0", name: "messages", arguments: { action: "create", body } }],
        usage,
      }),
    },
    { json: chatCompletion({ content: "Answered.", usage }) },
  );
}

Deno.test("over the daily limit: no model request, nothing claimed; answered once the day turns", async () => {
  await using w = await world();
  await config(w.home, "budget.json", { usd_per_day: 1 });
  await Deno.mkdir(`${w.home}/budget`, { recursive: true });
  const ledger = `${w.home}/budget/${today()}.jsonl`;
  await Deno.writeTextFile(
    ledger,
    `${JSON.stringify({ timeline: "other", usd: 1.5, tokens: 0 })}\n`,
  );
  await say(w, "@ada are you there?");

  const first = await w.wake();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(w.model.hits("chat"), 0);
  assert.equal((first.stderr.match(/Budget guard EXHAUSTED/g) ?? []).length, 1, first.stderr);
  assert.match(first.stderr, /usd_per_day 1\.5\/1 on \d{4}-\d{2}-\d{2}/);
  assert.deepEqual(await agentPosts(w), []);

  const resolved = await runCli(["resolved-config"], { env: w.env });
  assert.equal(resolved.code, 0, resolved.stderr);
  const budget = JSON.parse(resolved.stdout).budget;
  assert.deepEqual(budget, {
    usd_per_wake: null,
    usd_per_day: 1,
    tokens_per_wake: null,
    tokens_per_day: null,
    today: { day: today(), usd: 1.5, tokens: 0 },
  });

  const again = await w.wake(); // still over: declines again, without a second WARNING
  assert.equal(again.code, 0, again.stderr);
  assert.equal(w.model.hits("chat"), 0);
  assert.doesNotMatch(again.stderr, /Budget guard EXHAUSTED/);

  // The UTC day turns: yesterday's spend no longer counts.
  await Deno.rename(ledger, `${w.home}/budget/${yesterday()}.jsonl`);
  reply(w, "Yes, here now.");
  const next = await w.wake();
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stderr, /INFO Budget guard CLEARED/);
  assert.ok(w.model.hits("chat") > 0);
  assert.deepEqual(await agentPosts(w), ["Yes, here now."]);
  // The turn's spend is in today's ledger: 2 calls × (100 + 10) tokens, 2 × 0.25 USD.
  const after = await runCli(["resolved-config"], { env: w.env });
  assert.deepEqual(JSON.parse(after.stdout).budget.today, { day: today(), usd: 0.5, tokens: 220 });
});

Deno.test("a per-wake limit reached in a turn leaves the wake's later items for the next wake", async () => {
  await using w = await world({ third: true });
  await say(w, "first");
  reply(w, "Hi.");
  assert.equal((await w.wake()).code, 0); // sets the marks
  await config(w.home, "budget.json", { tokens_per_wake: 150 });
  await say(w, "second");
  const file = await upload(w, "notes.txt");
  reply(w, "Got it."); // this turn's 220 tokens pass the 150 limit
  const hitsBefore = w.model.hits("chat");
  const wake = await w.wake(["--asset", file.content.uuid]);
  assert.equal(wake.code, 0, wake.stderr);
  assert.equal(w.model.hits("chat") - hitsBefore, 2); // the message turn only
  assert.match(wake.stderr, /Budget guard EXHAUSTED .*tokens_per_wake 220\/150/);
  const records = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim()
    .split("\n");
  assert.equal(records.length, 2);

  // The next wake starts with nothing spent: the asset, left unclaimed, is answered now.
  w.model.reply("chat", { json: chatCompletion({ content: "Noted the file." }) });
  const next = await w.wake(["--asset", file.content.uuid]);
  assert.equal(next.code, 0, next.stderr);
  assert.match(next.stderr, /INFO Budget guard CLEARED/);
  const all = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim()
    .split("\n").map((l) => JSON.parse(l));
  assert.equal(all.at(-1).trigger_items[0].uuid, file.content.uuid);
});

Deno.test("a wrong budget.json refuses the wake naming the file, the key and the fix", async () => {
  await using w = await world();
  await config(w.home, "budget.json", { usd_per_day: "5" });
  await say(w, "@ada hello");
  const result = await w.wake();
  assert.notEqual(result.code, 0);
  assert.match(
    result.stderr,
    /budget\.json key 'usd_per_day' must be a number above 0 and at most 1000000 \(USD\).*Fix:/,
  );
  assert.equal(w.model.hits("chat"), 0);
});

Deno.test("the exhaustion notice goes out once per limit and day, whichever timelines meet it", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  await config(w.home, "budget.json", { tokens_per_wake: 150 });
  await config(w.home, "escalation.json", { enabled: true, on: ["budget_exhausted"] });
  const { timeline: other } = await w.peer.client.timelines.create({ name: "second" });
  await w.peer.client.timelines.addParticipant(other.uuid, w.agent.uuid);
  const env = { NTFY_DM_TOKEN: "tk_budget_e2e", NTFY_DM_URL: `${ntfy.url}/alerts` };
  // One wake on each timeline, one after the other; each turn's 220 tokens pass the limit.
  await say(w, "@ada first");
  reply(w, "One.");
  const first = await w.wake([], env);
  assert.equal(first.code, 0, first.stderr);
  await w.peer.client.messages.create(other.uuid, asUser("message", { body: "@ada second" }));
  reply(w, "Two.");
  const second = await runCli(["wake", "--timeline", other.uuid], { env: { ...w.env, ...env } });
  assert.equal(second.code, 0, second.stderr);
  for (const result of [first, second]) {
    assert.match(result.stderr, /WARNING Budget guard EXHAUSTED .*tokens_per_wake 220\/150/);
  }
  assert.equal(ntfy.requests.length, 1, second.stderr);
  assert.ok(ntfy.requests[0].text().includes(`Timeline: ${w.timeline}\n`));
  assert.doesNotMatch(second.stderr, /escalation (sent|failed)/);
});
