/**
 * Which turn endings escalate (docs/operating.md#escalation): the billing wall always; otherwise
 * only a turn that posted nothing — after two gate refusals, or after spending its step budget on
 * an item that called for a reply.
 */
import assert from "node:assert/strict";
import { escalationReason, type TurnEnding } from "../../lib/wake/engaged/escalation_trigger.ts";

const quiet: TurnEnding = { kind: "narration", refusals: 0, posted: false, calledForReply: true };

Deno.test("escalation trigger: the billing wall, whatever else happened", () => {
  assert.equal(escalationReason({ ...quiet, kind: "billing" }), "billing_wall");
  assert.equal(escalationReason({ ...quiet, kind: "billing", posted: true }), "billing_wall");
});

Deno.test("escalation trigger: two refusals with nothing posted; one, or a post, is none", () => {
  assert.equal(escalationReason({ ...quiet, refusals: 2 }), "gate_refused_twice");
  assert.equal(escalationReason({ ...quiet, refusals: 3, kind: "reserve" }), "gate_refused_twice");
  assert.equal(escalationReason({ ...quiet, refusals: 1 }), undefined);
  assert.equal(escalationReason({ ...quiet, refusals: 2, posted: true }), undefined);
});

Deno.test("escalation trigger: a spent budget only on an item that called for a reply", () => {
  for (const kind of ["reserve", "stuck"]) {
    assert.equal(escalationReason({ ...quiet, kind }), "step_budget_exhausted_unanswered");
    assert.equal(escalationReason({ ...quiet, kind, calledForReply: false }), undefined);
    assert.equal(escalationReason({ ...quiet, kind, posted: true }), undefined);
  }
  assert.equal(escalationReason(quiet), undefined);
  assert.equal(escalationReason({ ...quiet, kind: "payload_too_large" }), undefined);
});
