import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import { INTERRUPTED } from "../../lib/core/transcript/heal.ts";
import { idempotencyKey } from "../../lib/platform/mod.ts";
import { createOrdinal, findCall, keyForCall } from "../../lib/wake/keys.ts";

const TL = "0190a000-0000-7000-8000-000000000001";
const ANCHOR = "0190a000-0000-7000-8000-0000000000aa";
const create = (id: string, body = "x") => ({
  id,
  name: "messages",
  arguments: { action: "create", body },
});

Deno.test("a call's key is the platform's uuid5 key for its turn's anchor and ordinal", async () => {
  for (const ordinal of [1, 2, 17]) {
    const messages: Message[] = [Message.user("hi", { items: [ANCHOR] })];
    for (let i = 1; i < ordinal; i++) {
      messages.push(Message.assistant({ toolCalls: [create(`call_${i}`)] }));
      messages.push(Message.tool(`call_${i}`, "posted"));
    }
    messages.push(Message.assistant({ toolCalls: [create("call_last")] }));
    assert.equal(
      await keyForCall(TL, { anchor: ANCHOR, turnStart: 0, messages }, "message", "call_last"),
      await idempotencyKey({ timeline: TL, anchor: ANCHOR, kind: "message", ordinal }),
    );
  }
});

Deno.test("ordinals count earlier creates with results, paired inside their own run", async () => {
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
  const key = await keyForCall(
    TL,
    { anchor: ANCHOR, turnStart: 3, messages },
    "message",
    "call_1",
  );
  assert.equal(
    key,
    await idempotencyKey({ timeline: TL, anchor: ANCHOR, kind: "message", ordinal: 3 }),
  );
  assert.equal(
    await keyForCall(TL, { anchor: undefined, turnStart: 3, messages }, "message", "call_1"),
    undefined,
  );
});
