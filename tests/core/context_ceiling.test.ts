import assert from "node:assert/strict";
import {
  ContextCeiling,
  DEFAULT_CONTEXT_LIMIT,
  guaranteeWarning,
  maxSafeSteps,
  minSafeLimit,
  persistedStepCap,
  providerTokensIn,
  worstCaseTurnTokens,
} from "../../lib/core/compaction/context_ceiling.ts";
import type { Provider } from "../../lib/core/types/provider.ts";
import { Message } from "../../lib/core/types/message.ts";
import { RecordingJournal } from "./engine_fixtures.ts";

/** A provider whose only interesting surface is `contextLimit`, counting how often it is asked. */
function limitProvider(answer?: () => number | Promise<number>, extra: object = {}) {
  const asked = { count: 0 };
  const provider: Provider = {
    chat: () => Promise.resolve(Message.assistant({ content: "x" })),
    ...(answer
      ? {
        contextLimit: () => {
          asked.count++;
          return answer();
        },
      }
      : {}),
    ...extra,
  };
  return { provider, asked };
}

const ENV_20000_WARNING = "WARNING context budget 20000 (source=env) leaves 10000 tokens of " +
  "headroom above the compaction threshold, below the 49152 a single tool-heavy turn can add " +
  "(6144 chars of result + arguments per step x 24 steps at 3.0 chars/token): a turn may " +
  "overshoot the ceiling before compaction, which runs only *between* turns, can fire. The " +
  "over-length rescue (emergency compaction + retry) still applies. To restore the guarantee, " +
  "raise HARNESS_MAX_CONTEXT_TOKENS to at least 98304 or lower HARNESS_MAX_STEPS to 4.";

Deno.test("budget: the guarantee arithmetic is derived from the caps", () => {
  assert.equal(persistedStepCap(), 6144);
  assert.equal(worstCaseTurnTokens(24), 49152);
  assert.equal(minSafeLimit(24), 98304);
  assert.equal(maxSafeSteps(20000), 4);
  assert.equal(maxSafeSteps(2000), 0);
});

Deno.test("budget: an env budget too small for the guarantee warns and names the numbers", async () => {
  const journal = new RecordingJournal();
  const { provider, asked } = limitProvider(() => 1_000_000);
  const budget = new ContextCeiling(provider, { override: 20000, maxSteps: 24, journal });
  assert.deepEqual(await budget.limit(), { tokens: 20000, source: "env" });
  assert.deepEqual(journal.lines(), [
    "INFO context limit limit=20000 source=env compact_at=10000",
    ENV_20000_WARNING,
  ]);
  assert.equal(asked.count, 0, "the operator's number wins without asking the adapter");
});

Deno.test("budget: the quoted minimum is silent; a budget that truly falls short warns", async () => {
  // int(L × 0.5) hands a token back, so 98303 still clears the bar; 98302 does not.
  for (const [tokens, warns] of [[98304, false], [98303, false], [98302, true]] as const) {
    const journal = new RecordingJournal();
    await new ContextCeiling(limitProvider().provider, { override: tokens, journal }).limit();
    assert.equal(journal.at("WARNING").length, warns ? 1 : 0, `budget ${tokens}`);
  }
});

Deno.test("budget: more steps break the guarantee from the other side", () => {
  const text = guaranteeWarning({ tokens: 128_000, source: "default" }, 40);
  assert.ok(text?.includes("below the 81920 a single tool-heavy turn can add"));
  assert.ok(text?.includes("x 40 steps at 3.0 chars/token"));
  assert.ok(
    text?.endsWith(
      "Lower HARNESS_MAX_STEPS to 31 to restore the guarantee. (Raising " +
        "HARNESS_MAX_CONTEXT_TOKENS would not help: this is the model's own ceiling, and a budget " +
        "above it would put the threshold past the wall, where compaction never fires in time.)",
    ),
  );
  assert.ok(!text?.includes("at least"), "never suggests raising a real ceiling");
});

Deno.test("budget: the shipped floor satisfies the guarantee and says nothing", async () => {
  const journal = new RecordingJournal();
  const budget = new ContextCeiling(limitProvider().provider, { journal });
  assert.deepEqual(await budget.limit(), { tokens: DEFAULT_CONTEXT_LIMIT, source: "default" });
  assert.deepEqual(journal.lines(), [
    "INFO context limit limit=128000 source=default compact_at=64000",
  ]);
});

Deno.test("budget: the adapter's answer is used, once, and a tiny one has no step remedy", async () => {
  const journal = new RecordingJournal();
  const { provider, asked } = limitProvider(() => Promise.resolve(2000));
  const budget = new ContextCeiling(provider, { journal });
  const [a, b] = await Promise.all([budget.limit(), budget.limit()]);
  assert.deepEqual(a, { tokens: 2000, source: "adapter" });
  assert.equal(a, b);
  assert.equal(asked.count, 1);
  assert.equal(journal.lines()[0], "INFO context limit limit=2000 source=adapter compact_at=1000");
  assert.match(
    journal.lines()[1],
    /^WARNING context budget 2000 \(source=adapter\) leaves 1000 tokens .* No step budget satisfies the guarantee at this ceiling\.$/,
  );
  assert.equal(journal.lines().length, 2);
});

Deno.test("budget: a failing or floor-answering adapter falls to the default", async () => {
  const journal = new RecordingJournal();
  const throwing = limitProvider(() => {
    throw new Error("metadata down");
  });
  assert.deepEqual(await new ContextCeiling(throwing.provider, { journal }).limit(), {
    tokens: 128000,
    source: "default",
  });
  assert.deepEqual(journal.at("WARNING"), [
    "WARNING Could not read the model's context limit from the provider: metadata down",
  ]);

  // Our adapters answer the floor themselves and say why in `contextLimitSource`.
  const floorJournal = new RecordingJournal();
  const floor = limitProvider(() => 128000, {
    contextLimitSource: { kind: "floor", reason: "models.retrieve failed: 503" },
  });
  const limit = await new ContextCeiling(floor.provider, { journal: floorJournal }).limit();
  assert.deepEqual(limit, { tokens: 128000, source: "default" });
  assert.deepEqual(floorJournal.lines(), [
    "WARNING Could not read the model's context limit from the provider: models.retrieve failed: 503",
    "INFO context limit limit=128000 source=default compact_at=64000",
  ]);

  const silent = new RecordingJournal();
  const stated = limitProvider(() => 128000, {
    contextLimitSource: { kind: "floor", reason: "models.retrieve states no context window" },
  });
  await new ContextCeiling(stated.provider, { journal: silent }).limit();
  assert.deepEqual(silent.at("WARNING"), []);
});

Deno.test("budget: 0 disables compaction without a lookup or a line", async () => {
  const journal = new RecordingJournal();
  const { provider, asked } = limitProvider(() => 1000);
  const budget = new ContextCeiling(provider, { override: 0, journal });
  assert.equal(budget.enabled, false);
  assert.deepEqual(await budget.limit(), { tokens: 0, source: "env" });
  assert.equal(await budget.shouldCompact(10_000_000), false);
  assert.equal(asked.count, 0);
  assert.deepEqual(journal.lines(), []);
});

Deno.test("budget: the trigger is strictly above half the ceiling", async () => {
  const env = new ContextCeiling(limitProvider().provider, { override: 8000 });
  assert.equal(await env.shouldCompact(4000), false);
  assert.equal(await env.shouldCompact(4001), true);
  assert.equal(await env.shouldCompact(undefined), false);

  // With no override, a call under half the floor never asks the adapter.
  const { provider, asked } = limitProvider(() => 100_000);
  const adapter = new ContextCeiling(provider);
  assert.equal(await adapter.shouldCompact(63_999), false);
  assert.equal(asked.count, 0);
  assert.equal(await adapter.shouldCompact(64_000), true); // 64000 > int(100000 × 0.5)
  assert.equal(asked.count, 1);
});

Deno.test("budget: only a positive integer counts as reported usage", () => {
  const base = limitProvider().provider;
  for (const [value, expected] of [[5, 5], [0, undefined], [-3, undefined], [1.5, undefined]]) {
    assert.equal(providerTokensIn({ ...base, lastTokensIn: value }), expected);
  }
  assert.equal(providerTokensIn(base), undefined);
});

Deno.test("budget: a negative or fractional override is refused", () => {
  const { provider } = limitProvider();
  assert.throws(() => new ContextCeiling(provider, { override: -1 }), RangeError);
  assert.throws(() => new ContextCeiling(provider, { override: 1.5 }), RangeError);
});
