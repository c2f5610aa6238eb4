/** The few-line example provider. */
import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import { EchoProvider } from "../../lib/providers/echo.ts";

Deno.test("echo answers the newest USER turn, even after a tool result", async () => {
  const reply = await new EchoProvider().chat([
    Message.user("first"),
    Message.assistant({ content: "hm" }),
    Message.user("second"),
    Message.assistant({ toolCalls: [{ id: "c", name: "t", arguments: {} }] }),
    Message.tool("c", "tool output"),
  ]);
  assert.deepEqual(reply, { role: "assistant", content: "You said: second" });
});

Deno.test("echo with no user turn says so plainly", async () => {
  const reply = await new EchoProvider().chat([Message.system("sys")]);
  assert.equal(reply.content, "You said: ");
});
