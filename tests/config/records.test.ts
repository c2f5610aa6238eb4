/** `records.json`: defaults, accepted values, and refusals naming the file, the key and the fix. */
import assert from "node:assert/strict";
import {
  loadRecordsConfig,
  RECORDS_DEFAULT,
  resolveRecordsConfig,
} from "../../lib/config/records.ts";
import { ConfigError } from "../../lib/config/errors.ts";

Deno.test("records.json: absent is full text kept forever; values are taken as written", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.deepEqual(await loadRecordsConfig(dir), RECORDS_DEFAULT);
    assert.deepEqual(RECORDS_DEFAULT, { content: "full", retentionDays: null });
    await Deno.writeTextFile(`${dir}/records.json`, "{not json");
    await assert.rejects(() => loadRecordsConfig(dir), /records\.json is not valid JSON.*Fix:/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.deepEqual(resolveRecordsConfig({ content: "hashes", retention_days: 30 }), {
    content: "hashes",
    retentionDays: 30,
  });
  assert.deepEqual(resolveRecordsConfig({}), RECORDS_DEFAULT);
});

Deno.test("records.json: each wrong key is refused by name with its fix", () => {
  const cases: [unknown, RegExp][] = [
    [[], /must be a JSON object/],
    [{ content: "text" }, /key 'content' must be "full" or "hashes".*Fix:/],
    [
      { retention_days: 1.5 },
      /key 'retention_days' must be an integer from 1 to 36500 \(days\).*Fix:/,
    ],
    [{ retention_days: -1 }, /key 'retention_days'/],
    [{ keep: true }, /key 'keep' is not a records setting.*Fix:/],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => resolveRecordsConfig(value), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /records\.json/);
      assert.match(error.message, message);
      return true;
    });
  }
});
