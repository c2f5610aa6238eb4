/**
 * The cold-start filter (docs/context.md#the-cold-start-filter): which results it shortens, how,
 * and that the transcript it reads is never touched.
 */
import assert from "node:assert/strict";
import {
  COLD_KEEP_CHARS,
  coldMarker,
  ColdStartFilter,
  isColdStart,
} from "../../lib/core/idle_filter.ts";
import { Message } from "../../lib/core/types/message.ts";

Deno.test("cold start: the idle test (0 disables, an unknown last response is never cold)", () => {
  assert.equal(isColdStart(3601, 3600), true);
  assert.equal(isColdStart(3600, 3600), false);
  assert.equal(isColdStart(10, 3600), false);
  assert.equal(isColdStart(1e9, 0), false);
  assert.equal(isColdStart(undefined, 3600), false);
});

Deno.test("cold start: only long tool results before the boundary are shortened, in a copy", () => {
  const long = "r".repeat(5000);
  const call = { id: "c", name: "users", arguments: {} };
  const messages = [
    Message.user("x".repeat(5000)),
    Message.assistant({ toolCalls: [call] }),
    Message.tool("c", long),
    Message.tool("c", "short"),
    Message.assistant({ content: "a".repeat(5000) }),
    Message.user("now"),
    Message.assistant({ toolCalls: [call] }),
    Message.tool("c", long), // the current turn's: pending, untouched
  ];
  const snapshot = JSON.stringify(messages);
  const filter = new ColdStartFilter(messages, 5);
  const sent = filter.apply(messages);
  assert.equal(sent[2].content, "r".repeat(COLD_KEEP_CHARS) + coldMarker(5000 - COLD_KEEP_CHARS));
  for (const i of [0, 1, 3, 4, 5, 6, 7]) assert.equal(sent[i], messages[i]);
  assert.equal(JSON.stringify(messages), snapshot, "the transcript is unchanged");
  assert.equal(filter.tally.shortened, 1);
  assert.equal(filter.tally.savedChars, 5000 - (sent[2].content ?? "").length);
  // The same copy every time, so the wake's requests share their bytes.
  assert.equal(filter.apply(messages)[2], sent[2]);
  // A message appended later (a new result) is never shortened.
  const later = [...messages, Message.tool("c", long)];
  assert.equal(filter.apply(later)[8], later[8]);
});
