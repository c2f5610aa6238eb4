import assert from "node:assert/strict";
import {
  bootstrapMark,
  type LedgerEntry,
  planFirstItemWake,
  planFirstMessageWake,
  seenAdditions,
  settledMark,
  strandedUuids,
  unhandledTasks,
  withFetchedTrigger,
} from "../../lib/wake/first_wake.ts";

const SELF = "me";
const m = (uuid: string, author = "peer") => ({ uuid, author });
const none = new Set<string>();
const uuids = (list: { uuid: string }[]) => list.map((x) => x.uuid);

Deno.test("never spoken: only the newest message is answered, the rest is context", () => {
  const recent = [m("c"), m("b"), m("a")];
  const plan = planFirstMessageWake({ recent, stranded: [], self: SELF, unsettled: none });
  assert.deepEqual(uuids(plan.reply), ["c"]);
  assert.deepEqual(uuids(plan.context), ["b", "a"]);
});

Deno.test("everything newer than the agent's own last post is answered, oldest first", () => {
  const recent = [m("d"), m("c"), m("b", SELF), m("a")];
  const plan = planFirstMessageWake({ recent, stranded: [], self: SELF, unsettled: none });
  assert.deepEqual(uuids(plan.reply), ["c", "d"]);
  assert.deepEqual(uuids(plan.context), ["b", "a"]);
});

Deno.test("the agent's own post being newest answers nothing", () => {
  const recent = [m("b", SELF), m("a")];
  const plan = planFirstMessageWake({ recent, stranded: [], self: SELF, unsettled: none });
  assert.deepEqual(plan.reply, []);
  assert.equal(plan.split, -1);
});

Deno.test("a trigger in the window answers it and everything newer", () => {
  const recent = [m("c"), m("b"), m("a")];
  const plan = planFirstMessageWake({
    recent,
    stranded: [],
    self: SELF,
    trigger: "b",
    unsettled: none,
  });
  assert.deepEqual(uuids(plan.reply), ["b", "c"]);
});

Deno.test("the split stretches over unsettled claims and stranded items lead", () => {
  const recent = [m("c"), m("b"), m("a")];
  const plan = planFirstMessageWake({
    recent,
    stranded: [m("z")],
    self: SELF,
    unsettled: new Set(["a"]),
  });
  assert.deepEqual(uuids(plan.reply), ["z", "a", "b", "c"]);
  assert.deepEqual(strandedUuids(recent, ["a", "z"]), ["z"]);
});

Deno.test("a first asset/event wake without a trigger acts on the newest item only, never the backlog", () => {
  const recent = [m("c"), m("b"), m("a")];
  assert.deepEqual(uuids(planFirstItemWake({ recent, stranded: [], unsettled: none }).act), ["c"]);
  // The agent's own newest item is still the one planned: triage settles it without a turn
  // (the self-filter), and the older peer items stay unreplayed.
  const ownNewest = [m("c", SELF), m("b"), m("a")];
  assert.deepEqual(
    uuids(planFirstItemWake({ recent: ownNewest, stranded: [], unsettled: none }).act),
    ["c"],
  );
  assert.deepEqual(planFirstItemWake({ recent: [], stranded: [], unsettled: none }).act, []);
  assert.equal(planFirstItemWake({ recent, stranded: [], unsettled: none }).fetchTrigger, false);
});

Deno.test("a first asset/event wake also finishes what a dead wake left unsettled", () => {
  const recent = [m("c"), m("b"), m("a")];
  // Stranded items lead; the newest is acted on as well.
  assert.deepEqual(
    uuids(planFirstItemWake({ recent, stranded: [m("z")], unsettled: new Set(["z"]) }).act),
    ["z", "c"],
  );
  // The window from the oldest unsettled claim in it up to the newest.
  assert.deepEqual(
    uuids(planFirstItemWake({ recent, stranded: [], unsettled: new Set(["b"]) }).act),
    ["b", "c"],
  );
  assert.deepEqual(
    uuids(planFirstItemWake({ recent, stranded: [], unsettled: new Set(["c"]) }).act),
    ["c"],
  );
  assert.deepEqual(
    uuids(planFirstItemWake({ recent: [], stranded: [m("z")], unsettled: new Set(["z"]) }).act),
    ["z"],
  );
});

Deno.test("a first asset/event wake with a trigger acts on it and everything newer", () => {
  const recent = [m("c"), m("b"), m("a")];
  assert.deepEqual(
    uuids(planFirstItemWake({ recent, stranded: [], trigger: "b", unsettled: none }).act),
    ["b", "c"],
  );
  assert.deepEqual(
    uuids(planFirstItemWake({ recent, stranded: [], trigger: "c", unsettled: none }).act),
    ["c"],
  );
  assert.deepEqual(
    uuids(planFirstItemWake({ recent, stranded: [], trigger: "b", unsettled: new Set(["a"]) }).act),
    ["a", "b", "c"],
  );
  const outside = planFirstItemWake({ recent, stranded: [], trigger: "x", unsettled: none });
  assert.equal(outside.fetchTrigger, true);
  assert.deepEqual(outside.act, []);
  assert.deepEqual(uuids(withFetchedTrigger(recent, [], m("x"))), ["x", "a", "b", "c"]);
  assert.deepEqual(uuids(withFetchedTrigger(recent, [], undefined)), ["a", "b", "c"]);
});

Deno.test("the mark stops before the first pending entry", () => {
  const ledger: LedgerEntry[] = [
    { uuid: "a", disposition: "final" },
    { uuid: "b", disposition: "ours" },
    { uuid: "c", disposition: "pending" },
    { uuid: "d", disposition: "final" },
  ];
  assert.equal(settledMark(ledger), "b");
  assert.equal(settledMark([{ uuid: "a", disposition: "pending" }]), undefined);
  assert.deepEqual(seenAdditions(ledger), ["a", "b", "d"]);
});

Deno.test("tasks: the listing reversed minus the seen-set; bootstrap mark rules", () => {
  assert.deepEqual(uuids(unhandledTasks([m("c"), m("b"), m("a")], new Set(["b"]))), ["a", "c"]);
  assert.equal(bootstrapMark([m("c"), m("b")], undefined), "c");
  assert.equal(bootstrapMark([m("c"), m("b")], "b"), "c");
  assert.equal(bootstrapMark([m("c"), m("b")], "zzz"), undefined);
});
