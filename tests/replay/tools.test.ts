/**
 * The replay tool set on a record written by the real writer: reads answered from the record by
 * name and arguments (each once), a cut result flagged, creates captured, an unrecorded read told
 * so, and posts screened by the gate's real checks — with nothing able to reach a platform.
 */
import assert from "node:assert/strict";
import { appendTurnRecord, TOOL_TEXT_CAP } from "../../lib/home/records/mod.ts";
import { DEFAULT_GUARDRAILS, surfaceChecks } from "../../lib/gate/mod.ts";
import { MessagesTool } from "../../lib/tools/messages.ts";
import {
  REPLAY_OFFLINE,
  ReplayCapture,
  replayContext,
  ReplayTurnTools,
} from "../../lib/replay/mod.ts";
import { turnInput, withHome } from "../home/records/fixture.ts";

const SECRET = "sk-live-abcdefghijklmnopqrstuvwx";

Deno.test("replay tools answer from the record, capture creates and screen posts for real", async () => {
  await withHome(async (home) => {
    const long = "x".repeat(TOOL_TEXT_CAP + 10);
    const record = await appendTurnRecord(home, {
      ...turnInput(1),
      content: "full",
      inbound: { items: ["item-1"], text: "[t] bob: hi" },
      outbound: [{ uuid: "0197a6b2-0000-7000-8000-000000000001", kind: "tool", text: "hello" }],
      toolCalls: [
        {
          name: "messages",
          outcome: "ok",
          action: "list",
          arguments: { action: "list" },
          result: "first list",
        },
        {
          name: "messages",
          outcome: "ok",
          action: "list",
          arguments: { action: "list" },
          result: "second list",
        },
        {
          name: "users",
          outcome: "ok",
          action: "list",
          arguments: { action: "list" },
          result: long,
        },
      ],
    });
    const capture = new ReplayCapture();
    const tools = new ReplayTurnTools({
      record,
      checks: surfaceChecks(DEFAULT_GUARDRAILS, [SECRET]),
      capture,
    });
    const real = new MessagesTool(replayContext());
    const messages = tools.wrap(real);
    assert.deepEqual(messages.spec(), real.spec());
    // The same call twice gets the recorded results in order; a third has none left.
    assert.equal(messages.run({ action: "list" }), "first list");
    assert.equal(messages.run({ action: "list" }), "second list");
    assert.match(String(messages.run({ action: "list" })), /is not captured in the record/);
    // Different arguments are not the recorded call.
    assert.match(
      String(tools.answer("users", { action: "read", uuid: "u" })),
      /is not captured in the record/,
    );
    // A cut result comes back cut, and says so.
    const cut = String(tools.answer("users", { action: "list" }));
    assert.ok(cut.startsWith("x".repeat(TOOL_TEXT_CAP)));
    assert.match(cut, /record kept only the first 4,000 characters/);
    // A create the record never made is captured, not sent.
    assert.match(String(tools.answer("tasks", { action: "create", title: "t" })), /not sent/);
    assert.deepEqual(capture.creates.map((c) => `${c.name}/${c.action}`), ["tasks/create"]);
    // Posts: a clean one passes (with the recorded uuid), one holding a secret is refused.
    assert.match(
      String(messages.run({ action: "create", body: "hello again" })),
      /^Posted to timeline .*uuid is 0197a6b2-0000-7000-8000-000000000001\.$/,
    );
    assert.match(
      String(messages.run({ action: "create", body: `the key is ${SECRET}` })),
      /^Couldn't create a message: the outbound gate blocked it/,
    );
    assert.deepEqual(capture.posts.map((p) => p.text), ["hello again"]);
    assert.deepEqual(capture.verdicts.map((v) => v.verdict), ["passed", "refused"]);
    assert.ok(capture.verdicts[1].checks.length > 0);
  });
});

Deno.test("the replay context refuses any platform call and any post", async () => {
  const context = replayContext();
  await assert.rejects(() => context.client.timelines.get("t"), new RegExp(REPLAY_OFFLINE));
  await assert.rejects(
    () => context.gate.post({ timeline: "t", body: "hi", kind: "tool" }),
    new RegExp(REPLAY_OFFLINE),
  );
});
