/**
 * The failure cases, against a Deno-native HTTP server and a dependency-free stdio server: slow
 * (timeout), paging slowly, crashing, lying about its schema, images, duplicates, unapproved, a
 * 30 MiB result — none may stall or crash the wake or flood the model; each becomes a skipped
 * entry, a tool error or a cut result with its reason.
 */
import assert from "node:assert/strict";
import { loadMcp } from "../../lib/mcp/mod.ts";
import { recordApproval } from "../../lib/mcp/pinning.ts";
import { MAX_RESULT_CHARS } from "../../lib/mcp/config.ts";
import { HUGE_CHARS, startTestHttpServer } from "./http_server.ts";
import {
  approveAll,
  captureJournal,
  marker,
  tempConfigHome,
  waitGone,
  writeServer,
} from "./support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const MINI = new URL("./fixtures/mini_server.mjs", import.meta.url).pathname;
const text = (out: string | { text: string }) => (typeof out === "string" ? out : out.text);

async function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = await tempConfigHome();
  try {
    await fn(home);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test({
  name: "HTTP: a slow tool becomes a tool error at the timeout; a slow list skips the server",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      // The slow answers come 60 s late against a 2 s deadline: the load and the call ending at
      // all, with the timeout's text, is the proof; the wall-clock bounds are only sanity checks.
      const http = startTestHttpServer({ slowMs: 60_000 });
      try {
        await writeServer(home, "slow", { url: http.url("slow") });
        await approveAll(home);
        await writeServer(home, "slowlist", { url: http.url("slowlist") });
        await recordApproval(home, "slowlist", { sha256: "0", tools: {} });
        const journal = captureJournal();
        const started = Date.now();
        const mcp = await loadMcp({ configHome: home, timeoutSeconds: 2, journal });
        assert.ok(Date.now() - started < 45_000, "the slow list must not stall the load");
        assert.deepEqual(mcp.skipped, [{
          name: "slowlist",
          reason: "MCP server 'slowlist' did not load: no answer within 2 s (HARNESS_MCP_TIMEOUT)",
        }]);
        assert.ok(journal.lines.includes(`WARNING ${mcp.skipped[0].reason}`));
        const t0 = Date.now();
        const out = text(await mcp.tools[0].run({}));
        assert.ok(Date.now() - t0 < 45_000);
        assert.equal(
          out,
          "Error: MCP server 'slow' failed on 'slow': no answer within 2 s (HARNESS_MCP_TIMEOUT)",
        );
        await mcp.close();
      } finally {
        await http.close();
      }
    }),
});

Deno.test({
  name: "HTTP: lying tool lists lose only the bad tools; schemas, names and descriptions bounded",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      const http = startTestHttpServer();
      try {
        await writeServer(home, "ok", { url: http.url("ok") });
        await writeServer(home, "lying", { url: http.url("lying") });
        await writeServer(home, "down", { url: http.url("down") });
        await approveAll(home, ["ok", "lying"]);
        await recordApproval(home, "down", { sha256: "0", tools: {} });
        const images = (await import("../../lib/tools/shared/image_stash.ts")).ImageRing;
        const mcp = await loadMcp({ configHome: home, timeoutSeconds: 5, images: new images() });
        const names = mcp.tools.map((t) => t.name);
        const long = names.find((n) => n.startsWith("lying__long"))!;
        assert.equal(long.length, 64);
        assert.deepEqual(names, [
          "lying__bare",
          "lying__good",
          long,
          "ok__add",
          "ok__fail",
          "ok__images",
          "ok__liar",
        ]);
        const bare = mcp.tools.find((t) => t.name === "lying__bare")!;
        assert.deepEqual(bare.parameters, { type: "object", properties: {} });
        assert.equal(bare.description, "The 'bare' tool from MCP server 'lying'.");
        assert.equal(Array.from(mcp.tools.find((t) => t.name === long)!.description).length, 1024);
        const reasons = mcp.skipped.map((s) => `${s.name}: ${s.reason}`);
        assert.equal(reasons.length, 3, reasons.join("\n"));
        assert.match(reasons[0], /^down: MCP server 'down' did not load: .*500/);
        assert.match(reasons[1], /^lying__stringly: .*not a JSON object schema/);
        assert.match(reasons[2], /^lying: .*a tool with no name/);

        const tool = (n: string) => mcp.tools.find((t) => t.name === n)!;
        assert.deepEqual(await tool("ok__add").run({ a: 2, b: 3 }), { text: "5" });
        assert.equal(text(await tool("ok__fail").run({})), "Error: it broke");
        assert.equal(text(await tool("ok__liar").run({})), "n is a string");
        assert.equal(
          text(await tool("ok__add").run([1])),
          "Error: the arguments must be a JSON object.",
        );
        const pics = await tool("ok__images").run({});
        assert.ok(typeof pics !== "string", String(pics));
        assert.deepEqual(pics.text.split("\n").map((l) => l.replace(/, \d+ B —.*?\]/, "]")), [
          "pictures:",
          "[image mcp-image-1: image/png]",
          "[image mcp-image-2: image/tiff] (type not viewable to a model; described only)",
          "[audio content]",
        ]);
        assert.deepEqual(pics.images?.map((i) => i.alt), ["mcp-image-1"]);
        assert.equal(mcp.images.get("latest")?.mimeType, "image/tiff");
        await mcp.close();
      } finally {
        await http.close();
      }
    }),
});

Deno.test({
  name: "duplicate final names: the first server (sorted) keeps the name",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      const http = startTestHttpServer();
      try {
        await writeServer(home, "dup.x", { url: http.url("slow") });
        await writeServer(home, "dup_x", { url: http.url("slow") });
        await approveAll(home);
        const journal = captureJournal();
        const mcp = await loadMcp({ configHome: home, timeoutSeconds: 5, journal });
        assert.deepEqual(mcp.tools.map((t) => [t.name, t.server]), [["dup_x__slow", "dup.x"]]);
        assert.deepEqual(mcp.skipped, [{
          name: "dup_x__slow",
          reason: "duplicate tool name from MCP server 'dup_x'; skipped",
        }]);
        assert.ok(journal.lines.includes(
          "WARNING MCP tool name 'dup_x__slow' already claimed; skipping the duplicate.",
        ));
        await mcp.close();
      } finally {
        await http.close();
      }
    }),
});

Deno.test({
  name: "stdio: a server that dies at start, a missing command, a crash mid-call",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      const tag = marker();
      await writeServer(home, "crashy", { command: "node", args: [MINI, "crash-on-call", tag] });
      await approveAll(home);
      await writeServer(home, "dead", { command: "node", args: [MINI, "exit-at-start"] });
      await writeServer(home, "missing", { command: "no-such-mcp-binary-xyz" });
      for (const name of ["dead", "missing"]) {
        await recordApproval(home, name, { sha256: "0", tools: {} });
      }
      const started = Date.now();
      const mcp = await loadMcp({ configHome: home, timeoutSeconds: 10 });
      assert.ok(Date.now() - started < 5000, "a dead server must fail fast, not at the timeout");
      const reasons = mcp.skipped.map((s) => s.reason);
      assert.match(
        reasons[0],
        /^MCP server 'dead' did not load: connection closed; the server process exited with code 3: mini_server: refusing to start \(test\)$/,
      );
      assert.match(reasons[1], /^MCP server 'missing' did not load: .*code 127.*not found/);
      const t0 = Date.now();
      const out = text(await mcp.tools[0].run({}));
      assert.ok(Date.now() - t0 < 5000);
      assert.match(
        out,
        /^Error: MCP server 'crashy' failed on 'boom': connection closed; the server process exited with code 7/,
      );
      await mcp.close();
      assert.deepEqual(await waitGone(tag, 2000), []);
    }),
});

Deno.test({
  name: "an unapproved server is refused without being spawned",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      const tag = marker();
      await writeServer(home, "fresh", { command: "node", args: [MINI, "ok", tag] });
      const journal = captureJournal();
      const mcp = await loadMcp({ configHome: home, timeoutSeconds: 5, journal });
      assert.deepEqual(mcp.tools, []);
      assert.deepEqual(mcp.stdioServers, []);
      assert.equal(
        mcp.skipped[0].reason,
        "MCP server 'fresh' did not load: its tool list has not been approved — review it with " +
          "'harness mcp list', then run 'harness mcp approve fresh'",
      );
      assert.deepEqual(await waitGone(tag, 0), []);
      assert.deepEqual(journal.lines, [`WARNING ${mcp.skipped[0].reason}`]);
      await mcp.close();
    }),
});

Deno.test({
  name: "close ends the whole process group, even a server ignoring SIGTERM and stdin EOF",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      const tag = marker();
      await writeServer(home, "stubborn", { command: "node", args: [MINI, "stubborn", tag] });
      await approveAll(home);
      const mcp = await loadMcp({ configHome: home, timeoutSeconds: 5 });
      assert.equal(mcp.tools.length, 1);
      assert.ok((await waitGone(`${tag}-grandchild`, 0)).length >= 1);
      await mcp.close();
      assert.deepEqual(await waitGone(tag, 1000), []);
    }),
});

Deno.test({
  name:
    "HTTP: a server that pages slowly is given up at one time limit for its whole list, not pages × it",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      const http = startTestHttpServer();
      try {
        // Approved while it answered quickly; the same list now comes one slow page at a time.
        await writeServer(home, "paged", { url: http.url("pages") });
        await approveAll(home);
        await writeServer(home, "paged", { url: http.url("slowpages") });
        const journal = captureJournal();
        const mcp = await loadMcp({ configHome: home, timeoutSeconds: 5, journal });
        // Each page (1 s) is well inside the per-request limit (5 s); the whole list is not.
        assert.deepEqual(mcp.loaded, []);
        assert.equal(mcp.skipped.length, 1);
        assert.match(
          mcp.skipped[0].reason,
          /^MCP server 'paged' did not load: its tool list did not arrive within 5 s \(HARNESS_MCP_TIMEOUT bounds the whole list, every page together; \d+ page\(s\) had come\)$/,
        );
        assert.ok(journal.lines.includes(`WARNING ${mcp.skipped[0].reason}`));
        // It stopped asking long before the 32 pages a per-page limit would have waited for.
        assert.ok((http.listed.slowpages ?? 0) < 32, `${http.listed.slowpages} pages asked`);
        await mcp.close();
      } finally {
        await http.close();
      }
    }),
});

Deno.test({
  name: "HTTP: a 30 MiB result reaches the model cut, with a note; max_result_chars sets the cut",
  ...loose,
  fn: () =>
    withHome(async (home) => {
      const http = startTestHttpServer();
      try {
        await writeServer(home, "big", { url: http.url("huge") });
        await writeServer(home, "small", { url: http.url("huge"), max_result_chars: 5000 });
        await approveAll(home);
        const mcp = await loadMcp({ configHome: home, timeoutSeconds: 60 });
        const [big, small] = ["big__dump", "small__dump"].map((name) =>
          mcp.tools.find((t) => t.name === name)!
        );
        const note = (shown: number) =>
          `\n[… cut: the tool's result was ${HUGE_CHARS} characters; only the first ${shown} ` +
          "are shown. Ask the tool for less (a narrower query, one page) if you need the rest.]";
        const whole = text(await big.run({}));
        assert.equal(whole.length, MAX_RESULT_CHARS + note(MAX_RESULT_CHARS).length);
        assert.ok(whole.startsWith("0123456789"));
        assert.ok(whole.endsWith(note(MAX_RESULT_CHARS)));
        const cut = text(await small.run({}));
        assert.equal(cut, "0123456789".repeat(500) + note(5000));
        await mcp.close();

        // A limit outside its range refuses the file, naming the key and the range.
        await writeServer(home, "small", { url: http.url("huge"), max_result_chars: 10 });
        const refused = await loadMcp({ configHome: home, timeoutSeconds: 60 });
        assert.deepEqual(refused.skipped.map((s) => s.reason), [
          "Skipping MCP server config mcp/small.json: max_result_chars: max_result_chars must " +
          "be from 1000 to 10000000",
        ]);
        await refused.close();
      } finally {
        await http.close();
      }
    }),
});
