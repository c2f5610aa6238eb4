/** The provider × SDK × surface matrix (docs/environment.md#model) and the lazy-SDK rule. */
import assert from "node:assert/strict";
import { buildProvider, ProviderConfigError } from "../../lib/providers/factory.ts";
import { OpenAIProvider } from "../../lib/providers/openai.ts";
import { OpenRouterProvider } from "../../lib/providers/openrouter.ts";
import { AnthropicProvider } from "../../lib/providers/anthropic.ts";

const base = { model: "m/x", apiKey: "k" };

Deno.test("defaults: openai provider, openai SDK, responses surface", () => {
  const p = buildProvider(base);
  assert.ok(p instanceof OpenAIProvider);
  assert.equal(p.surface, "responses");
  assert.equal(p.provider, "openai");
});

Deno.test("every supported cell builds the right adapter", () => {
  const xai = buildProvider({ ...base, provider: "XAI ", surface: "Chat" });
  assert.ok(xai instanceof OpenAIProvider);
  assert.equal(xai.provider, "xai");
  assert.equal(xai.surface, "chat");
  const orOpenAI = buildProvider({ ...base, provider: "openrouter", surface: "chat" });
  assert.ok(orOpenAI instanceof OpenAIProvider);
  assert.equal(orOpenAI.provider, "openrouter");
  assert.ok(
    buildProvider({ ...base, provider: "openrouter", sdk: "openrouter" }) instanceof
      OpenRouterProvider,
  );
  assert.ok(
    buildProvider({
      ...base,
      provider: "openrouter",
      sdk: "openrouter",
      surface: "chat",
    }) instanceof
      OpenRouterProvider,
  );
  for (const sdk of [undefined, "anthropic"]) {
    const claude = buildProvider({ ...base, provider: "anthropic", sdk });
    assert.ok(claude instanceof AnthropicProvider);
    assert.equal(claude.cacheMode, "explicit");
  }
});

Deno.test("matrix errors name the variable to fix", () => {
  const cases: [Parameters<typeof buildProvider>[0], RegExp][] = [
    [{ ...base, provider: "mistral" }, /Unknown AI_PROVIDER 'mistral'/],
    [{ ...base, provider: "anthropic", sdk: "openai" }, /set AI_SDK=anthropic/],
    [{ ...base, sdk: "anthropic" }, /requires AI_PROVIDER=anthropic \(got 'openai'\)/],
    [
      { ...base, provider: "anthropic", surface: "chat" },
      /Unknown AI_SDK_SURFACE 'chat' for AI_SDK='anthropic'; expected one of \(messages\)/,
    ],
    [
      { ...base, provider: "openai", sdk: "xai-sdk" },
      /AI_SDK=xai-sdk reaches xAI's native endpoint, so it requires AI_PROVIDER=xai \(got 'openai'\)/,
    ],
    [
      { ...base, provider: "xai", sdk: "xai-sdk", surface: "chat" },
      /Unknown AI_SDK_SURFACE 'chat' for AI_SDK='xai-sdk'; expected one of \(native\)/,
    ],
    [{ ...base, sdk: "langchain" }, /AI_SDK='langchain' has no adapter/],
    [
      { ...base, surface: "native" },
      /Unknown AI_SDK_SURFACE 'native' for AI_SDK='openai'; expected one of \(responses, chat\)/,
    ],
    [
      { ...base, provider: "openrouter", sdk: "openrouter", surface: "responses" },
      /Unknown AI_SDK_SURFACE 'responses' for AI_SDK='openrouter'/,
    ],
    [
      { ...base, provider: "openai", sdk: "openrouter" },
      /requires AI_PROVIDER=openrouter \(got 'openai'\)/,
    ],
    [{ ...base, provider: "openrouter" }, /chat-only.*AI_SDK_SURFACE=chat/],
    [{ ...base, provider: "openrouter", surface: "responses" }, /chat-only/],
  ];
  for (const [options, pattern] of cases) {
    assert.throws(() => buildProvider(options), (e: unknown) => {
      assert.ok(e instanceof ProviderConfigError, String(e));
      assert.match(e.message, pattern);
      return true;
    });
  }
});

Deno.test("no provider module imports an SDK at load time (type-only imports are fine)", async () => {
  const dir = new URL("../../lib/providers/", import.meta.url);
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.name.endsWith(".ts")) continue;
    const source = await Deno.readTextFile(new URL(entry.name, dir));
    const eager = source.match(
      /^import\s+(?!type\b)[^;]*from\s+"(openai|@openrouter\/sdk|@anthropic-ai\/sdk)[^"]*";/m,
    );
    assert.equal(eager, null, `${entry.name} imports an SDK eagerly: ${eager?.[0]}`);
  }
});
