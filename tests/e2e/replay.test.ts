/**
 * `harness replay` over a conversation recorded by real wakes on the sandbox platform: the same
 * charter changes nothing, a charter that forbids replying silences every spoken turn, guardrails
 * that refuse the reply cross `more-refusals`, nothing reaches the platform while it runs, a
 * `hashes` record is skipped with its reason, and a real openai SDK against a wire mock is the
 * other model.
 */
import assert from "node:assert/strict";
import { ReplayReportSchema } from "../../lib/replay/report.ts";
import { SILENCE_DIRECTIVE } from "../../lib/sandbox/model/mod.ts";
import { chatCompletion, closedPort, ModelMock } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";
import { replayAgainst } from "./replay_support.ts";
import { say, type World, world } from "./wake_support.ts";

const QUESTIONS = ["@ada hello there, how are you?", "@ada what is a timeline?", "no mention here"];

/** A world whose wakes answer with the sandbox's deterministic model. */
async function sandboxWorld(): Promise<World & { modelEnv: Record<string, string> }> {
  const w = await world({ third: true }); // not a one-on-one: a silent turn is not nudged
  const modelEnv = { AI_BASE_URL: w.sandbox.modelUrl, AI_MODEL: "sandbox-demo" };
  return Object.assign(w, { modelEnv });
}

/** Records one turn per question with a real wake each. */
async function converse(w: World & { modelEnv: Record<string, string> }, questions = QUESTIONS) {
  for (const question of questions) {
    await say(w, question);
    const woke = await w.wake([], w.modelEnv);
    assert.equal(woke.code, 0, woke.stderr);
  }
}

/** `harness replay` with the world's environment, without an API key unless `extra` has one. */
function replay(w: World, args: string[], extra: Record<string, string> = {}) {
  const env: Record<string, string> = { ...w.env, ...extra };
  if (!("AI_API_KEY" in extra)) delete env.AI_API_KEY;
  return runCli(["replay", ...args], { env });
}

/**
 * Another config home: `harness install`'s shipped defaults (what the wakes ran on: they had no
 * config home on disk), with `files` written over them, e.g. `prompts/system-prompt.md`.
 */
async function configHomeWith(w: World, files: Record<string, string>) {
  const dir = `${w.home}/other-config`;
  const installed = await runCli(["install"], { env: { ...w.env, BASECRADLE_CONFIG_HOME: dir } });
  assert.equal(installed.code, 0, installed.stderr);
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

const posts = (w: World) => w.sandbox.requests.filter((r) => r.method === "POST").length;

Deno.test("replay against the recorded charter: every turn replayed, nothing changed, nothing sent", async () => {
  await using w = await sandboxWorld();
  await converse(w);
  const before = w.sandbox.requests.length;
  const result = await replay(w, [
    "--json",
    "--fail-on",
    "fewer-replies,more-refusals,similarity<1",
  ]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  // The platform saw no request at all while the replay ran.
  assert.deepEqual(w.sandbox.requests.slice(before), []);
  const report = ReplayReportSchema.parse(JSON.parse(result.stdout));
  assert.equal(report.against.sandbox_model, true);
  assert.equal(report.turns.length, 3);
  for (const turn of report.turns) {
    assert.equal(turn.status, "replayed");
    assert.equal(turn.same_charter, true);
    assert.equal(turn.same_tools, true);
    assert.equal(turn.diff?.changed, false, JSON.stringify(turn));
    assert.equal(turn.diff?.similarity, 1);
    assert.deepEqual(turn.replay?.tool_calls, ["messages/create"]);
    assert.deepEqual(turn.replay?.texts, turn.original.texts);
    assert.equal(turn.original.texts.length, 1);
  }
  assert.equal(report.summary.spoke_before, 3);
  assert.equal(report.summary.spoke_after, 3);
  assert.deepEqual(report.thresholds.map((t) => [t.rule, t.crossed]), [
    ["fewer-replies", false],
    ["more-refusals", false],
    ["similarity<1", false],
  ]);

  // The table names each turn and says "same".
  const table = await replay(w, ["--timeline", w.timeline, "--last", "2"]);
  assert.equal(table.code, 0, table.stderr);
  const rows = table.stdout.split("\n").filter((l) => / spoke +spoke /.test(l));
  assert.equal(rows.length, 2, table.stdout);
  for (const row of rows) assert.match(row, / spoke +spoke +same +1\.00 +same .* same$/);
  assert.match(table.stdout, /2 turn\(s\): 2 replayed \(0 changed, 0 ended otherwise\)/);
});

Deno.test("replay against a charter that forbids replying: every spoken turn changed, fewer replies and low similarity exit 1", async () => {
  await using w = await sandboxWorld();
  await converse(w);
  const silent = await configHomeWith(w, {
    "prompts/system-prompt.md": `You are Ada.\n${SILENCE_DIRECTIVE}\n`,
  });
  const postsBefore = posts(w);
  const result = await replay(w, ["--config-home", silent, "--json", "--handle", "ada"]);
  assert.equal(result.code, 0, result.stderr); // no --fail-on: a change alone is not a failure
  const report = ReplayReportSchema.parse(JSON.parse(result.stdout));
  assert.equal(report.turns.length, 3);
  for (const turn of report.turns) {
    assert.equal(turn.same_charter, false);
    assert.equal(turn.original.spoke, true);
    assert.equal(turn.replay?.spoke, false);
    assert.deepEqual(turn.replay?.texts, []);
    assert.deepEqual(turn.replay?.tool_calls, []);
    assert.equal(turn.diff?.changed, true);
    assert.equal(turn.diff?.spoke_changed, true);
    assert.equal(turn.diff?.similarity, 0);
  }
  // Two of the three questions mention @ada.
  assert.deepEqual(report.turns.map((t) => t.mention), [true, true, false]);
  assert.equal(report.summary.replies_to_mentions_before, 2);
  assert.equal(report.summary.replies_to_mentions_after, 0);

  const fewer = await replay(w, ["--config-home", silent, "--fail-on", "fewer-replies"]);
  assert.equal(fewer.code, 1, fewer.stdout);
  assert.match(fewer.stdout, /fail-on fewer-replies: CROSSED \(replies to mentions 3 → 0\)/);
  assert.match(fewer.stdout, /recorded +│ replayed/);
  assert.match(fewer.stdout, /│ \(silent\)/);
  const similar = await replay(w, ["--config-home", silent, "--fail-on", "similarity<0.8"]);
  assert.equal(similar.code, 1);
  const refusals = await replay(w, ["--config-home", silent, "--fail-on", "more-refusals"]);
  assert.equal(refusals.code, 0, refusals.stdout);
  assert.equal(posts(w), postsBefore);
});

Deno.test("replay with guardrails that refuse the reply: the gate runs for real and more-refusals exits 1", async () => {
  await using w = await sandboxWorld();
  await converse(w, [QUESTIONS[0]]);
  const guarded = await configHomeWith(w, {
    "guardrails.json": JSON.stringify({
      forbidden_patterns: [{ pattern: "sandbox demo model", reason: "no demo replies" }],
    }),
  });
  const result = await replay(w, [
    "--config-home",
    guarded,
    "--json",
    "--fail-on",
    "more-refusals",
  ]);
  assert.equal(result.code, 1, result.stderr);
  const report = ReplayReportSchema.parse(JSON.parse(result.stdout));
  const [turn] = report.turns;
  assert.deepEqual(turn.original.verdicts, [{ verdict: "passed", checks: [] }]);
  // The model read the refusal; the demo model then narrates instead of retrying.
  assert.deepEqual(turn.replay?.verdicts, [{ verdict: "refused", checks: ["forbidden_patterns"] }]);
  assert.equal(turn.replay?.spoke, false);
  assert.equal(turn.diff?.verdicts_changed, true);
  assert.deepEqual(report.thresholds, [
    { rule: "more-refusals", crossed: true, detail: "gate refusals 0 → 1; model refusals 0 → 0" },
  ]);
});

Deno.test("replay skips a content=hashes record with its reason, and selects by --turns and --since/--until", async () => {
  await using w = await sandboxWorld();
  await converse(w, [QUESTIONS[0]]);
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/records.json`, JSON.stringify({ content: "hashes" }));
  await converse(w, [QUESTIONS[1]]);
  const all = ReplayReportSchema.parse(JSON.parse((await replay(w, ["--json"])).stdout));
  assert.deepEqual(all.turns.map((t) => t.status), ["replayed", "skipped"]);
  assert.match(all.turns[1].reason ?? "", /^content=hashes: /);
  assert.equal(all.summary.skipped, 1);

  const table = await replay(w, []);
  assert.equal(table.code, 0, table.stderr); // a skipped turn is not a failure
  assert.match(table.stdout, /skipped: content=hashes: the record keeps only sha256 digests/);

  const ids = `${w.home}/turns.txt`;
  await Deno.writeTextFile(ids, `# one turn\n${all.turns[1].record_id}\n\nnot-a-record\n`);
  const picked = ReplayReportSchema.parse(
    JSON.parse((await replay(w, ["--turns", ids, "--json"])).stdout),
  );
  assert.deepEqual(picked.turns.map((t) => t.record_id), [all.turns[1].record_id]);
  assert.deepEqual(picked.missing, ["not-a-record"]);

  const future = ReplayReportSchema.parse(
    JSON.parse((await replay(w, ["--since", "2999-01-01T00:00:00Z", "--json"])).stdout),
  );
  assert.equal(future.turns.length, 0);
  const window = ReplayReportSchema.parse(
    JSON.parse((await replay(w, ["--since", "1d", "--until", all.turns[0].at, "--json"])).stdout),
  );
  assert.deepEqual(window.turns.map((t) => t.record_id), [all.turns[0].record_id]);
});

Deno.test("replay against another model: a real openai SDK on a wire mock, reads answered from the record", async () => {
  await using w = await sandboxWorld();
  // A recorded turn that read the timeline before it spoke (scripted on the world's own mock).
  await say(w, "@ada what did I say?");
  w.model.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [{ id: "c1", name: "messages", arguments: { action: "list" } }],
      }),
    },
    {
      json: chatCompletion({
        toolCalls: [{
          id: "c2",
          name: "messages",
          arguments: { action: "create", body: "You asked what you said." },
        }],
      }),
    },
    { json: chatCompletion({ content: "Answered." }) },
  );
  const woke = await w.wake();
  assert.equal(woke.code, 0, woke.stderr);

  await using other = await ModelMock.start();
  other.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [
          { id: "r1", name: "messages", arguments: { action: "list" } },
          { id: "r2", name: "timelines", arguments: { action: "list" } },
        ],
      }),
    },
    {
      json: chatCompletion({
        toolCalls: [{
          id: "r3",
          name: "messages",
          arguments: { action: "create", body: "Something else entirely." },
        }],
        usage: { prompt: 1200, completion: 30, cost: 0.0042 },
      }),
    },
    {
      json: chatCompletion({
        content: "Done.",
        usage: { prompt: 1300, completion: 5, cost: 0.001 },
      }),
    },
  );
  const before = w.sandbox.requests.length;
  const result = await replayAgainst(w, other, ["--json", "--fail-on", "similarity<0.8"]);
  assert.equal(result.code, 1, result.stderr);
  assert.deepEqual(w.sandbox.requests.slice(before), []);
  const report = ReplayReportSchema.parse(JSON.parse(result.stdout));
  const [turn] = report.turns;
  assert.equal(turn.status, "replayed", turn.reason);
  assert.equal(turn.replay?.model, "other-model");
  assert.deepEqual(turn.replay?.tool_calls, ["messages/list", "timelines/list", "messages/create"]);
  assert.deepEqual(turn.replay?.texts, ["Something else entirely."]);
  assert.equal(turn.calls_from_record, 1);
  assert.equal(turn.calls_not_captured, 1);
  assert.ok((turn.diff?.similarity ?? 1) < 0.8);
  assert.equal(turn.replay?.cost_usd, 0.0052);
  assert.equal(turn.replay?.tokens_in, 2500);

  const requests = other.requestsTo("chat");
  assert.equal(requests.length, 3);
  const first = requests[0].body as {
    model: string;
    messages: { role: string; content: string }[];
  };
  assert.equal(first.model, "other-model");
  assert.equal(first.messages[0].role, "system"); // the charter leads
  assert.ok(first.messages.some((m) => m.role === "user" && /what did I say\?/.test(m.content)));
  // The recorded list result came back for the same call; the unrecorded read got a clear text.
  const second = requests[1].body as {
    messages: { role: string; content: string; tool_call_id?: string }[];
  };
  const results = second.messages.filter((m) => m.role === "tool");
  const recorded = JSON.parse(
    (await Deno.readTextFile(`${w.home}/records/${w.timeline}.jsonl`)).trim(),
  ).tool_calls[0].result;
  assert.equal(results[0].content, recorded);
  assert.match(results[1].content, /is not captured in the record/);
});

Deno.test("replay exits 1 naming the cause: a vendor that cannot be reached fails the turn, a wrong config file the run", async () => {
  await using w = await sandboxWorld();
  await converse(w, [QUESTIONS[0]]);
  const key = "sk-replay-secret-0000000000";
  const down = await replay(w, [
    "--model",
    "other-model",
    "--base-url",
    `http://127.0.0.1:${closedPort()}/v1`,
    "--json",
  ], { AI_API_KEY: key, HARNESS_RESPONSE_RETRIES: "0" });
  assert.equal(down.code, 1, down.stderr);
  const report = ReplayReportSchema.parse(JSON.parse(down.stdout));
  assert.equal(report.turns[0].status, "failed");
  assert.match(report.turns[0].reason ?? "", /\S/);
  assert.equal(report.summary.failed, 1);
  assert.doesNotMatch(down.stdout + down.stderr, new RegExp(key));

  const broken = await configHomeWith(w, { "guardrails.json": "{ not json" });
  const refused = await replay(w, ["--config-home", broken]);
  assert.equal(refused.code, 1);
  assert.equal(refused.stdout, "");
  assert.match(refused.stderr, /^harness replay: .*guardrails\.json/);
  assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
});

Deno.test("replay obeys the config home's host_rules.json: a model host outside it is never called", async () => {
  await using w = await sandboxWorld();
  await converse(w, [QUESTIONS[0]]);
  await using other = await ModelMock.start();
  other.always("chat", { json: chatCompletion({ content: "Done." }) });
  // The mock listens on 127.0.0.1; "localhost" names the same machine, so only the rules stop it.
  const fenced = await configHomeWith(w, {
    "host_rules.json": JSON.stringify({ allow: ["localhost"] }),
  });
  const args = ["--config-home", fenced, "--model", "other-model", "--base-url", other.baseURL];
  const env = { AI_API_KEY: "sk-replay-0000000000", HARNESS_RESPONSE_RETRIES: "0" };
  const refused = await replay(w, [...args, "--json"], env);
  assert.equal(refused.code, 1, refused.stderr);
  const report = ReplayReportSchema.parse(JSON.parse(refused.stdout));
  assert.equal(report.turns[0].status, "failed");
  assert.match(
    report.turns[0].reason ?? "",
    /host '127\.0\.0\.1', which the host rules in .*host_rules\.json do not allow/,
  );
  assert.equal(other.hits(), 0, "the refused model host got no request");

  // The control: the same replay with the mock's address allowed reaches it.
  await Deno.writeTextFile(`${fenced}/host_rules.json`, JSON.stringify({ allow: ["127.0.0.1"] }));
  const allowed = await replay(w, [...args, "--json"], env);
  const turn = ReplayReportSchema.parse(JSON.parse(allowed.stdout)).turns[0];
  assert.equal(turn.status, "replayed", turn.reason);
  assert.ok(other.hits() > 0);
});

Deno.test("replay usage errors exit 2", async () => {
  await using w = await sandboxWorld();
  for (
    const args of [
      ["--fail-on", "louder"],
      ["--fail-on", "similarity<2"],
      ["--last", "0"],
      ["--since", "yesterday"],
      ["--model", "sandbox", "--base-url", "http://127.0.0.1:1"],
      ["--model", "gpt-x"], // no AI_API_KEY
      ["--timeline", "not-a-uuid"],
    ]
  ) {
    const result = await replay(w, args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
  }
});

Deno.test("replay screens the agent's own secrets on every surface, as the wake's gate does", async () => {
  await using w = await sandboxWorld();
  await converse(w, [QUESTIONS[0]]);
  // Credential shapes off: only the own-secret check can refuse the token below, so a replay
  // gate built without the harness's secrets would let it pass. Four refusals in one turn would
  // close its speaking after the default two, so the limit is raised to screen every surface.
  const home = await configHomeWith(w, {
    "guardrails.json": JSON.stringify({ secret_guard: false, max_refusals_per_turn: 10 }),
  });
  const apiKey = "sk-replay-7f3a9c2e51b84d06a1e2";
  const token = w.env.BASECRADLE_TOKEN;
  await using other = await ModelMock.start();
  other.reply(
    "chat",
    {
      json: chatCompletion({
        toolCalls: [
          { id: "r1", name: "messages", arguments: { action: "create", body: `key ${apiKey}` } },
          {
            id: "r2",
            name: "assets",
            arguments: { action: "create", content: `token=${token}`, filename: "n.txt" },
          },
          {
            id: "r3",
            name: "tasks",
            arguments: { action: "create", instructions: `use ${apiKey}`, activate_at: "+1h" },
          },
          {
            id: "r4",
            name: "webhook_endpoints",
            arguments: { action: "create", description: `hook ${token}` },
          },
        ],
      }),
    },
    { json: chatCompletion({ content: "Done." }) },
  );
  const before = w.sandbox.requests.length;
  const result = await replay(w, [
    "--config-home",
    home,
    "--model",
    "other-model",
    "--base-url",
    other.baseURL,
    "--surface",
    "chat",
    "--json",
  ], { AI_API_KEY: apiKey });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(w.sandbox.requests.slice(before), []);
  const [turn] = ReplayReportSchema.parse(JSON.parse(result.stdout)).turns;
  assert.deepEqual(turn.replay?.verdicts, [
    { verdict: "refused", checks: ["known_secrets"] },
    { verdict: "refused", checks: ["known_secrets"] },
    { verdict: "refused", checks: ["known_secrets"] },
    { verdict: "refused", checks: ["known_secrets"] },
  ]);
  assert.equal(turn.replay?.spoke, false);
  // The model read each refusal, never the secret.
  const results = (other.requestsTo("chat")[1].body as {
    messages: { role: string; content: string }[];
  }).messages.filter((m) => m.role === "tool").map((m) => m.content);
  assert.equal(results.length, 4);
  for (const text of results) {
    assert.match(text, /^Couldn't create .*failed check: known_secrets/);
    assert.ok(!text.includes(apiKey) && !text.includes(token));
  }
});
