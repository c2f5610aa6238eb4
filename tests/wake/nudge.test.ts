import assert from "node:assert/strict";
import { Message } from "../../lib/core/types/message.ts";
import type { StepContext } from "../../lib/core/turn_hook.ts";
import {
  armedReason,
  isOneOnOne,
  MENTION_NUDGE_HEAD,
  mentions,
  NUDGE_TAIL,
  nudgeHook,
  nudgeText,
} from "../../lib/wake/nudge.ts";

Deno.test("a mention is the exact handle, case-insensitive, not glued to a longer handle", () => {
  assert.equal(mentions("hey @Agent, ping", "agent"), true);
  assert.equal(mentions("hey @agentx", "agent"), false);
  assert.equal(mentions("mail x@agent", "agent"), false);
  assert.equal(mentions("(@agent)", "@agent"), true);
});

Deno.test("one-on-one is exactly the agent and one other viewer", () => {
  assert.equal(isOneOnOne(["me", "you", "me"], "me"), true);
  assert.equal(isOneOnOne(["me", "you", "them"], "me"), false);
  assert.equal(isOneOnOne(["you", "them"], "me"), false);
});

Deno.test("mention wording wins over one-on-one; tasks are never armed", () => {
  assert.equal(
    armedReason({ text: "@me hi", handle: "me", counterpartOnOneOnOne: true }),
    "mention",
  );
  assert.equal(
    armedReason({ text: "hi", handle: "me", counterpartOnOneOnOne: true }),
    "one-on-one",
  );
  assert.equal(armedReason({ text: "hi", handle: "me", counterpartOnOneOnOne: false }), undefined);
  assert.equal(nudgeText("mention"), MENTION_NUDGE_HEAD + NUDGE_TAIL);
  assert.ok(NUDGE_TAIL.includes("calling the `messages` tool"));
});

Deno.test("the hook nudges once, and not after a visible act", () => {
  const appended: Message[] = [];
  const context = (): StepContext => ({
    step: 1,
    maxSteps: 24,
    reply: Message.assistant({ content: "done" }),
    toolRuns: [],
    messages: [],
    append: (m) => appended.push(m),
  });
  const hook = nudgeHook("one-on-one", () => false);
  assert.equal(hook.beforeFinish?.(context()), true);
  assert.equal(hook.beforeFinish?.(context()), false);
  assert.equal(appended.length, 1);
  assert.equal(appended[0].role, "system");
  const acted = nudgeHook("mention", () => true);
  assert.equal(acted.beforeFinish?.(context()), false);
});
