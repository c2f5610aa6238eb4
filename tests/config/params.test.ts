/**
 * model_params.json / search_params.json
 * (docs/configuration.md#model_paramsjson-and-search_paramsjson): absent is `{}`, a present but bad
 * file refuses to load naming its path, owned keys are stripped with a WARNING.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../lib/config/errors.ts";
import { loadModelParams, loadSearchParams, splitModelParams } from "../../lib/config/params.ts";
import type { Journal } from "../../lib/journal/journal.ts";
import { tempHome, write } from "./install_support.ts";

async function withHome(body: (home: string) => Promise<void>): Promise<void> {
  const { home, cleanup } = await tempHome();
  try {
    await body(home);
  } finally {
    await cleanup();
  }
}

Deno.test("absent files are empty objects", async () => {
  await withHome(async (home) => {
    assert.deepEqual(await loadModelParams(home), {
      raw: {},
      params: {},
      stripped: [],
      warnings: [],
    });
    assert.deepEqual(await loadSearchParams(home), {});
  });
});

Deno.test("search_params.json is passed verbatim", async () => {
  await withHome(async (home) => {
    const value = { engine: "exa", max_results: 10, allowed_domains: ["arxiv.org"] };
    await write(home, "search_params.json", JSON.stringify(value));
    assert.deepEqual(await loadSearchParams(home), value);
  });
});

Deno.test("bad files refuse to load with a sentence naming the path", async () => {
  await withHome(async (home) => {
    const path = `${home}/model_params.json`;
    const cases: [string, RegExp][] = [
      [
        "{oops",
        new RegExp(
          `^${path} is not valid JSON: .*\\. Fix: correct the syntax \\(JSON has no comments or ` +
            "trailing commas\\), or delete the file to pass no parameters\\.$",
        ),
      ],
      [
        "[1, 2]",
        new RegExp(
          `^${path} must be a JSON object \\(.*\\) but its top level is an array\\. Fix: write ` +
            'one object such as \\{"temperature": 0\\.7\\}, or delete the file to pass no ' +
            "parameters\\.$",
        ),
      ],
      ['"text"', /but its top level is a string\. Fix: /],
      ["null", /but its top level is null\. Fix: /],
      ["3", /but its top level is a number\. Fix: /],
    ];
    for (const [text, pattern] of cases) {
      await write(home, "model_params.json", text);
      await assert.rejects(loadModelParams(home), (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, pattern);
        assert.equal(error.variable, path);
        return true;
      });
    }
    await write(home, "search_params.json", "[]");
    await assert.rejects(
      loadSearchParams(home),
      /search_params\.json must be a JSON object .* Fix: write one object such as \{"max_results": 5\}/,
    );
  });
});

Deno.test("an unreadable file is named", async () => {
  await withHome(async (home) => {
    await Deno.mkdir(`${home}/model_params.json`, { recursive: true }); // a directory: EISDIR
    await assert.rejects(
      loadModelParams(home),
      /model_params\.json could not be read: .* Fix: make it a readable UTF-8 file, or delete it/,
    );
    await write(home, "search_params.json", "");
    await Deno.writeFile(`${home}/search_params.json`, new Uint8Array([0xff, 0xfe]));
    await assert.rejects(loadSearchParams(home), /search_params\.json could not be read: /);
  });
});

Deno.test("owned keys are stripped with a WARNING; model points at AI_MODEL", async () => {
  await withHome(async (home) => {
    await write(
      home,
      "model_params.json",
      JSON.stringify({ model: "x", temperature: 0.5, tools: [], extra_body: { a: 1 } }),
    );
    const lines: string[] = [];
    const journal: Journal = {
      event() {},
      text: (level, message) => lines.push(`${level} ${message}`),
      enabled: () => true,
    };
    const openai = await loadModelParams(home, { sdk: "openai", journal });
    assert.deepEqual(openai.params, { temperature: 0.5, extra_body: { a: 1 } });
    assert.deepEqual(openai.stripped, ["model", "tools"]);
    assert.deepEqual(openai.raw, { model: "x", temperature: 0.5, tools: [], extra_body: { a: 1 } });
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^WARNING model_params\.json sets 'model'.*AI_MODEL/);
    assert.match(lines[1], /^WARNING model_params\.json key 'tools' is set by the harness/);
    const openrouter = splitModelParams(openai.raw, { sdk: "openrouter" });
    assert.deepEqual(openrouter.params, { temperature: 0.5 });
    assert.deepEqual(openrouter.stripped, ["extra_body", "model", "tools"]);
    assert.match(openrouter.warnings.join("\n"), /'extra_body' is dropped/);
  });
});

Deno.test("under AI_SDK=xai-sdk the keys the Python xai-sdk adapter owned are stripped too", () => {
  const raw = { api_host: "api.x.ai", client: "x", temperature: 0.2, tools: [], reasoning: {} };
  const grok = splitModelParams(raw, { sdk: "xai-sdk" });
  assert.deepEqual(grok.params, { temperature: 0.2, reasoning: {} });
  assert.deepEqual([...grok.stripped].sort(), ["api_host", "client", "tools"]);
  assert.match(grok.warnings.join("\n"), /key 'api_host' is set by the harness itself/);
  // On the openai SDK itself those two are ordinary parameters, passed through.
  assert.deepEqual(splitModelParams(raw, { sdk: "openai" }).stripped, ["tools"]);
});

Deno.test("on the openrouter SDK a key chat.send does not take is refused, naming file, key and fix", async () => {
  await withHome(async (home) => {
    const path = `${home}/model_params.json`;
    await write(home, "model_params.json", '{"max_tokens": 10, "temprature": 0.5}');
    await assert.rejects(loadModelParams(home, { sdk: "openrouter" }), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.variable, path);
      assert.equal(
        error.message,
        `${path} key 'temprature' is not a parameter the openrouter SDK's chat.send accepts, so ` +
          "it would be dropped without effect. Fix: spell it as one of chat.send's request keys " +
          "in snake_case (max_tokens, temperature, top_p, provider, reasoning, …), or remove it " +
          "(AI_SDK=openai passes unknown keys through).",
      );
      return true;
    });
    // A key in its prototype's name is no parameter either.
    await write(home, "model_params.json", '{"toString": 1}');
    await assert.rejects(loadModelParams(home, { sdk: "openrouter" }), /key 'toString'/);
    // The openai SDK passes unknown keys through; the openrouter SDK's own keys, in either
    // spelling, and the dropped escape hatches are accepted.
    await write(home, "model_params.json", '{"temprature": 0.5}');
    assert.deepEqual((await loadModelParams(home, { sdk: "openai" })).params, { temprature: 0.5 });
    await write(
      home,
      "model_params.json",
      '{"max_tokens": 1, "topP": 0.9, "provider": {"only": ["x"]}, "extra_headers": {}}',
    );
    const ok = await loadModelParams(home, { sdk: "openrouter" });
    assert.deepEqual(Object.keys(ok.params).sort(), [
      "extra_headers",
      "max_tokens",
      "provider",
      "topP",
    ]);
  });
});

Deno.test("on the anthropic SDK an unknown key, or thinking, is refused at load; owned keys warn", async () => {
  await withHome(async (home) => {
    const path = `${home}/model_params.json`;
    await write(home, "model_params.json", '{"max_tokens": 10, "temprature": 0.5}');
    await assert.rejects(loadModelParams(home, { sdk: "anthropic" }), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.variable, path);
      assert.equal(
        error.message,
        `${path} key 'temprature' is not a request parameter of Anthropic's Messages API ` +
          "(snake_case: max_tokens, stop_sequences, tool_choice, metadata, service_tier, …; or " +
          "extra_body / extra_headers). Fix: remove the key, or spell it as a Messages API " +
          "request parameter (extra_body passes a body key through unchecked).",
      );
      return true;
    });
    await write(home, "model_params.json", '{"toString": 1}');
    await assert.rejects(loadModelParams(home, { sdk: "anthropic" }), /key 'toString'/);
    await write(home, "model_params.json", '{"thinking": {"type": "adaptive"}}');
    await assert.rejects(
      loadModelParams(home, { sdk: "anthropic" }),
      /key 'thinking' is not supported on AI_SDK=anthropic yet/,
    );
    // Owned keys (the harness places the cache breakpoints) are dropped with a WARNING.
    await write(
      home,
      "model_params.json",
      '{"max_tokens": 1024, "system": "x", "cache_control": {"type": "ephemeral"}, ' +
        '"extra_headers": {"anthropic-beta": "b"}, "extra_body": {"top_k": 5}}',
    );
    const ok = await loadModelParams(home, { sdk: "anthropic" });
    assert.deepEqual(ok.params, {
      max_tokens: 1024,
      extra_headers: { "anthropic-beta": "b" },
      extra_body: { top_k: 5 },
    });
    assert.deepEqual(ok.stripped, ["cache_control", "system"]);
    assert.equal(ok.warnings.length, 2);
  });
});
