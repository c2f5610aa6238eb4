/**
 * Usage extraction and the context-limit arithmetic of
 * docs/models.md#usage-cost-and-the-context-ceiling, without any SDK.
 */
import assert from "node:assert/strict";
import {
  contextFromEndpoints,
  contextFromModel,
  extractUsage,
  routingFrom,
  selectedEndpoint,
} from "../../lib/providers/usage.ts";

Deno.test("usage: first match wins; integers only; booleans and floats dropped", () => {
  assert.deepEqual(
    extractUsage({
      usage: {
        input_tokens: 10,
        prompt_tokens: 99,
        output_tokens: 2.5,
        completion_tokens: 3,
        total_tokens: true,
        input_tokens_details: { cached_tokens: 4 },
      },
    }),
    { tokensIn: 10, tokensOut: 3, cachedTokens: 4 },
  );
  assert.deepEqual(extractUsage({ usage: { cached_prompt_text_tokens: 7 } }), { cachedTokens: 7 });
  assert.equal(extractUsage({}), undefined);
  assert.equal(extractUsage(null), undefined);
});

Deno.test("usage: camelCase (openrouter SDK) reads the same", () => {
  assert.deepEqual(
    extractUsage({
      usage: {
        promptTokens: 5,
        completionTokens: 1,
        totalTokens: 6,
        promptTokensDetails: { cachedTokens: 2 },
        cost: 0.5,
      },
      openrouterMetadata: {
        endpoints: {
          available: [{ provider: "A", selected: false }, { provider: "B", selected: true }],
        },
      },
    }),
    { tokensIn: 5, tokensOut: 1, tokensTotal: 6, cachedTokens: 2, cost: 0.5, endpoint: "B" },
  );
});

Deno.test("endpoint: only the selected entry, never the top-level provider", () => {
  assert.equal(selectedEndpoint({ provider: "Top" }), undefined);
  assert.equal(
    selectedEndpoint({ openrouter_metadata: { endpoints: { available: [{ provider: "A" }] } } }),
    undefined,
  );
});

Deno.test("contextFromModel: first positive int among the three names", () => {
  assert.equal(
    contextFromModel({ context_length: 0, context_window: -1, max_context_length: 4096 }),
    4096,
  );
  assert.equal(contextFromModel({ context_length: "8192" }), undefined);
  assert.equal(contextFromModel({ context_length: 1.5 }), undefined);
  assert.equal(contextFromModel(undefined), undefined);
});

Deno.test("contextFromEndpoints: routing narrows; down endpoints skipped", () => {
  const endpoints = [
    { tag: "DeepInfra/fp8", contextLength: 131072, maxPromptTokens: 100000 },
    { tag: "together", contextLength: 65536, maxPromptTokens: null },
    { tag: "dead", contextLength: 999999, status: -1 },
  ];
  assert.equal(contextFromEndpoints(endpoints), 100000);
  assert.equal(contextFromEndpoints(endpoints, { ignore: ["deepinfra"] }), 65536);
  assert.equal(contextFromEndpoints(endpoints, { only: ["dead"] }), undefined);
  assert.equal(contextFromEndpoints([]), undefined);
  assert.deepEqual(routingFrom({ provider: { only: ["a", 1], allow_fallbacks: false } }), {
    only: ["a"],
    ignore: undefined,
    order: undefined,
    allowFallbacks: false,
  });
  assert.deepEqual(routingFrom({ provider: "nope" }), {});
});
