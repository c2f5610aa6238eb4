/**
 * Turn records regrouped by wake: a wake's turns are summed (posts, steps, tokens, cost), its
 * outcome is its worst turn's, the newest wakes come first and `limit` keeps the newest; a line
 * that is not a valid record is skipped.
 */
import assert from "node:assert/strict";
import { appendFile } from "node:fs/promises";
import { appendTurnRecord, chainPath } from "../../../lib/home/records/mod.ts";
import { recentWakes } from "../../../lib/home/records/wakes.ts";
import { TL, TL2, turnInput, withHome } from "./fixture.ts";

Deno.test("recentWakes: one row per wake, summed, worst outcome, newest first", async () => {
  await withHome(async (home) => {
    await appendTurnRecord(home, turnInput(1, { wakeId: "w1" }));
    await appendTurnRecord(home, turnInput(2, { wakeId: "w2" }));
    await appendTurnRecord(
      home,
      turnInput(3, {
        wakeId: "w2",
        outcome: "error",
        outcomeKind: "context_length",
        toolCalls: [{ name: "messages", outcome: "error", action: "create" }],
        steps: 1,
        usage: { calls: 1, tokensIn: 10, tokensOut: 5, cachedTokens: 0 },
      }),
    );
    await appendTurnRecord(home, turnInput(4, { wakeId: "w3", timeline: TL2 }));
    await appendFile(chainPath(home, TL), "{not a record\n");

    const wakes = await recentWakes(home, { limit: 5 });
    assert.deepEqual(
      wakes.map((w) => [w.timeline, w.wake_id, w.turns, w.outcome, w.outcome_kind, w.posted]),
      [
        [TL, "w2", 2, "error", "context_length", 1],
        [TL, "w1", 1, "ok", "narration", 1],
        [TL2, "w3", 1, "ok", "narration", 1],
      ],
    );
    const [w2] = wakes;
    assert.deepEqual([w2.steps, w2.tokens_in, w2.tokens_out, w2.cost_usd], [3, 1010, 55, 0.001]);

    const newest = await recentWakes(home, { timeline: TL, limit: 1 });
    assert.deepEqual(newest.map((w) => w.wake_id), ["w2"]);
    assert.deepEqual(
      await recentWakes(home, { timeline: "0197a6b2-0000-7e4f-8a9b-0c1d2e3f4a5b", limit: 5 }),
      [],
    );
  });
});
