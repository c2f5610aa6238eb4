/**
 * `AI_PROVIDER=anthropic` end to end: the real `harness wake` process, the real anthropic SDK,
 * answering through the `messages` tool — against a scripted wire mock (the captured requests
 * carry exactly two cache breakpoints where the design puts them; usage with cache reads and
 * writes reaches the journal and the turn record) and against the sandbox's deterministic model
 * (no key, no network; its prompt cache is read on the second wake). The same file checks the
 * OpenAI side of the cache discipline: `prompt_cache_key` on the Responses surface.
 */
import assert from "node:assert/strict";
import { promptCacheKey } from "../../lib/providers/cache_key.ts";
import { runCli } from "../support/run_cli.ts";
import { anthropicMessage, chatCompletion, responsesReply } from "../support/model_mock.ts";
import { agentPosts, say, world } from "./wake_support.ts";

type Block = Record<string, unknown>;
type WireMessage = { role: string; content: Block[] };

/** Where each `cache_control` sits: `tools[i]`, `system[i]` or `messages[i][j]`. */
function breakpoints(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  (body.tools as Block[] ?? []).forEach((tool, i) => tool.cache_control && out.push(`tools[${i}]`));
  (body.system as Block[] ?? []).forEach((b, i) => b.cache_control && out.push(`system[${i}]`));
  (body.messages as WireMessage[]).forEach((message, i) =>
    message.content.forEach((b, j) => b.cache_control && out.push(`messages[${i}][${j}]`))
  );
  return out;
}

const ANTHROPIC = { AI_PROVIDER: "anthropic", AI_SDK: "anthropic", AI_SDK_SURFACE: "messages" };

/** One `messages` create, then narration, with the usage each call reports. */
function scriptAnthropic(w: Awaited<ReturnType<typeof world>>, body: string, narration: string) {
  w.model.reply(
    "messages",
    {
      json: anthropicMessage({
        content: [{
          toolUse: {
            id: `toolu_${body.length}`,
            name: "messages",
            arguments: { action: "create", body },
          },
        }],
        usage: { input: 40, output: 12, cacheWrite: 3000, cacheRead: 1000 },
      }),
    },
    {
      json: anthropicMessage({
        content: [{ text: narration }],
        usage: { input: 60, output: 5, cacheRead: 4000 },
      }),
    },
  );
}

Deno.test("anthropic wake against the wire mock: it answers, and the request carries exactly two breakpoints", async () => {
  await using w = await world();
  w.model.always("model", {
    json: { type: "model", id: "claude-test", max_input_tokens: 200_000 },
  });
  const env = { ...ANTHROPIC, AI_BASE_URL: w.model.origin, AI_MODEL: "claude-test" };

  await say(w, "@ada hello");
  scriptAnthropic(w, "Hello, Bob.", "Greeted Bob.");
  const first = await w.wake([], env);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /wake start .*provider=anthropic model=claude-test/);
  assert.match(
    first.stderr,
    /INFO llm provider=anthropic model=claude-test duration=\S+ tokens_in=4040 tokens_out=12 tokens_total=4052 cached_tokens=1000 cache_write_tokens=3000\n/,
  );
  assert.deepEqual(await agentPosts(w), ["Hello, Bob."]);
  const firstCalls = w.model.requestsTo("messages");
  assert.equal(firstCalls.length, 2);
  // A first wake: the charter is the one stable part, so it carries the one breakpoint.
  assert.deepEqual(breakpoints(firstCalls[0].body as Record<string, unknown>), ["system[0]"]);

  await say(w, "@ada how are you?");
  scriptAnthropic(w, "Well, thanks.", "Answered Bob.");
  const second = await w.wake([], env);
  assert.equal(second.code, 0, second.stderr);
  assert.deepEqual(await agentPosts(w), ["Well, thanks.", "Hello, Bob."]);
  const calls = w.model.requestsTo("messages").slice(2);
  for (const call of calls) {
    const body = call.body as Record<string, unknown>;
    const messages = body.messages as WireMessage[];
    // Breakpoint 1 on the charter; breakpoint 2 on the last block of the saved conversation:
    // the first wake's closing narration, right before this wake's volatile brief.
    assert.deepEqual(breakpoints(body), [
      "system[0]",
      `messages[${messages.findIndex((m) => m.content.some((b) => b.text === "Greeted Bob."))}][0]`,
    ]);
    const anchored = messages.find((m) => m.content.some((b) => b.cache_control))!;
    assert.deepEqual(anchored.content, [
      { type: "text", text: "Greeted Bob.", cache_control: { type: "ephemeral" } },
    ]);
    const after = JSON.stringify(messages.slice(messages.indexOf(anchored) + 1));
    assert.match(after, /Current Time: /);
    assert.match(after, /how are you\?/);
    assert.doesNotMatch(
      JSON.stringify(messages.slice(0, messages.indexOf(anchored))),
      /how are you\?/,
    );
  }

  // The turn record carries the cache writes beside the reads, and still verifies.
  const lines = (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim()
    .split("\n");
  const usage = JSON.parse(lines[1]).usage;
  assert.deepEqual(usage, {
    calls: 2,
    tokens_in: 4040 + 4060,
    tokens_out: 17,
    cached_tokens: 5000,
    cache_write_tokens: 3000,
    cost_usd: null,
  });
  const verify = await runCli(["records", "verify"], { env: w.env });
  assert.equal(verify.code, 0, verify.stderr);
});

Deno.test("anthropic wake against the sandbox's model: no key, real SDK, cache read on the next wake", async () => {
  await using w = await world();
  const env = {
    ...ANTHROPIC,
    AI_BASE_URL: w.sandbox.anthropicModelUrl,
    AI_MODEL: "sandbox-demo",
    AI_API_KEY: "sandbox-demo-key",
  };
  await say(w, "@ada what is new?");
  const first = await w.wake([], env);
  assert.equal(first.code, 0, first.stderr);
  const [post] = await agentPosts(w);
  assert.match(post, /^\(sandbox demo model\) @bob thanks for the question/);
  assert.match(first.stderr, /unspoken .*text="Answered @bob's question on the timeline\."/);
  // Its first call writes the cache; its second reads what the first wrote.
  const llm = first.stderr.split("\n").filter((line) => line.startsWith("INFO llm "));
  assert.equal(llm.length, 2, first.stderr);
  assert.match(llm[0], /cached_tokens=0 cache_write_tokens=[1-9]\d*/);
  assert.match(llm[1], /cached_tokens=[1-9]\d*/);

  await say(w, "@ada and now?");
  const second = await w.wake([], env);
  assert.equal(second.code, 0, second.stderr);
  assert.equal((await agentPosts(w)).length, 2);
  const read = /INFO llm .*cached_tokens=(\d+)/.exec(second.stderr)?.[1];
  const firstWrite = /cache_write_tokens=(\d+)/.exec(llm[0])?.[1];
  // The new wake's first call reads at least the charter and tools the last wake wrote.
  assert.ok(Number(read) > 0 && Number(read) >= Number(firstWrite), second.stderr);
});

Deno.test("openai Responses: every request carries one prompt_cache_key for this agent and timeline", async () => {
  await using w = await world();
  const env = { AI_SDK_SURFACE: "responses" };
  for (const body of ["First.", "Second."]) {
    await say(w, `@ada ${body}`);
    w.model.reply(
      "responses",
      {
        json: responsesReply({
          toolCalls: [{ id: "c0", name: "messages", arguments: { action: "create", body } }],
        }),
      },
      { json: responsesReply({ text: "Answered." }) },
    );
    const result = await w.wake([], env);
    assert.equal(result.code, 0, result.stderr);
  }
  const keys = w.model.requestsTo("responses").map((r) =>
    (r.body as Record<string, unknown>).prompt_cache_key
  );
  assert.equal(keys.length, 4);
  assert.deepEqual(new Set(keys), new Set([promptCacheKey(w.agent.uuid, w.timeline)]));
  assert.doesNotMatch(String(keys[0]), new RegExp(`${w.agent.uuid}|${w.timeline}`));
  // The chat surface carries none.
  await say(w, "@ada chat?");
  w.model.always("chat", { json: chatCompletion({ content: "Nothing to add." }) });
  await w.wake();
  assert.equal(w.model.lastBody("chat").prompt_cache_key, undefined);
});

Deno.test("anthropic wake: the step budget spent, the reserve call (no tools offered) still answers", async () => {
  await using w = await world();
  await say(w, "@ada one step only?");
  const result = await w.wake([], {
    ...ANTHROPIC,
    AI_BASE_URL: w.sandbox.anthropicModelUrl,
    AI_MODEL: "sandbox-demo",
    HARNESS_MAX_STEPS: "1",
  });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /WARNING wake used 1\/1 steps \+ reserve summary/);
  assert.match(result.stderr, /unspoken .*kind=reserve /);
  assert.equal((await agentPosts(w)).length, 1);
});
