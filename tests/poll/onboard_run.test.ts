/**
 * The charter's onboarding prefix (`HARNESS_ONBOARD`, docs/poll.md), the long-lived `run`
 * loop and its clean stop, and the configuration `fromEnv` refuses.
 */
import assert from "node:assert/strict";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { PollConfigError, TimelineAgent } from "../../lib/poll/mod.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { chatMessages, pollAgent, say, scriptReply, waitFor, world } from "./poll_support.ts";

const QUIET = { json: chatCompletion({ content: "noted" }) };

/** The system turn of the `i`th chat request. */
function systemOf(w: Awaited<ReturnType<typeof world>>, i: number): string {
  return chatMessages(w.model, i).find((m) => m.role === "system")?.content ?? "";
}

Deno.test("onboarding on: the charter opens with the dashboard orientation", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w, { HARNESS_SYSTEM_PROMPT: "Be brief." });
  await using _ = agent;
  await agent.pollOnce();
  await say(w, "hi");
  w.model.reply("chat", QUIET);
  await agent.pollOnce();
  const system = systemOf(w, 0);
  assert.ok(system.startsWith("Your BaseCradle orientation:\nYou are on BaseCradle — "), system);
  assert.match(system, /\nHere, you are a first-class peer here, not a tool\.\n/);
  assert.match(system, /\n- API: http:\/\/[^\n]+\/docs\/api\.md\n/);
  assert.match(system, /\nYou are signed in as @ada\.\n/);
  assert.ok(system.endsWith("\n\nBe brief."), "the operator's charter follows the orientation");
});

Deno.test("onboarding off: only the operator's charter", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w, {
    HARNESS_SYSTEM_PROMPT: "Be brief.",
    HARNESS_ONBOARD: "off",
  });
  await using _ = agent;
  await agent.pollOnce();
  await say(w, "hi");
  w.model.reply("chat", QUIET);
  await agent.pollOnce();
  assert.equal(systemOf(w, 0), "Be brief.");
});

Deno.test("run engages new messages until aborted, then resolves", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w);
  await using _ = agent;
  const stop = new AbortController();
  const running = agent.run({ intervalMs: 20, signal: stop.signal });
  await waitFor("the seed", () => agent.self !== undefined);
  await say(w, "ping");
  scriptReply(w.model, "pong");
  await waitFor(
    "the reply",
    async () =>
      (await w.peer.client.messages.list({ timeline: w.timeline }).toArray())
        .some((m) => m.content.body === "pong"),
  );
  stop.abort();
  await running;
  assert.equal(w.model.hits("chat"), 2);
});

Deno.test("run stops promptly when aborted during a long pause", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w);
  await using _ = agent;
  const stop = new AbortController();
  const running = agent.run({ intervalMs: 60_000, signal: stop.signal });
  await waitFor("the seed", () => agent.self !== undefined);
  const started = Date.now();
  stop.abort();
  await running;
  // Far below the minute-long pause it cut short, and far above what a loaded machine needs.
  assert.ok(Date.now() - started < 30_000);
});

Deno.test("run with an aborted signal never polls", async () => {
  await using w = await world();
  const { agent } = await pollAgent(w);
  await using _ = agent;
  const before = w.sandbox.requests.length;
  await agent.run({ signal: AbortSignal.abort() });
  assert.equal(w.sandbox.requests.length, before);
});

Deno.test("run logs a failure after the start and keeps polling", async () => {
  await using w = await world();
  const { agent, journal } = await pollAgent(w, { HARNESS_RESPONSE_RETRIES: "0" });
  await using _ = agent;
  const stop = new AbortController();
  const running = agent.run({ intervalMs: 20, signal: stop.signal });
  await waitFor("the seed", () => agent.self !== undefined);
  w.model.reply("chat", { status: 400, json: { error: { message: "nope" } } });
  await say(w, "first");
  await waitFor(
    "the failure line",
    () => journal.lines.some((l) => l.startsWith("ERROR poll failed")),
  );
  scriptReply(w.model, "second answered");
  await say(w, "second");
  await waitFor("the reply", () => w.model.hits("chat") === 3);
  stop.abort();
  await running;
});

Deno.test("run throws when the first poll cannot start (unknown timeline)", async () => {
  await using w = await world();
  const journal = new MemoryJournal();
  const agent = await TimelineAgent.fromEnv("00000000-0000-4000-8000-000000000000", w.env, {
    journal,
    narrow: false,
  });
  await using _ = agent;
  await assert.rejects(
    agent.run({ intervalMs: 10 }),
    /does not exist, or this agent cannot view it/,
  );
});

Deno.test("fromEnv refuses a missing model, key or timeline", async () => {
  await using w = await world();
  const options = { journal: new MemoryJournal(), narrow: false };
  const without = (name: string) =>
    Object.fromEntries(
      Object.entries(w.env).filter(([key]) => key !== name),
    );
  await assert.rejects(
    TimelineAgent.fromEnv(w.timeline, without("AI_MODEL"), options),
    (e) => e instanceof PollConfigError && /AI_MODEL is required/.test(e.message),
  );
  await assert.rejects(
    TimelineAgent.fromEnv(w.timeline, without("AI_API_KEY"), options),
    (e) => e instanceof PollConfigError && /AI_API_KEY/.test(e.message),
  );
  await assert.rejects(TimelineAgent.fromEnv(undefined, w.env, options), /BASECRADLE_TIMELINE/);
  await assert.rejects(TimelineAgent.fromEnv("not-a-uuid", w.env, options), /must be a uuid/);
  await assert.rejects(
    TimelineAgent.fromEnv(w.timeline, { ...w.env, HARNESS_CONTEXT_MESSAGES: "-1" }, options),
    /HARNESS_CONTEXT_MESSAGES/,
  );
  // BASECRADLE_TIMELINE is the fallback.
  const agent = await TimelineAgent.fromEnv(undefined, {
    ...w.env,
    BASECRADLE_TIMELINE: w.timeline.toUpperCase(),
  }, options);
  await agent.close();
  assert.equal(agent.timeline, w.timeline);
});
