/**
 * The turn in one word (docs/records.md#fields): the one ordering the wake's record and replay's
 * report both use, so a replay never reports a result change the ordering alone made.
 */
import assert from "node:assert/strict";
import { type TurnResultFacts, turnResultOf } from "../../../lib/home/records/mod.ts";

const PLAIN: TurnResultFacts = { failed: false, kind: "narration", escalated: false, spoke: false };

Deno.test("turn result: failed, then refused, escalated, truncated, spoke, silent", () => {
  const all = { failed: true, kind: "refused", escalated: true, spoke: true };
  assert.equal(turnResultOf(all), "failed");
  assert.equal(turnResultOf({ ...all, failed: false }), "refused");
  assert.equal(turnResultOf({ ...all, failed: false, kind: "truncated" }), "escalated");
  assert.equal(turnResultOf({ ...PLAIN, kind: "truncated", spoke: true }), "truncated");
  assert.equal(turnResultOf({ ...PLAIN, spoke: true }), "spoke");
  assert.equal(turnResultOf(PLAIN), "silent");
  assert.equal(turnResultOf({ ...PLAIN, kind: undefined }), "silent");
});
