/**
 * Which turn endings escalate (docs/operating.md#escalation): the billing wall and a model
 * refusal always; the gate's last allowed refusal (the turn's speaking closed) whatever was
 * posted before it; a spent step budget only on an item that called for a reply and got none.
 */
import assert from "node:assert/strict";
import { escalationReason, type TurnEnding } from "../../lib/wake/engaged/escalation_trigger.ts";

const quiet: TurnEnding = {
  kind: "narration",
  refusals: 0,
  maxRefusals: 2,
  posted: false,
  calledForReply: true,
};

Deno.test("escalation trigger: the billing wall, whatever else happened", () => {
  assert.equal(escalationReason({ ...quiet, kind: "billing" }), "billing_wall");
  assert.equal(escalationReason({ ...quiet, kind: "billing", posted: true }), "billing_wall");
});

Deno.test("escalation trigger: the refusal limit closes the turn, posted before or not", () => {
  assert.equal(escalationReason({ ...quiet, refusals: 2 }), "gate_refused_twice");
  assert.equal(escalationReason({ ...quiet, refusals: 3, kind: "reserve" }), "gate_refused_twice");
  assert.equal(escalationReason({ ...quiet, refusals: 1 }), undefined);
  assert.equal(escalationReason({ ...quiet, refusals: 2, posted: true }), "gate_refused_twice");
  // The limit is guardrails.json's: three allowed means two is not yet the end.
  assert.equal(escalationReason({ ...quiet, refusals: 2, maxRefusals: 3 }), undefined);
  assert.equal(escalationReason({ ...quiet, refusals: 1, maxRefusals: 1 }), "gate_refused_twice");
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
