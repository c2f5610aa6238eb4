/**
 * The demo model's emulated prompt cache (docs/sandbox.md#the-prompt-cache), through the real
 * openai SDK on both surfaces: a request sharing a long prefix with one served before reports that
 * prefix as cached tokens (in 128-token steps, none under 1,024); a short or new prompt reports
 * none; a change early in the prompt (the charter) loses the cache from there on.
 */
import { strict as assert } from "node:assert";
import OpenAI from "openai";
import { Sandbox } from "../../lib/sandbox/mod.ts";
import { cachedTokens, PrefixPromptCache } from "../../lib/sandbox/model/prompt_cache.ts";

const CHARTER = "You are a peer who answers questions about harbours. ".repeat(200); // ~10,600 chars

function request(charter: string, question: string) {
  return {
    model: "sandbox-demo",
    messages: [
      { role: "system" as const, content: charter },
      { role: "user" as const, content: `[2026-01-01T09:00:00Z] bob: ${question}` },
    ],
  };
}

Deno.test("prompt cache: the rule, in characters → tokens", () => {
  assert.equal(cachedTokens(0), 0);
  assert.equal(cachedTokens(4 * 1023), 0);
  assert.equal(cachedTokens(4 * 1024), 1024);
  assert.equal(cachedTokens(4 * 1151), 1024);
  assert.equal(cachedTokens(4 * 1152), 1152);
  const cache = new PrefixPromptCache();
  const long = "x".repeat(10_000);
  assert.equal(cache.serve(long), 0, "nothing served before");
  assert.equal(cache.serve(long + "y"), cachedTokens(10_000));
  assert.equal(cache.serve("z" + long), 0, "a different first character shares nothing");
});

Deno.test("prompt cache: chat and responses report the shared prefix as cached tokens", async () => {
  const sandbox = await Sandbox.start();
  try {
    const client = new OpenAI({ baseURL: sandbox.modelUrl, apiKey: "x", maxRetries: 0 });
    const first = await client.chat.completions.create(request(CHARTER, "how deep is it?"));
    assert.equal(first.usage?.prompt_tokens_details?.cached_tokens, 0);
    const second = await client.chat.completions.create(request(CHARTER, "and how wide?"));
    const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    const prompt = second.usage?.prompt_tokens ?? 0;
    // The charter is shared: most of the prompt, never all of it (the question differs).
    assert.ok(cached >= 2560 && cached < prompt && cached % 128 === 0, `${cached}/${prompt}`);
    // One changed word at the start of the charter: nothing is shared any more.
    const edited = await client.chat.completions.create(
      request(`Always be brief. ${CHARTER}`, "and how wide?"),
    );
    assert.equal(edited.usage?.prompt_tokens_details?.cached_tokens, 0);

    const responses = async (question: string) =>
      await client.responses.create({
        model: "sandbox-demo",
        instructions: CHARTER,
        input: `[2026-01-01T09:00:00Z] bob: ${question}`,
      });
    assert.equal((await responses("first?")).usage?.input_tokens_details.cached_tokens, 0);
    const again = (await responses("second?")).usage!;
    assert.ok(
      again.input_tokens_details.cached_tokens >= 2560 &&
        again.input_tokens_details.cached_tokens < again.input_tokens,
      JSON.stringify(again),
    );
  } finally {
    await sandbox.close();
  }
});
