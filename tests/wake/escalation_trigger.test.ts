/**
 * Which turn endings escalate (docs/operating.md#escalation): the billing wall and a model
 * refusal always; the gate's last allowed refusal (the turn's speaking closed) whatever was
 * posted before it; a spent step budget only on an item that called for a reply and got none.
 */
import assert from "node:assert/strict";
import { escalationReason, type TurnEnding } from "../../lib/wake/engaged/escalation_trigger.ts";

const quiet: TurnEnding = {
  kind: "narration",
  closed: false,
  posted: false,
  calledForReply: true,
};

Deno.test("escalation trigger: the billing wall, whatever else happened", () => {
  assert.equal(escalationReason({ ...quiet, kind: "billing" }), "billing_wall");
  assert.equal(escalationReason({ ...quiet, kind: "billing", posted: true }), "billing_wall");
});

// When the limit closes a turn is the wake context's rule (tests/wake/speaking_closed.test.ts).
Deno.test("escalation trigger: a turn the refusal limit closed, posted before or not", () => {
  assert.equal(escalationReason({ ...quiet, closed: true }), "gate_refused_twice");
  assert.equal(escalationReason({ ...quiet, closed: true, kind: "reserve" }), "gate_refused_twice");
  assert.equal(escalationReason({ ...quiet, closed: true, posted: true }), "gate_refused_twice");
  assert.equal(escalationReason({ ...quiet, closed: false, posted: true }), undefined);
});

Deno.test("escalation trigger: a model refusal, posted before or not; a cut reply is none", () => {
  assert.equal(escalationReason({ ...quiet, kind: "refused" }), "model_refused");
  assert.equal(escalationReason({ ...quiet, kind: "refused", posted: true }), "model_refused");
  assert.equal(escalationReason({ ...quiet, kind: "truncated" }), undefined);
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
