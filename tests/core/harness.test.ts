import assert from "node:assert/strict";
import { join } from "node:path";
import { ProviderAuthError } from "../../lib/core/types/faults.ts";
import { DEFAULT_SOURCE, Harness, withCharter } from "../../lib/core/harness.ts";
import { Message } from "../../lib/core/types/message.ts";
import { Policy, PolicyError } from "../../lib/core/policy.ts";
import type { Provider } from "../../lib/core/types/provider.ts";
import { InMemorySessionStore } from "../../lib/core/transcript/session_store.ts";
import { SHELL, Tool } from "../../lib/core/types/tool.ts";
import { calls, RecordingJournal, ScriptedProvider, text } from "./engine_fixtures.ts";

/** The seed's "Add your own provider" example: one method, nothing to inherit. */
class EchoProvider implements Provider {
  chat(messages: readonly Message[]): Promise<Message> {
    const last = messages.findLast((m) => m.role === "user")?.content;
    return Promise.resolve(Message.assistant({ content: `You said: ${last}` }));
  }
}

/** A stateful tool: one instance is the agent's one memory across sessions. */
class Remember extends Tool {
  readonly name = "remember";
  readonly description = "Store or recall a fact.";
  readonly facts = new Map<string, string>();
  run(args: { key: string; value?: string }): string {
    if (args.value !== undefined) {
      this.facts.set(args.key, args.value);
      return `stored ${args.key}`;
    }
    return this.facts.get(args.key) ?? "nothing stored";
  }
}

class DangerousTool extends Tool {
  readonly name = "shell";
  readonly description = "Run a command.";
  override readonly requires = new Set([SHELL]);
  run(): string {
    return "not reachable under the safe profile";
  }
}

Deno.test("harness: the EchoProvider quickstart", async () => {
  const agent = new Harness(new EchoProvider());
  assert.equal(await agent.send("Hello!"), "You said: Hello!");
  const transcript = await agent.transcript();
  assert.deepEqual(transcript.map((m) => m.role), ["user", "system", "assistant"]);
  assert.equal(transcript[2].content, "You said: Hello!");
  assert.deepEqual(agent.tools, []);
});

Deno.test("harness: one session per source, all sharing the same tools", async () => {
  const memory = new Remember();
  // The model stores on the PR channel and recalls on the timeline channel.
  const provider = new ScriptedProvider([
    calls("remember", { key: "shipped", value: "retry fix" }),
    text("Noted."),
    calls("remember", { key: "shipped" }),
    (messages) => Message.assistant({ content: `I shipped the ${messages.at(-2)?.content}.` }),
  ]);
  const agent = new Harness(provider, { tools: [memory] });
  await agent.send("I shipped the retry fix on PR #123.", { source: "github:pr-123" });
  const reply = await agent.send("What did you ship?", { source: "timeline:abc" });

  assert.equal(reply, "I shipped the retry fix.");
  assert.equal(memory.facts.get("shipped"), "retry fix");
  const pr = await agent.transcript("github:pr-123");
  const tl = await agent.transcript("timeline:abc");
  assert.equal(pr[0].content, "I shipped the retry fix on PR #123.");
  assert.equal(tl[0].content, "What did you ship?");
  assert.ok(!tl.some((m) => m.content?.includes("PR #123")));
  // The timeline's model call saw only its own conversation.
  assert.ok(!provider.calls[2].messages.some((m) => m.content?.includes("PR #123")));
  assert.deepEqual((await agent.sources()).sort(), ["github:pr-123", "timeline:abc"]);
  assert.deepEqual(await agent.transcript("nobody"), []);
  assert.equal(DEFAULT_SOURCE, "default");
});

Deno.test("harness: the charter is sent first on every call and never persisted", async () => {
  const store = new InMemorySessionStore();
  let version = 0;
  const provider = new ScriptedProvider([text("one"), text("two")]);
  const agent = new Harness(provider, {
    store,
    systemPrompt: () => `You are Nova (v${++version}).`,
  });
  await agent.send("hi");
  await agent.send("again");
  assert.equal(provider.calls[0].messages[0].role, "system");
  assert.equal(provider.calls[0].messages[0].content, "You are Nova (v1).");
  assert.equal(provider.calls[1].messages[0].content, "You are Nova (v2).");
  assert.equal(
    provider.calls[1].messages.filter((m) => m.content?.startsWith("You are")).length,
    1,
  );
  const saved = await store.load(DEFAULT_SOURCE);
  assert.ok(!saved.some((m) => m.content?.startsWith("You are Nova")));
  assert.equal(saved[0].content, "hi");
});

Deno.test("harness: a stale charter at the head of a loaded transcript is not sent twice", async () => {
  const store = new InMemorySessionStore();
  await store.save("old", [Message.system("Old charter."), Message.user("a"), text("b")]);
  const provider = new ScriptedProvider([text("c")]);
  const agent = new Harness(provider, { store, systemPrompt: "New charter." });
  await agent.send("d", { source: "old" });
  const sent = provider.calls[0].messages;
  assert.equal(sent[0].content, "New charter.");
  assert.ok(!sent.some((m) => m.content === "Old charter."));
  assert.equal((await agent.transcript("old"))[0].content, "Old charter."); // left as written

  // Without a charter of our own, the transcript is sent as it is.
  assert.deepEqual(withCharter(undefined, [Message.system("Old charter.")]).length, 1);
  // A leading step counter or compaction summary is history, not a charter.
  const summary = Message.system("[Earlier conversation compacted: 3 messages replaced …]");
  assert.equal(withCharter("C", [summary]).length, 2);
});

Deno.test("harness: safe by default — a SHELL tool is refused at construction", () => {
  assert.throws(
    () => new Harness(new EchoProvider(), { tools: [new DangerousTool()] }),
    PolicyError,
  );
  const unlocked = new Harness(new EchoProvider(), {
    tools: [new DangerousTool(), new Remember()],
    policy: Policy.unlocked(),
  });
  assert.deepEqual(unlocked.tools, ["remember", "shell"]);
  assert.equal(unlocked.registry.policy.profile, "unlocked");
});

Deno.test("harness: a failed turn leaves a failure marker on disk and rethrows", async () => {
  const store = new InMemorySessionStore();
  const fault = new ProviderAuthError("key revoked", 401);
  const agent = new Harness(new ScriptedProvider([fault]), { store });
  await assert.rejects(agent.send("hi"), (error) => error === fault);
  const saved = await store.load(DEFAULT_SOURCE);
  assert.equal(saved.at(-1)?.role, "system");
  assert.equal(saved.at(-1)?.content, "[turn failed: ProviderAuthError — key revoked]");
  assert.equal(saved[0].content, "hi");
});

Deno.test("harness: a user turn that cannot be saved never reaches the model", async () => {
  const journal = new RecordingJournal();
  const store = new InMemorySessionStore();
  store.save = () => Promise.reject(new Error("read-only filesystem"));
  const provider = new ScriptedProvider([text("never")]);
  const agent = new Harness(provider, { store, journal });
  await assert.rejects(agent.send("hi"), /read-only filesystem/);
  assert.equal(provider.calls.length, 0);
  assert.deepEqual(journal.at("ERROR"), [
    "ERROR Could not persist the transcript of a turn that was already failing: " +
    "read-only filesystem",
  ]);
});

Deno.test("harness: a shared store carries sessions across instances (a restart)", async () => {
  const store = new InMemorySessionStore();
  await new Harness(new EchoProvider(), { store }).send("first", { source: "s" });
  const provider = new ScriptedProvider([text("second reply")]);
  const again = new Harness(provider, { store });
  assert.equal((await again.transcript("s")).length, 3);
  await again.send("second", { source: "s" });
  assert.deepEqual(
    provider.calls[0].messages.filter((m) => m.role === "user").map((m) => m.content),
    [
      "first",
      "second",
    ],
  );
});

Deno.test("harness: with home, transcripts persist under <home>/sessions/", async () => {
  const home = await Deno.makeTempDir();
  try {
    const agent = new Harness(new EchoProvider(), { home, systemPrompt: "Charter." });
    await agent.send("remember me", { source: "github:pr-123" });
    const file = join(home, "sessions", "github%3Apr-123.json");
    const raw = await Deno.readTextFile(file);
    assert.ok(raw.includes("remember me"));
    assert.ok(!raw.includes("Charter."));
    const restarted = new Harness(new EchoProvider(), { home });
    const transcript = await restarted.transcript("github:pr-123");
    assert.deepEqual(transcript.map((m) => m.role), ["user", "system", "assistant"]);
    assert.equal(transcript[2].content, "You said: remember me");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("harness: home and store together are refused", () => {
  assert.throws(
    () => new Harness(new EchoProvider(), { home: "/tmp/x", store: new InMemorySessionStore() }),
    TypeError,
  );
});

Deno.test("harness: concurrent sends on one source run one after the other", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const provider = new ScriptedProvider([
    async () => (await gate, text("first reply")),
    text("second reply"),
  ]);
  const agent = new Harness(provider);
  const a = agent.send("one");
  const b = agent.send("two");
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(provider.calls.length, 1); // the second turn waits for the first
  release();
  assert.deepEqual(await Promise.all([a, b]), ["first reply", "second reply"]);
  const users = (await agent.transcript()).filter((m) => m.role === "user").map((m) => m.content);
  assert.deepEqual(users, ["one", "two"]);
});

Deno.test("harness: turn() exposes the engine result and the journal sees the turn", async () => {
  const journal = new RecordingJournal();
  const agent = new Harness(new ScriptedProvider([text("ok")]), { journal, maxSteps: 3 });
  const result = await agent.turn("hi");
  assert.equal(result.kind, "narration");
  assert.equal(result.steps, 1);
  assert.equal(result.maxSteps, 3);
  assert.ok(journal.lines().includes("INFO wake used 1/3 steps"));
});
