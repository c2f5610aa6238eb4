/**
 * `harness records show` over the records of real wakes on the sandbox: one entry per turn,
 * oldest first, with what the agent read and each post it made; the filters narrow it; `--json`
 * has the documented shape; a `hashes`-mode record shows no text; an empty selection says so and
 * exits 0; a usage error is one line with a did-you-mean and exit 2.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { chatCompletion } from "../support/model_mock.ts";
import { say, scriptReply, world } from "../e2e/wake_support.ts";
import { ShowReportSchema } from "../../lib/home/records/mod.ts";

const LONG = `@ada ${"tell me about the quiet harbour and its boats ".repeat(8)}END-OF-ASK`;

Deno.test("records show: two real wakes, a spoken turn then a silent one, oldest first", async () => {
  await using w = await world({ third: true }); // not a 1-on-1: silence is not nudged
  await say(w, LONG);
  scriptReply(w.model, "Hello, Bob. The harbour is calm.", "Answered.", {
    create: { prompt: 1200, completion: 40, cached: 800, cost: 0.0021 },
    close: { prompt: 1300, completion: 10, cached: 1200, cost: 0.0009 },
  });
  assert.equal((await w.wake()).code, 0);
  await say(w, "carry on without me");
  w.model.reply("chat", { json: chatCompletion({ content: "Nothing to add." }) });
  assert.equal((await w.wake()).code, 0);
  const [posted] = (await w.peer.client.messages.list({ timeline: w.timeline }).toArray())
    .filter((m) => m.user.uuid === w.agent.uuid);
  assert.ok(posted);

  const table = await runCli(["records", "show"], { env: w.env });
  assert.equal(table.code, 0, table.stderr);
  const entries = table.stdout.trimEnd().split("\n\n");
  assert.equal(entries.length, 2, table.stdout);
  const [first, second] = entries;
  assert.match(
    first,
    new RegExp(`^\\S+Z  ${w.timeline}  spoke  ${w.env.AI_MODEL}  tokens in=\\d+`),
  );
  assert.match(first, / {2}tokens in=2500 out=50 cached=2000 {2}cost=\$0\.0030\n/);
  assert.match(first, /\n {2}read: .*tell me about the quiet harbour/);
  // The table shows the first 200 characters of what was read; the end of the ask is cut.
  const read = /\n {2}read: (.*)/.exec(first)![1];
  assert.equal(read.length, 201, read);
  assert.ok(read.endsWith("…"));
  assert.doesNotMatch(first, /END-OF-ASK/);
  assert.match(
    first,
    new RegExp(`\n {2}said ${posted.content.uuid}: Hello, Bob\\. The harbour is calm\\.`),
  );
  assert.match(second, new RegExp(`  ${w.timeline}  silent  `));
  assert.match(second, /read: .*carry on without me/);
  assert.match(second, /\n {2}said: nothing/);

  const json = await runCli(["records", "show", "--json"], { env: w.env });
  assert.equal(json.code, 0, json.stderr);
  const report = ShowReportSchema.parse(JSON.parse(json.stdout));
  assert.deepEqual(report.turns.map((t) => t.result), ["spoke", "silent"]);
  assert.deepEqual(report.turns.map((t) => t.seq), [1, 2]);
  const [spoke] = report.turns;
  assert.match(spoke.inbound.text!, /END-OF-ASK/); // whole in --json
  assert.equal(spoke.content, "full");
  assert.deepEqual(spoke.outbound, [
    {
      uuid: posted.content.uuid,
      kind: "tool",
      text: "Hello, Bob. The harbour is calm.",
      text_sha256: null,
    },
  ]);
  assert.deepEqual(spoke.tool_calls, [{ name: "messages", outcome: "ok" }]);
  assert.equal(spoke.model, w.env.AI_MODEL);
  assert.deepEqual(
    [spoke.tokens_in, spoke.tokens_out, spoke.cached_tokens, spoke.cost_usd],
    [2500, 50, 2000, 0.003],
  );

  const ids = async (...args: string[]) => {
    const r = await runCli(["records", "show", "--json", ...args], { env: w.env });
    assert.equal(r.code, 0, r.stderr);
    return ShowReportSchema.parse(JSON.parse(r.stdout)).turns.map((t) => t.result);
  };
  assert.deepEqual(await ids("--result", "silent"), ["silent"]);
  assert.deepEqual(await ids("--last", "1"), ["silent"]);
  assert.deepEqual(await ids("--last", "1", "--result", "spoke"), ["spoke"]);
  assert.deepEqual(await ids("--timeline", w.timeline, "--since", "7d"), ["spoke", "silent"]);
  assert.deepEqual(await ids("--until", spoke.at), ["spoke"]);
  assert.deepEqual(await ids("--result", "escalated"), []);

  for (
    const [args, said] of [
      [
        ["--since", "2999-01-01T00:00:00Z"],
        /^no turns recorded since 2999-01-01T00:00:00\.000Z\n$/,
      ],
      [["--timeline", "00000000-0000-4000-8000-00000000abcd"], /^no turns on 00000000-/],
      [["--result", "failed"], /^no turns recorded with result failed\n$/],
    ] as const
  ) {
    const r = await runCli(["records", "show", ...args], { env: w.env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, said);
  }
});

Deno.test("records show: a hashes-mode record shows (hashes only) and none of its text", async () => {
  await using w = await world();
  await Deno.mkdir(`${w.home}/config`, { recursive: true });
  await Deno.writeTextFile(`${w.home}/config/records.json`, JSON.stringify({ content: "hashes" }));
  await say(w, "@ada the zebra password is marmalade");
  scriptReply(w.model, "Understood, the quokka rests.");
  assert.equal((await w.wake()).code, 0);

  const table = await runCli(["records", "show"], { env: w.env });
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /\n {2}read: \(hashes only\)\n/);
  assert.match(table.stdout, /\n {2}said [0-9a-f-]{36}: \(hashes only\)\n/);
  const json = await runCli(["records", "show", "--json"], { env: w.env });
  for (const secret of ["zebra", "marmalade", "quokka"]) {
    assert.doesNotMatch(table.stdout + json.stdout, new RegExp(secret), secret);
  }
  const [turn] = ShowReportSchema.parse(JSON.parse(json.stdout)).turns;
  assert.equal(turn.content, "hashes");
  assert.equal(turn.inbound.text, null);
  assert.match(turn.inbound.text_sha256!, /^[0-9a-f]{64}$/);
  assert.equal(turn.outbound[0].text, null);
});

Deno.test("records show: usage errors are one line, with a did-you-mean, and exit 2", async () => {
  const home = await Deno.makeTempDir({ prefix: "records-show-" });
  try {
    const env = { HARNESS_HOME: home };
    const empty = await runCli(["records", "show"], { env });
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, "no turns recorded\n");
    for (
      const [args, said] of [
        [["shwo"], /unknown subcommand 'shwo' .* Did you mean 'show'\?/],
        [
          ["show", "--result", "spokn"],
          /--result 'spokn' must be one of .* Did you mean 'spoke'\?/,
        ],
        [["show", "--last", "0"], /--last must be a whole number/],
        [["show", "--since", "yesterday"], /--since 'yesterday' is neither a span/],
        [["show", "--by", "week"], /--by is an option of stats/],
        [["stats", "--last", "3"], /--last is an option of show/],
        [["show", "--resutl", "spoke"], /Did you mean '--result'\?/],
      ] as const
    ) {
      const r = await runCli(["records", ...args], { env });
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      const lines = r.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], said);
      assert.match(lines[0], /^harness records: .* Run 'harness records --help' for usage\.$/);
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
