/**
 * Memory, notes, one tool alone and more human seats, on the real `harness playground` process:
 * the tools listed are the ones the agent's policy offers (never `shell`, never `summarize`); a
 * tool the agent is not offered is answered as an unknown tool; a post still meets the outbound
 * gate (a refusal names its check); a note written by the tool is in the notes panel; memory is
 * searched as a wake searches it; a new seat posts as itself; and every write needs the token.
 */
import assert from "node:assert/strict";
import { startPlayground } from "./support.ts";
import { studioClient } from "./studio_support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };

interface Run {
  outcome: string;
  result: string;
  verdicts: { verdict: string; checks: string[] }[];
  journal: string[];
}

Deno.test({
  name: "studio: tools under the agent's policy and gate, notes, memory search, human seats",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "studio-tools-" });
    try {
      await using playground = await startPlayground(["--data", data], env);
      const studio = await studioClient(playground);
      const { timeline } = studio;

      const listed = await studio.get<{ tools: { name: string }[] }>(
        `api/tools?timeline=${timeline}`,
      );
      const names = listed.body.tools.map((t) => t.name);
      for (const name of ["messages", "note_write", "note_get", "memory_search", "tasks"]) {
        assert.ok(names.includes(name), `${name} in ${names}`);
      }
      assert.ok(!names.includes("shell") && !names.includes("summarize"), names.join(","));

      const run = (name: string, args: Record<string, unknown>) =>
        studio.post<Run>("api/tools/run", { timeline, name, arguments: args });
      const note = await run("note_write", { key: "client/colour", value: "teal" });
      assert.equal(note.status, 200);
      assert.equal(note.body.outcome, "ok");
      assert.match(note.body.journal.join("\n"), /INFO tool name=note_write .*outcome=ok/);
      const notes = await studio.get<{ notes: { key: string; value: string }[] }>(
        `api/notes?timeline=${timeline}`,
      );
      assert.deepEqual(notes.body.notes, [{ key: "client/colour", value: "teal" }]);

      // Bad arguments come back as the tool's own error, as the model would read it.
      const bad = await run("note_write", { key: 7 });
      assert.equal(bad.status, 200);
      assert.notEqual(bad.body.outcome, "ok");
      // A tool the policy does not offer is never built: it answers as an unknown tool.
      const shell = await run("shell", { command: "id" });
      assert.equal(shell.body.outcome, "error");
      assert.match(shell.body.result, /shell/);
      // Speech still goes through the gate: an overlong post is refused, naming the check.
      const long = await run("messages", { action: "create", body: "x".repeat(10_001) });
      assert.deepEqual(long.body.verdicts, [{ verdict: "refused", checks: ["max_length"] }]);
      const said = await run("messages", { action: "create", body: "hello from the studio" });
      assert.equal(said.body.outcome, "ok");
      assert.deepEqual(said.body.verdicts, [{ verdict: "passed", checks: [] }]);
      const items = (await studio.state()).timelines[0].items;
      assert.ok(items.some((i) => i.author === "vega" && i.body === "hello from the studio"));

      // Automatic memory: nothing before the first engaged turn, then the exchange is recalled.
      const empty = await studio.get<{ present: boolean }>(
        `api/memory?timeline=${timeline}&q=lighthouse`,
      );
      assert.equal(empty.body.present, false);
      // A wrong prices.json (read again after each wake) prices nothing, and the state says why.
      const config = `${data}/agents/vega/config`;
      await Deno.mkdir(config, { recursive: true });
      await Deno.writeTextFile(`${config}/prices.json`, '{"sandbox-demo": {"input": -1}}');
      const asked = await studio.ask("@vega the lighthouse keeper is called Morwenna");
      assert.match(asked.prices.problem ?? "", /prices\.json key 'sandbox-demo\.input' is wrong/);
      await Deno.remove(`${config}/prices.json`);
      const found = await studio.get<{ present: boolean; recalled: string; lines: string[] }>(
        `api/memory?timeline=${timeline}&q=${encodeURIComponent("who keeps the lighthouse?")}`,
      );
      assert.equal(found.body.present, true);
      assert.match(found.body.recalled, /^Relevant memories from past conversations/);
      assert.match(found.body.recalled, /Morwenna/);
      assert.ok(found.body.lines.some((l) => l.includes("Morwenna")));
      assert.equal((await studio.get(`api/memory?timeline=${timeline}&q=`)).status, 400);
      assert.equal((await studio.get(`api/notes?timeline=../../etc`)).status, 400);

      // A second human seat: in mutual trust, on the timeline, posting as itself.
      const seat = await studio.post("api/seats", { handle: "grace", name: "Grace Hopper" });
      assert.equal(seat.status, 201, JSON.stringify(seat.body));
      assert.deepEqual((await studio.state()).humans.map((h) => h.handle), ["ada", "grace"]);
      const posted = await studio.post("api/post", { timeline, body: "hello all", as: "grace" });
      assert.equal(posted.status, 201);
      const last = (await studio.state()).timelines[0].items.at(-1)!;
      assert.deepEqual([last.author, last.body], ["grace", "hello all"]);
      const nobody = await studio.post<{ error: string }>("api/post", {
        timeline,
        body: "hi",
        as: "nobody",
      });
      assert.equal(nobody.status, 400);
      assert.match(nobody.body.error, /@nobody has no seat here/);
      const clash = await studio.post<{ error: string }>("api/seats", { handle: "ada", name: "A" });
      assert.ok(clash.status >= 400 && clash.status < 500, String(clash.status));
      const seats = JSON.parse(await Deno.readTextFile(`${data}/playground.json`));
      assert.deepEqual(seats.humans.map((h: { handle: string }) => h.handle), ["grace"]);

      // A live configuration that does not load: the tools cannot be built, and the page says why.
      await Deno.writeTextFile(`${config}/guardrails.json`, '{"max_length": "long"}');
      const broken = await studio.get<{ error: string }>(`api/tools?timeline=${timeline}`);
      assert.equal(broken.status, 409, broken.body.error);
      assert.match(
        broken.body.error,
        /^The agent's configuration does not load: .*guardrails\.json/,
      );
      await Deno.remove(`${config}/guardrails.json`);

      // Every studio write needs this run's page token.
      for (const path of ["api/tools/run", "api/drafts", "api/replay", "api/seats"]) {
        const reply = await fetch(`${playground.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        assert.equal(reply.status, 403, path);
        await reply.body?.cancel();
        // Nor may another site send one with the token, or a body a form could send.
        const token = studio.token;
        const foreign = await fetch(`${playground.url}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: "http://evil.example",
            "playground-token": token,
          },
          body: "{}",
        });
        assert.equal(foreign.status, 403, path);
        assert.match((await foreign.json()).error, /own page only/, path);
        const simple = await fetch(`${playground.url}${path}`, {
          method: "POST",
          headers: { "content-type": "text/plain", "playground-token": token },
          body: "{}",
        });
        assert.equal(simple.status, 415, path);
        await simple.body?.cancel();
      }
      assert.equal(await playground.stop(), 0, playground.stderr());
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});
