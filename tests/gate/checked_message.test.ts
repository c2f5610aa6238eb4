/** The seal: a CheckedMessage exists only from passing verdicts, and delivery takes nothing else. */
import { strict as assert } from "node:assert";
import { CheckedMessage, GateRefusal, notEmpty, pipeline } from "../../lib/gate/mod.ts";
import { DEFAULT_GUARDRAILS } from "../../lib/gate/guardrails.ts";
import { deliver } from "../../lib/gate/deliver.ts";
import { PlatformClient } from "../../lib/platform/mod.ts";
import type { Check } from "../../lib/gate/verdict.ts";

const draft = { timeline: "0195f0e0-0000-7000-8000-000000000001", body: "hello" };
const alwaysFails: Check = {
  name: "always_fails",
  judge: () => ({ check: "always_fails", passed: false, reason: "no" }),
};

/** A client whose every request is recorded and answered 500, so a leak is visible. */
function recordingClient(): { client: PlatformClient; calls: string[] } {
  const calls: string[] = [];
  const client = new PlatformClient({
    baseUrl: "http://127.0.0.1:9",
    token: "bc_uat_test0000000000000000000000000000",
    fetch: (input: Request | URL | string) => {
      calls.push(String(input instanceof Request ? input.url : input));
      return Promise.resolve(new Response("{}", { status: 500 }));
    },
  });
  return { client, calls };
}

Deno.test("checked message: screen() seals a body whose verdicts all passed", () => {
  const checked = CheckedMessage.screen(draft, pipeline(DEFAULT_GUARDRAILS));
  assert.equal(checked.body, "hello");
  assert.equal(checked.timeline, draft.timeline);
  assert.deepEqual(checked.verdicts.map((v) => v.check), [
    "not_empty",
    "known_secrets",
    "secret_guard",
    "max_length",
    "forbidden_patterns",
  ]);
  assert.ok(CheckedMessage.is(checked));
  assert.ok(Object.isFrozen(checked) && Object.isFrozen(checked.verdicts));
  // @ts-expect-error: readonly — and frozen, so a cast would not help either
  assert.throws(() => (checked.body = "swapped after screening"), TypeError);
});

Deno.test("checked message: no verdicts, or a failing one, builds nothing", () => {
  assert.throws(() => CheckedMessage.screen(draft, []), /needs verdicts/);
  const error = (() => {
    try {
      CheckedMessage.screen(draft, [notEmpty, alwaysFails]);
    } catch (e) {
      return e;
    }
  })();
  assert.ok(error instanceof GateRefusal);
  assert.equal(error.check, "always_fails");
});

Deno.test("checked message: the constructor cannot be reached around screen()", () => {
  // @ts-expect-error: the constructor is private
  assert.throws(() => new CheckedMessage(Symbol("forged"), draft, []), TypeError);
  const ctor = CheckedMessage as unknown as new (...args: unknown[]) => object;
  const passing = [{ check: "forged", passed: true }];
  assert.throws(() => Reflect.construct(ctor, [Symbol("forged"), draft, passing]), /screen/);
  assert.ok(!CheckedMessage.is({ ...draft, verdicts: passing }));
});

Deno.test("checked message: deliver() refuses a look-alike before any request", async () => {
  const { client, calls } = recordingClient();
  const fake = { ...draft, verdicts: [{ check: "forged", passed: true }] };
  // @ts-expect-error: a look-alike object is not a CheckedMessage (the class is nominal)
  await assert.rejects(deliver(client, fake), /only a screened CheckedMessage/);
  assert.deepEqual(calls, []);
  // The real thing does reach the wire (here: a stub answering 500).
  await assert.rejects(deliver(client, CheckedMessage.screen(draft, [notEmpty])));
  assert.equal(calls.length, 1);
});
