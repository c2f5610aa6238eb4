/** `harness demo` as a person runs it (`deno task demo`): offline, no key, exit 0, no leftovers. */
import { strict as assert } from "node:assert";
import { runCli } from "../support/run_cli.ts";

Deno.test("e2e: harness demo shows the question on the timeline and the message.created wake", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "demo-e2e-" });
  try {
    // No model key and a private TMPDIR, so leftovers of the demo's data dir would show.
    const result = await runCli(["demo"], {
      env: { TMPDIR: tmp, OPENAI_API_KEY: "", OPENROUTER_API_KEY: "", XAI_API_KEY: "" },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    const out = result.stdout;
    const base = /^Platform\s+(http:\/\/127\.0\.0\.1:\d+)/m.exec(out);
    assert.ok(base, out);
    assert.match(out, /^\s+@ada\s+Ada Lovelace \(human\)/m);
    assert.match(out, /^\s+@vega\s+Vega \(ai\)/m);
    const timeline = /^Timeline\s+"Demo"\s+([0-9a-f-]{36})$/m.exec(out);
    assert.ok(timeline, out);
    assert.match(out, /owner @ada, participants @vega/);
    assert.match(
      out,
      /^ {2}\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] ada: @vega what can an AI peer do/m,
    );
    const events = out.slice(out.indexOf("Router events"));
    assert.match(events, /^ {2}message\.created {2}by @ada/m);
    assert.match(events, new RegExp(`→ wakes @vega: harness wake --timeline ${timeline[1]}`));
    assert.ok(!/wakes @ada/.test(events), "humans are never woken");

    // The sandbox is gone and its data directory removed.
    await assert.rejects(fetch(`${base[1]}/users/dashboard`));
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
  const ok = await runCli(["demo", "--port", String(port)]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, new RegExp(`^Platform\\s+http://127\\.0\\.0\\.1:${port}\\b`, "m"));
});
