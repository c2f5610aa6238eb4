import assert from "node:assert/strict";
import { Message } from "../../lib/core/message.ts";
import { INTERRUPTED } from "../../lib/core/heal.ts";
import { idempotencyKey } from "../../lib/platform/mod.ts";
import { createOrdinal, findCall, idempotencyKeySync, keyForCall } from "../../lib/wake/keys.ts";

const TL = "0190a000-0000-7000-8000-000000000001";
const ANCHOR = "0190a000-0000-7000-8000-0000000000aa";
const create = (id: string, body = "x") => ({
  id,
  name: "messages",
  arguments: { action: "create", body },
});

Deno.test("the sync key is byte-identical to the platform's uuid5 key", async () => {
  for (const ordinal of [1, 2, 17]) {
    assert.equal(
      idempotencyKeySync({ timeline: TL, anchor: ANCHOR, kind: "message", ordinal }),
      await idempotencyKey({ timeline: TL, anchor: ANCHOR, kind: "message", ordinal }),
    );
  }
});

Deno.test("ordinals count earlier creates with results, paired inside their own run", () => {
  const messages: Message[] = [
    Message.user("old", { items: ["z"] }),
    Message.assistant({ toolCalls: [create("call_0")] }),
    Message.tool("call_0", "posted"),
    Message.user("hi", { items: [ANCHOR] }),
    Message.assistant({
      toolCalls: [create("call_0"), {
        id: "call_1",
        name: "memory",
        arguments: { action: "create" },
      }],
    }),
    Message.tool("call_0", "Error running 'messages': refused"),
    Message.tool("call_1", "ok"),
    Message.assistant({ toolCalls: [create("call_0"), create("call_1")] }),
    Message.tool("call_0", INTERRUPTED),
  ];
  // Reused id call_0: the newest assistant turn naming it is the one being dispatched.
  assert.deepEqual(findCall(messages, 3, "call_0"), { assistant: 7, call: 0 });
  // The rejected create (index 4) still consumes ordinal 1; the memory call consumes none.
  assert.equal(createOrdinal(messages, 3, { assistant: 7, call: 0 }, "message"), 2);
  assert.equal(createOrdinal(messages, 3, { assistant: 7, call: 1 }, "message"), 3);
  assert.equal(createOrdinal(messages, 3, { assistant: 4, call: 0 }, "message"), 1);
  const key = keyForCall(TL, { anchor: ANCHOR, turnStart: 3, messages }, "message", "call_1");
  assert.equal(
    key,
    idempotencyKeySync({ timeline: TL, anchor: ANCHOR, kind: "message", ordinal: 3 }),
  );
  assert.equal(
    keyForCall(TL, { anchor: undefined, turnStart: 3, messages }, "message", "call_1"),
    undefined,
  );
});
