import assert from "node:assert/strict";
import {
  EVENT_PAYLOAD_LIMIT,
  renderAsset,
  renderBatch,
  renderEvent,
  renderTask,
} from "../../lib/runtime/item_text.ts";
import { asset, event, msg, task } from "../wake/fixtures.ts";

Deno.test("a batch is one line per message, oldest first, joined by newlines", () => {
  const text = renderBatch([msg("a", "hi", "@bob"), msg("b", "there", "carol")]);
  assert.equal(text, "[2026-08-18T12:00:00Z] bob: hi\n[2026-08-18T12:00:00Z] carol: there");
});

Deno.test("an asset names who shared what and points at the assets tool", () => {
  const text = renderAsset(asset("a1", "a cat"));
  assert(
    text.startsWith(
      "[2026-08-18T12:00:01Z] bob posted a file to this timeline: uuid=a1 · filename='photo.png'",
    ),
  );
  assert(text.includes("a cat"));
  assert(
    text.endsWith(
      "Use the assets tool to 'read' it (or 'view' an image / 'listen' to audio) if you want to engage with it.",
    ),
  );
});

Deno.test("a webhook payload over 8192 characters is cut with a pointer", () => {
  const short = renderEvent(event("e1", "{}"));
  assert.equal(
    short,
    "[2026-08-18T12:00:02Z] An inbound webhook was delivered to this timeline (event e1, endpoint ep-1, content_type application/json). Decide whether and how to act on it. Its payload:\n{}",
  );
  const long = renderEvent(
    event("e2", "x".repeat(EVENT_PAYLOAD_LIMIT - 2) + "  " + "y".repeat(50)),
  );
  assert(
    long.endsWith("x\n… (payload truncated — use the webhook_events tool to read e2 in full)"),
  );
});

Deno.test("a task renders its uuid, schedule and instructions", () => {
  assert.equal(
    renderTask(task("t1", "water the plants")),
    "[2026-08-18T11:00:00Z] A task you scheduled has activated and is due now (task t1, scheduled for 2026-08-18T12:00:00Z). Carry out its instructions:\nwater the plants",
  );
});
