/**
 * What the router scenarios share (tests/e2e/routed_*.test.ts): a routed world with every rule of
 * the router twin on, a scripted model that answers every turn by naming the tags of the items it
 * was given (so a reply says exactly which items it answered), readers for those tags, and a
 * bounded wait for the router to settle.
 *
 * A tag is a word `tag-<letters and digits>` inside a message body, a file name or a webhook
 * payload. Tags never repeat within a scenario, so "each item answered exactly once" is "each tag
 * appears in exactly one of the agent's posts".
 */
import assert from "node:assert/strict";
import { PlatformClient } from "../../lib/platform/mod.ts";
import { FLEET_RULES } from "../../lib/sandbox/router_rules.ts";
import { chatCompletion, type ModelMock } from "../support/model_mock.ts";
import { agentPosts, type RoutedWorld, world, type WorldOptions } from "./wake_support.ts";

const TAG = /\btag-[a-z0-9]+\b/g;

/** The tags in a text, in order of appearance, each once. */
export function tagsIn(text: string): string[] {
  return [...new Set(text.match(TAG) ?? [])];
}

/**
 * A routed world under the fleet router's rules, every one on (own posts delivered back, one
 * wake per agent, dedup, coalescing, the wake-lock check, the rate caps, retries); asserted, so
 * a change of the twin's defaults cannot quietly weaken these scenarios.
 */
export async function fleetWorld(
  options: Omit<WorldOptions, "routed"> = {},
): Promise<RoutedWorld> {
  const w = await world({ ...options, routed: true });
  const rules = w.sandbox.router!.rules;
  assert.deepEqual({ ...rules, wakeLockDir: null }, FLEET_RULES);
  assert.ok(rules.wakeLockDir, "the wake-lock rule is on");
  return w;
}

/**
 * From now on every turn on `model` answers with one `messages` create whose body is
 * `re <tags of the turn's items>` (or `re (untagged)`), then closes with a line of narration
 * once the tool's result is back.
 */
export function answerTags(model: ModelMock): void {
  let n = 0;
  model.always("chat", (request) => {
    const messages = (request.body as { messages: { role: string; content: unknown }[] })
      .messages;
    const turn = messages.findLastIndex((m) => m.role === "user");
    if (messages.slice(turn + 1).some((m) => m.role === "tool")) {
      return { json: chatCompletion({ content: "Answered." }) };
    }
    const tags = tagsIn(String(messages[turn]?.content ?? ""));
    const body = `re ${tags.join(" ") || "(untagged)"}`;
    n++;
    return {
      json: chatCompletion({
        toolCalls: [{ id: `call_${n}`, name: "messages", arguments: { action: "create", body } }],
      }),
    };
  });
}

/** The tags of each turn the model was asked to answer (its first step), in order. */
export function engagedTags(model: ModelMock): string[][] {
  return model.requestsTo("chat").flatMap((r) => {
    const messages = (r.body as { messages: { role: string; content: unknown }[] }).messages;
    const turn = messages.findLastIndex((m) => m.role === "user");
    if (messages.slice(turn + 1).some((m) => m.role === "tool")) return [];
    return [tagsIn(String(messages[turn]?.content ?? ""))];
  });
}

/**
 * Asserts that every tag in `tags` was answered by exactly one of the agent's posts and reached
 * the model in exactly one turn — no item missed, none answered twice.
 */
export async function assertAnsweredOnce(w: RoutedWorld, tags: readonly string[]): Promise<void> {
  const posts = await agentPosts(w);
  const answered = posts.flatMap(tagsIn);
  const engaged = engagedTags(w.model).flat();
  for (const tag of tags) {
    const count = answered.filter((t) => t === tag).length;
    assert.equal(count, 1, `${tag} answered ${count} times; posts: ${JSON.stringify(posts)}`);
    const seen = engaged.filter((t) => t === tag).length;
    assert.equal(seen, 1, `${tag} reached the model in ${seen} turns`);
  }
  // No post is a stray: each answered something this scenario asked.
  for (const post of posts) {
    assert.ok(tagsIn(post).every((t) => tags.includes(t)), `stray post ${post}`);
  }
}

/**
 * Waits for the router to settle, failing with its lines when it has not within `ms` (a loop that
 * never ends must fail the test, not hang it).
 */
export async function settled(w: RoutedWorld, ms = 240_000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the router did not settle:\n${w.routerLines().join("\n")}`)),
      ms,
    );
  });
  try {
    await Promise.race([w.settle(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asserts what every scenario's router history must show: no delivery failed, none was refused
 * by the router's rate caps or an operator's lock, and no wake declined an item or tripped the
 * breaker (unless `breaker` says the scenario expects it).
 */
export function assertCleanHistory(w: RoutedWorld, breaker = false): void {
  const bad = w.history().filter((r) =>
    r.outcome === "failed" || r.outcome === "rate-refused" || r.outcome === "wake-locked" ||
    r.outcome === "dropped"
  );
  assert.deepEqual(bad.map((r) => `${r.handle} ${r.outcome} ${r.detail}`), []);
  if (!breaker) {
    assert.doesNotMatch(w.stderr(), /outcome=declined/);
    assert.doesNotMatch(w.stderr(), /Wake breaker TRIPPED/);
  }
}

/** A human seated on the world's timeline, in mutual trust with everyone already there. */
export async function seatHuman(
  w: RoutedWorld,
  handle: string,
): Promise<{ uuid: string; handle: string; client: PlatformClient }> {
  const made = w.sandbox.createUser({ handle, name: handle, kind: "human" });
  const client = new PlatformClient({ baseUrl: w.sandbox.baseUrl, token: made.token });
  for (const other of [w.agent, w.peer, ...(w.third ? [w.third] : [])]) {
    await client.users.grantTrust(other.uuid);
    await other.client.users.grantTrust(made.user.uuid);
  }
  await w.peer.client.timelines.addParticipant(w.timeline, made.user.uuid);
  return { uuid: made.user.uuid, handle, client };
}
