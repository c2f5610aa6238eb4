/**
 * The automatic memory provider (`recall`): verbatim observation, agent-scoped cross-timeline
 * recall at turn 0, memory_search and its argument checks, failing stores, and binding.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { observeMemory, recallMemory } from "../../lib/memory/hooks.ts";
import { loadMemoryProvider } from "../../lib/memory/loader.ts";
import { parseMemorySearchArgs } from "../../lib/memory/memory_search.ts";
import { RECALLED_HEADING, RecallMemoryProvider } from "../../lib/memory/recall_provider.ts";
import { parseEnv } from "../../lib/config/env.ts";
import { rawDb, recordingJournal, tempHome } from "./helpers.ts";

const ADA = "11111111-1111-4111-8111-111111111111";
const EVE = "22222222-2222-4222-8222-222222222222";
const TIMELINE_A = "aaaaaaaa-0000-4000-8000-000000000000";
const TIMELINE_B = "bbbbbbbb-0000-4000-8000-000000000000";

Deno.test("recall: a fact told on one timeline is recalled on another, verbatim, posts included", async () => {
  using dir = tempHome();
  const provider = new RecallMemoryProvider({ home: dir.home });
  await provider.observe({
    user: "[2026-11-01T10:00:00Z] bob: my birthday is Feb. 16, 1977",
    assistant: "A birthday to remember.",
    posts: ["Noted, Bob!"],
    scope: { agent: ADA, timeline: TIMELINE_A },
  });
  await provider.observe({
    user: "[2026-11-02T10:00:00Z] bob: the build server moved to the basement",
    assistant: "ok",
    scope: { agent: ADA, timeline: TIMELINE_A },
  });
  const text = await provider.context({
    agent: ADA,
    timeline: TIMELINE_B,
    query: "[2026-12-01T10:00:00Z] bob: do you know when my birthday is?",
  });
  assert.ok(text, "something is recalled");
  const lines = text.split("\n");
  assert.equal(lines[0], RECALLED_HEADING);
  assert.equal(lines.length, 2, text); // the speaker's name alone recalls nothing
  assert.match(lines[1], /^- \[\d{4}-\d{2}-\d{2}, timeline aaaaaaaa\] /);
  assert.ok(lines[1].includes("bob: my birthday is Feb. 16, 1977 · you: A birthday to remember."));
  assert.ok(lines[1].includes("you posted: Noted, Bob!"));
  provider.close();
});

Deno.test("recall: memory is the agent's: another agent in the same file recalls nothing of it", async () => {
  using dir = tempHome();
  const provider = new RecallMemoryProvider({ home: dir.home });
  await provider.observe({
    user: "zebra crossings are painted on Tuesdays",
    assistant: "",
    scope: { agent: ADA, timeline: TIMELINE_A },
  });
  assert.equal(
    await provider.context({ agent: EVE, query: "when are zebra crossings painted" }),
    null,
  );
  assert.ok(await provider.context({ agent: ADA, query: "when are zebra crossings painted" }));
  provider.close();
});

Deno.test("recall: K=0 recalls nothing, a blank or stopword-only query recalls nothing", async () => {
  using dir = tempHome();
  const off = new RecallMemoryProvider({ home: dir.home, k: 0 });
  await off.observe({
    user: "the vault code is kept by Priya",
    assistant: "",
    scope: { agent: ADA },
  });
  assert.equal(await off.context({ agent: ADA, query: "who keeps the vault code?" }), null);
  off.close();
  const on = new RecallMemoryProvider({ home: dir.home, k: 1 });
  assert.equal(await on.context({ agent: ADA, query: "   " }), null);
  assert.equal(await on.context({ agent: ADA, query: "what is it that you were?" }), null);
  const one = await on.context({ agent: ADA, query: "who keeps the vault code?" });
  assert.equal(one?.split("\n").length, 2);
  on.close();
});

Deno.test("recall: the same words said again fill one slot; the newer twin ranks first", () => {
  using dir = tempHome();
  const provider = new RecallMemoryProvider({ home: dir.home });
  const old = new Date(Date.now() - 90 * 86_400_000);
  provider.recall.add({ agent: ADA, text: "standup moved to 9:15 (1)", at: old });
  provider.recall.add({ agent: ADA, text: "standup moved to 9:45 (2)" });
  provider.recall.add({ agent: ADA, text: "the standup room is B12" });
  const hits = provider.recall.search(ADA, "standup", 5);
  assert.equal(hits.length, 2);
  assert.ok(hits.some((hit) => hit.text.includes("B12")));
  assert.ok(hits.some((hit) => hit.text.includes("9:45")), "the newer of the twins is kept");
  provider.close();
});

Deno.test("recall: a long exchange is kept whole, in chunks each recalled on its own", async () => {
  using dir = tempHome();
  const provider = new RecallMemoryProvider({ home: dir.home });
  const filler = Array.from({ length: 40 }, (_, i) => `line ${i} about nothing in particular`);
  const user = [...filler, "the wifi password for the lab is kept by Oskar", ...filler].join("\n");
  await provider.observe({ user, assistant: "done", scope: { agent: ADA } });
  const db = rawDb(join(dir.home, "recall.db"));
  const rows = db.prepare("SELECT text FROM recall_chunks ORDER BY id").all() as { text: string }[];
  db.close();
  assert.ok(rows.length > 1, "chunked");
  assert.equal(rows.map((r) => r.text).join("\n"), `${user}\nyou: done`);
  const hit = provider.recall.search(ADA, "who keeps the lab wifi password", 1);
  assert.ok(hit[0].text.includes("kept by Oskar"));
  provider.close();
});

Deno.test("memory_search: searches the provider's memory, read-only, and says so on a miss", async () => {
  using dir = tempHome();
  const provider = new RecallMemoryProvider({ home: dir.home });
  await provider.observe({
    user: "the staging endpoint is https://staging.example/v3",
    assistant: "",
    scope: { agent: ADA, timeline: TIMELINE_A },
  });
  const [tool] = provider.tools();
  assert.equal(tool.name, "memory_search");
  assert.deepEqual(tool.parameters.required, ["query"]);
  const found = await tool.run({ query: "staging endpoint" }) as string;
  assert.match(found, /^Memories matching 'staging endpoint':\n- \[.*\] the staging endpoint/);
  assert.equal(await tool.run({ query: "kumquats" }), "No memories match 'kumquats'.");
  provider.close();
});

Deno.test("memory_search: bad arguments are an error the model reads, reported as invalid", async () => {
  assert.deepEqual(parseMemorySearchArgs({ query: " x " }), { query: "x", nResults: 5 });
  assert.deepEqual(parseMemorySearchArgs({ query: "x", n_results: 20 }), {
    query: "x",
    nResults: 20,
  });
  assert.deepEqual(parseMemorySearchArgs({ query: "x", n_results: null }), {
    query: "x",
    nResults: 5,
  });
  for (
    const [args, pattern] of [
      [{}, /'query' is required/],
      [{ query: "   " }, /'query' is required/],
      [{ query: 7 }, /'query' is required/],
      [[], /must be a JSON object/],
      [{ query: "x", n_results: 0 }, /'n_results' must be an integer from 1 to 20, got 0/],
      [{ query: "x", n_results: 21 }, /got 21/],
      [{ query: "x", n_results: 2.5 }, /got 2\.5/],
      [{ query: "x", n_results: "5" }, /got "5"/],
    ] as const
  ) {
    const parsed = parseMemorySearchArgs(args);
    assert.equal(typeof parsed, "string", JSON.stringify(args));
    assert.match(parsed as string, pattern);
  }
  using dir = tempHome();
  const provider = new RecallMemoryProvider({ home: dir.home });
  const outcomes: string[] = [];
  const reply = await provider.tools()[0].run({ query: "x", n_results: 99 }, {
    callId: "c1",
    reportOutcome: (outcome) => outcomes.push(outcome),
  });
  assert.match(reply as string, /^Error: 'n_results'/);
  assert.deepEqual(outcomes, ["invalid"]);
  provider.close();
});

Deno.test("recall: an unusable store never breaks a turn: WARNING, and nothing recalled", async () => {
  using dir = tempHome();
  await Deno.writeTextFile(join(dir.home, "recall.db"), "this is not a database ".repeat(200));
  const provider = new RecallMemoryProvider({ home: dir.home });
  const journal = recordingJournal();
  await observeMemory(provider, {
    user: "a fact",
    assistant: "ok",
    scope: { agent: ADA },
  }, journal);
  const recalled = await recallMemory(provider, { agent: ADA, query: "a fact" }, journal);
  assert.equal(recalled, null);
  const warnings = journal.lines.filter((l) => l.level === "WARNING").map((l) => l.text);
  assert.equal(warnings.length, 2, warnings.join("\n"));
  assert.match(warnings[0], /^Memory provider observe\(\) failed; continuing\. .*recall\.db/);
  assert.match(warnings[1], /^Memory provider context\(\) failed; omitting recalled memory\./);
  provider.close();
});

Deno.test("loader: recall and mempalace bind the automatic provider, reported with the harness version", async () => {
  using dir = tempHome();
  const journal = recordingJournal();
  const recall = await loadMemoryProvider("Recall", { home: dir.home, journal });
  assert.equal(recall.name, "recall");
  assert.equal(recall.backend, "recall");
  assert.match(recall.version ?? "", /^\d+\.\d+\.\d+/);
  assert.deepEqual(recall.provider.tools?.().map((t) => t.name), ["memory_search"]);
  assert.equal(journal.lines.length, 0, "recall binds silently");
  const palace = await loadMemoryProvider("mempalace", { home: dir.home, journal });
  assert.equal(palace.name, "mempalace");
  assert.equal(palace.backend, "recall");
  assert.equal(journal.lines.length, 1);
  assert.match(journal.lines[0].text, /^memory op=bind provider=mempalace backend=recall /);
  // Binding touched no disk: the idle wake never opens the store.
  assert.deepEqual([...Deno.readDirSync(dir.home)], []);
  const sqlite = await loadMemoryProvider("", { home: dir.home });
  assert.deepEqual([sqlite.name, sqlite.version, sqlite.backend], ["sqlite", null, "sqlite"]);
});

Deno.test("env: HARNESS_MEMORY_RECALL_K is 0–20 (default 5), the provider names are lower-cased", () => {
  assert.equal(parseEnv({}).memoryRecallK, 5);
  assert.equal(parseEnv({ HARNESS_MEMORY_RECALL_K: "0" }).memoryRecallK, 0);
  assert.equal(parseEnv({ HARNESS_MEMORY_PROVIDER: "MemPalace" }).memoryProvider, "mempalace");
  assert.equal(parseEnv({ HARNESS_MEMORY_PROVIDER: "RECALL" }).memoryProvider, "recall");
  for (const bad of ["21", "-1", "five"]) {
    assert.throws(
      () => parseEnv({ HARNESS_MEMORY_RECALL_K: bad }),
      /HARNESS_MEMORY_RECALL_K must be an integer from 0 to 20/,
    );
  }
  assert.equal(parseEnv({ MEMPAL_PALACE_PATH: "/p/legacy" }).palacePath, "/p/legacy");
  assert.equal(
    parseEnv({ MEMPALACE_PALACE_PATH: "/p/new", MEMPAL_PALACE_PATH: "/p/legacy" }).palacePath,
    "/p/new",
  );
});
