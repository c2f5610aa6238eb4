/**
 * `harness demo` as a person runs it (`deno task demo`): offline, no key, one real `harness wake`
 * subprocess against the sandbox's demo model, exit 0, no leftovers. With AI_API_KEY set, the
 * same demo passes the person's AI_* settings to the wake (here: a scripted vendor mock).
 */
import { strict as assert } from "node:assert";
import { chatCompletion, ModelMock } from "../support/model_mock.ts";
import { runCli } from "../support/run_cli.ts";

/** No vendor keys, and agent settings of the caller's own that the demo must not leak. */
const OFFLINE = {
  AI_API_KEY: "",
  OPENAI_API_KEY: "",
  OPENROUTER_API_KEY: "",
  XAI_API_KEY: "",
  AI_MODEL: "not-this-model",
  AI_BASE_URL: "http://127.0.0.1:9/v1",
  HARNESS_HOME: "/nonexistent/harness-home",
  BASECRADLE_TOKEN: "not-vega",
};

const STAMP = String.raw`\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\]`;

/** The section of the demo's output that starts at `title` and ends at the next blank line. */
function section(out: string, title: string): string {
  const start = out.indexOf(`\n${title}\n`);
  assert.ok(start >= 0, `no ${title} section in:\n${out}`);
  const end = out.indexOf("\n\n", start + 1);
  return out.slice(start + title.length + 2, end < 0 ? undefined : end);
}

Deno.test("e2e: harness demo runs one real wake: vega answers ada's question on the timeline", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "demo-e2e-" });
  try {
    // A private TMPDIR, so leftovers of the demo's data dir would show.
    const result = await runCli(["demo"], { env: { ...OFFLINE, TMPDIR: tmp } });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(result.stderr, "");
    const out = result.stdout;
    const base = /^Platform\s+(http:\/\/127\.0\.0\.1:\d+)/m.exec(out);
    assert.ok(base, out);
    assert.match(out, new RegExp(`^Model\\s+sandbox-demo at ${base[1]}/_sandbox/model/v1`, "m"));
    assert.match(out, /^\s+@ada\s+Ada Lovelace \(human\)/m);
    assert.match(out, /^\s+@vega\s+Vega \(ai\)/m);
    assert.match(out, /^Trust .*mutual: true/m);
    const timeline = /^Timeline\s+"Demo"\s+([0-9a-f-]{36})$/m.exec(out);
    assert.ok(timeline, out);
    assert.match(out, new RegExp(`^Wake\\s+harness wake --timeline ${timeline[1]}\\b`, "m"));

    // The wake's journal: its own process's stderr, uncoloured under NO_COLOR.
    const journal = section(out, "Journal");
    assert.ok(!journal.includes("\x1b["), "NO_COLOR is honoured");
    const t = timeline[1];
    assert.match(
      journal,
      new RegExp(`INFO wake start timeline=${t} provider=openai model=sandbox-demo`),
    );
    assert.match(journal, /INFO llm provider=openai model=sandbox-demo /);
    assert.match(
      journal,
      new RegExp(`INFO posted message=\\S+ timeline=${t} kind=tool chars=\\d+`),
    );
    assert.match(journal, new RegExp(`INFO unspoken timeline=${t} kind=narration`));
    assert.match(journal, new RegExp(`INFO wake end timeline=${t} outcome=ok turns=1 .*posted=1`));
    assert.doesNotMatch(journal, /Permissions in the config file/);
    assert.match(out, /^Exit code\s+0$/m);

    // The timeline afterwards: the question, then vega's reply through the messages tool.
    const after = section(out, "Timeline afterwards").split("\n");
    assert.equal(after.length, 2, after.join("\n"));
    assert.match(after[0], new RegExp(`^ {2}${STAMP} ada: @vega what can an AI peer do`));
    assert.match(after[1], new RegExp(`^ {2}${STAMP} vega: \\(sandbox demo model\\) @ada `));

    // The sandbox is gone and its data directory (with vega's HARNESS_HOME) removed.
    await assert.rejects(fetch(`${base[1]}/users/dashboard`));
    assert.deepEqual([...Deno.readDirSync(tmp)], []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("e2e: harness demo shows the wake's coloured verdicts, even into a pipe, unless NO_COLOR", async () => {
  // Its stdout is a pipe here, as it would be into a file or journald: coloured all the same.
  const piped = await runCli(["demo"], { env: { ...OFFLINE, NO_COLOR: "" } });
  assert.equal(piped.code, 0, piped.stdout + piped.stderr);
  const esc = "\x1b[";
  assert.ok(
    section(piped.stdout, "Journal").includes(`${esc}32mwake start${esc}0m`),
    piped.stdout,
  );
  const plain = await runCli(["demo"], { env: { ...OFFLINE, NO_COLOR: "1" } });
  assert.equal(plain.code, 0, plain.stdout + plain.stderr);
  assert.ok(!plain.stdout.includes(esc), plain.stdout);
});

Deno.test("e2e: harness demo with AI_API_KEY passes the real AI_* settings to the wake", async () => {
  const vendor = await ModelMock.start();
  try {
    vendor.reply(
      "chat",
      {
        json: chatCompletion({
          toolCalls: [{
            id: "call_0",
            name: "messages",
            arguments: { action: "create", body: "Hello Ada, from a real vendor." },
          }],
        }),
      },
      { json: chatCompletion({ content: "Greeted Ada." }) },
    );
    const result = await runCli(["demo"], {
      env: {
        ...OFFLINE,
        AI_API_KEY: "sk-demo-test-0000",
        AI_MODEL: "vendor-model",
        AI_PROVIDER: "openai",
        AI_SDK_SURFACE: "chat",
        AI_BASE_URL: vendor.baseURL,
      },
    });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /^Model\s+vendor-model at http:\/\/127\.0\.0\.1:\d+.* \(your AI_\* settings\)/m,
    );
    assert.equal(vendor.hits("chat"), 2);
    assert.equal(vendor.lastBody("chat").model, "vendor-model");
    assert.match(section(result.stdout, "Journal"), /wake end .*outcome=ok/);
    assert.match(
      section(result.stdout, "Timeline afterwards"),
      new RegExp(`^ {2}${STAMP} vega: Hello Ada, from a real vendor\\.$`, "m"),
    );
  } finally {
    await vendor.close();
  }
});

Deno.test("e2e: harness demo with AI_API_KEY but no AI_MODEL says so and exits 1", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "demo-e2e-" });
  try {
    const result = await runCli(["demo"], {
      env: { ...OFFLINE, AI_API_KEY: "sk-demo-test-0000", AI_MODEL: "", TMPDIR: tmp },
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^harness demo: AI_API_KEY is set, .*AI_MODEL is not/);
    assert.ok(!result.stderr.includes("sk-demo-test-0000"));
    assert.deepEqual([...Deno.readDirSync(tmp)], []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("e2e: harness demo --port takes a fixed port and refuses a bad one", async () => {
  const bad = await runCli(["demo", "--port", "nope"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--port must be a whole number/);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const ok = await runCli(["demo", "--port", String(port)], { env: OFFLINE });
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, new RegExp(`^Platform\\s+http://127\\.0\\.0\\.1:${port}\\b`, "m"));
});

Deno.test("e2e: harness demo --draw: vega draws the picture ada asked for, posts it and answers", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "demo-draw-" });
  try {
    const result = await runCli(["demo", "--draw"], { env: { ...OFFLINE, TMPDIR: tmp } });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const out = result.stdout;
    assert.match(out, /^Config\s+harness install --opt-in generate_image/m);
    const journal = section(out, "Journal");
    assert.match(journal, /INFO media provider=openai kind=image\.generate model=\S+ duration=/);
    assert.match(journal, /INFO tool name=generate_image duration=\S+ outcome=ok/);
    assert.match(journal, /INFO posted message=/);
    const after = section(out, "Timeline afterwards").split("\n");
    assert.equal(after.length, 3, after.join("\n"));
    assert.match(after[0], /ada: \/imagine a lighthouse at night, in watercolour$/);
    assert.match(after[1], /vega: \(posted a file: a-lighthouse-at-night-in-watercolour\.png\)$/);
    assert.match(after[2], /vega: \(sandbox demo model\) @ada/);
    assert.deepEqual([...Deno.readDirSync(tmp)], [], "the demo left its data directory behind");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
