/**
 * The `context attribution` arithmetic (docs/journal.md#the-context-attribution-line):
 * total = tools + brief + history + images.
 */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import { SUMMARY_MARKER } from "../../lib/core/types/summary_marker.ts";
import {
  attributionTotal,
  contextAttribution,
  historyTotal,
} from "../../lib/journal/catalogue_context.ts";
import { attribute, sectionOf } from "../../lib/wake/engaged/attribution.ts";
import { briefView, composeVolatile, volatileParts } from "../../lib/wake/engaged/brief.ts";
import { captureJournal } from "../mcp/support.ts";

Deno.test("attribution: every sent character is counted once, in its section", () => {
  const summary = Message.system(`${SUMMARY_MARKER}: 4 messages replaced]\n\nnotes`);
  const user = Message.user("héllo ✓"); // code points, not UTF-16 units or bytes
  user.images = [{ alt: "cat", mimeType: "image/png", data: "AAAA" }];
  const call = Message.assistant({
    content: null,
    toolCalls: [{ id: "c1", name: "messages", arguments: { action: "create", body: "ü" } }],
  });
  const result: Message = { role: "tool", content: "Posted.", toolCallId: "c1" };
  const transcript = [summary, user, call, result];
  const input = { now: new Date("2026-01-02T03:04:05Z"), maxSteps: 8, memory: "likes tea" };
  const charter = "You are Ada.";
  const volatile = composeVolatile(input);
  const sent = briefView(charter, volatile)(transcript);
  const tools = [{ name: "messages", description: "Post.", parameters: { type: "object" } }];
  const a = attribute({
    source: "timeline:t",
    sent,
    transcript,
    briefParts: [["charter", charter], ...volatileParts(input)],
    tools,
  });

  assert.equal(a.messages, 6);
  assert.equal(a.tools, "messages".length + "Post.".length + '{"type":"object"}'.length);
  assert.equal(a.toolsCount, 1);
  assert.equal(a.brief, charter.length + volatile.length);
  assert.deepEqual(a.briefParts?.map(([name]) => name), ["charter", "now", "budget", "memory"]);
  assert.equal(a.history.summary, summary.content!.length);
  assert.equal(a.history.user, 7);
  assert.equal(a.history.assistant, "messages".length + '{"action":"create","body":"ü"}'.length);
  assert.equal(a.history.tool, "Posted.".length);
  assert.equal(a.history.charter + a.history.steps + a.history.other, 0);
  assert.equal(a.images, "data:image/png;base64,".length + 4 + 3);
  assert.equal(attributionTotal(a), a.tools + a.brief + historyTotal(a) + a.images);
  const everything = sent.reduce(
    (sum, m) =>
      sum + [...(m.content ?? "")].length +
      (m.toolCalls ?? []).reduce(
        (s, c) => s + c.name.length + JSON.stringify(c.arguments).length,
        0,
      ),
    0,
  );
  assert.equal(a.brief + historyTotal(a), everything);

  const journal = captureJournal();
  contextAttribution(journal, a);
  assert.match(journal.lines[0], /^INFO context attribution$/);
});

Deno.test("attribution: system turns split into summary, steps and charter", () => {
  assert.equal(sectionOf(Message.system(`${SUMMARY_MARKER}: x`)), "summary");
  assert.equal(sectionOf(Message.system("Current Time: now\n\nStep 2 of 8")), "steps");
  assert.equal(sectionOf(Message.system("a note")), "charter");
});
