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
      ["{oops", new RegExp(`^${path} is not valid JSON: `)],
      [
        "[1, 2]",
        new RegExp(`^${path} must be a JSON object \\(.*\\) but its top level is an array\\.$`),
      ],
      ['"text"', /but its top level is a string\.$/],
      ["null", /but its top level is null\.$/],
      ["3", /but its top level is a number\.$/],
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
    await assert.rejects(loadSearchParams(home), /search_params\.json must be a JSON object/);
  });
});

Deno.test("an unreadable file is named", async () => {
  await withHome(async (home) => {
    await Deno.mkdir(`${home}/model_params.json`, { recursive: true }); // a directory: EISDIR
    await assert.rejects(loadModelParams(home), /model_params\.json could not be read: /);
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
