/**
 * A real wake with `HARNESS_LOG_FORMAT=json` (docs/journal.md#json-lines): every line on stderr
 * is one JSON object, and the same wake in text form writes the same heads and fields.
 */
import assert from "node:assert/strict";
import type { JsonLine } from "../../lib/journal/mod.ts";
import { scriptReply, world } from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

Deno.test("a JSON-format wake writes one parseable object per line, the text wake's facts", async () => {
  await using w = await world();
  await w.peer.client.messages.create(w.timeline, asUser("message", { body: "hi @ada, status?" }));
  scriptReply(w.model, "All good here.", "Told Bob the status.");
  const result = await w.wake([], { HARNESS_LOG_FORMAT: "json" });
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stderr.trimEnd().split("\n");
  const records = lines.map((line) => JSON.parse(line) as JsonLine);
  for (const record of records) {
    assert.match(record.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(["DEBUG", "INFO", "WARNING", "ERROR"].includes(record.level));
  }
  const heads = records.filter((r) => r.head).map((r) => r.head);
  assert.equal(heads[0], "wake start");
  assert.equal(heads.at(-1), "wake end");
  for (const head of ["llm", "tool", "posted", "unspoken"]) assert.ok(heads.includes(head), head);
  const end = records.find((r) => r.head === "wake end")!;
  assert.deepEqual(
    [end.fields?.timeline, end.fields?.outcome, end.fields?.turns, end.fields?.posted],
    [w.timeline, "ok", 1, 1],
  );
  const spoken = records.find((r) => r.head === "unspoken")!;
  assert.equal(spoken.fields?.text, "Told Bob the status.");

  // The same kind of wake in text form: the same heads in the same order.
  await w.peer.client.messages.create(w.timeline, asUser("message", { body: "and now?" }));
  scriptReply(w.model, "Still good.", "Told Bob again.");
  const text = await w.wake();
  assert.equal(text.code, 0, text.stderr);
  const textHeads = text.stderr.trimEnd().split("\n")
    .map((line) => line.replace(/^\S+ /, ""))
    .map((rest) => heads.find((head) => rest.startsWith(`${head} `) || rest === head))
    .filter((head) => head !== undefined);
  assert.deepEqual(textHeads, heads);
});
