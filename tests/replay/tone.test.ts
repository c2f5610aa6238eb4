/**
 * The tone check in replay, on a record written by the real writer: the recorded verdict is
 * reused for the same body (no judge call), a new body or `--rejudge-tone` asks the judge, a
 * recorded judge failure is never reused, and a refused post is answered as the live gate would.
 */
import assert from "node:assert/strict";
import { appendTurnRecord } from "../../lib/home/records/mod.ts";
import { DEFAULT_GUARDRAILS, surfaceChecks } from "../../lib/gate/mod.ts";
import type { ToneCheck, ToneVerdict } from "../../lib/gate/tone.ts";
import { ReplayCapture, ReplayTurnTools } from "../../lib/replay/mod.ts";
import { ReplayTone } from "../../lib/replay/tone.ts";
import { sha256HexAsync } from "../../lib/base/sha256.ts";
import { turnInput, withHome } from "../home/records/fixture.ts";

const SETTINGS = { instruction: "Warm and plain." };
const MODEL = "judge-mini";

/** A judge that answers from a table and counts what it was asked. */
class TableJudge implements ToneCheck {
  readonly asked: string[] = [];
  constructor(readonly verdicts: Record<string, boolean>) {}
  async judge(body: string): Promise<ToneVerdict> {
    this.asked.push(body);
    return {
      passed: this.verdicts[body] ?? true,
      reason: `live on ${body}`,
      model: MODEL,
      bodySha256: await sha256HexAsync(body),
      instructionSha256: await sha256HexAsync(SETTINGS.instruction),
    };
  }
}

async function recordWith(
  home: string,
  tones: { body: string; passed: boolean; error?: boolean }[],
) {
  const instructionSha256 = await sha256HexAsync(SETTINGS.instruction);
  return await appendTurnRecord(home, {
    ...turnInput(1),
    content: "full",
    inbound: { items: ["item-1"], text: "[t] bob: hi" },
    gateVerdicts: await Promise.all(tones.map(async (t) => ({
      kind: "tool",
      verdict: t.passed ? "passed" as const : "refused" as const,
      checks: t.passed ? [] : ["tone"],
      tone: {
        passed: t.passed,
        reason: `recorded on ${t.body}`,
        model: MODEL,
        bodySha256: await sha256HexAsync(t.body),
        instructionSha256,
        ...(t.error ? { error: "failed" as const } : {}),
      },
    }))),
  });
}

function toolsFor(record: Awaited<ReturnType<typeof recordWith>>, tone: ReplayTone) {
  const capture = new ReplayCapture();
  const tools = new ReplayTurnTools({
    record,
    checks: surfaceChecks(DEFAULT_GUARDRAILS, []),
    capture,
    tone: tone.forRecord(record),
  });
  return { capture, tools };
}

Deno.test("replay tone: the recorded verdict is reused for the same body; a new body is judged", async () => {
  await withHome(async (home) => {
    const record = await recordWith(home, [
      { body: "Oh, brilliant.", passed: false },
      { body: "Happy to help!", passed: true },
    ]);
    assert.equal(record.gate_verdicts?.[0].tone?.reason, "recorded on Oh, brilliant.");
    // The live judge would pass everything: a reused refusal proves the record decided.
    const live = new TableJudge({});
    const { capture, tools } = toolsFor(
      record,
      new ReplayTone({ settings: SETTINGS, live, model: MODEL, rejudge: false }),
    );
    const refused = await tools.answer("messages", { action: "create", body: "Oh, brilliant." });
    assert.match(refused, /^Couldn't create a message: .*tone.*recorded on Oh, brilliant\./);
    assert.match(
      await tools.answer("messages", { action: "create", body: "Happy to help!" }),
      /^Posted to timeline/,
    );
    assert.match(
      await tools.answer("messages", { action: "create", body: "Something new." }),
      /^Posted to timeline/,
    );
    assert.deepEqual(live.asked, ["Something new."]);
    assert.deepEqual(
      capture.verdicts.map((v) => [v.verdict, v.checks.join(), v.tone?.reused]),
      [["refused", "tone", true], ["passed", "", true], ["passed", "", false]],
    );
    assert.deepEqual(capture.posts.map((p) => p.text), ["Happy to help!", "Something new."]);
  });
});

Deno.test("replay tone: --rejudge-tone asks the judge for every post", async () => {
  await withHome(async (home) => {
    const record = await recordWith(home, [{ body: "Oh, brilliant.", passed: false }]);
    const live = new TableJudge({});
    const { capture, tools } = toolsFor(
      record,
      new ReplayTone({ settings: SETTINGS, live, model: MODEL, rejudge: true }),
    );
    assert.match(
      await tools.answer("messages", { action: "create", body: "Oh, brilliant." }),
      /^Posted to timeline/,
    );
    assert.deepEqual(live.asked, ["Oh, brilliant."]);
    assert.equal(capture.verdicts[0].tone?.reused, false);
  });
});

Deno.test("replay tone: a changed instruction, another judge model or a recorded failure is judged again", async () => {
  await withHome(async (home) => {
    const record = await recordWith(home, [
      { body: "A", passed: false },
      { body: "B", passed: false, error: true },
    ]);
    const cases: [{ instruction: string }, string, string[]][] = [
      [{ instruction: "Formal." }, MODEL, ["A", "B"]],
      [SETTINGS, "another-judge", ["A", "B"]],
      [SETTINGS, MODEL, ["B"]],
    ];
    for (const [settings, model, expected] of cases) {
      const live = new TableJudge({});
      const { tools } = toolsFor(record, new ReplayTone({ settings, live, model, rejudge: false }));
      await tools.answer("messages", { action: "create", body: "A" });
      await tools.answer("messages", { action: "create", body: "B" });
      assert.deepEqual(live.asked, expected, `${settings.instruction} / ${model}`);
    }
  });
});
