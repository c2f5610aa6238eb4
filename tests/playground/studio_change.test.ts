/**
 * Trying a change before it ships, on the real `harness playground` process: the draft copy of
 * the agent's config home lists its charter files and guardrails.json; an untouched draft replays
 * with the recorded charter and changes nothing; one charter line the sandbox's model honours
 * turns a reply silent in the replay's diff; a wrong guardrails.json refuses the replay naming the
 * file; only the listed files may be written; and the live config home is never touched.
 */
import assert from "node:assert/strict";
import { startPlayground } from "./support.ts";
import { studioClient } from "./studio_support.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" };

interface DraftFile {
  path: string;
  text: string;
  exists: boolean;
  changed: boolean;
}
interface Report {
  summary: { replayed: number; changed: number; spoke_before: number; spoke_after: number };
  turns: {
    same_charter: boolean;
    diff: { spoke_changed: boolean; similarity: number };
    original: { texts: string[] };
    replay: { texts: string[] };
  }[];
}

Deno.test({
  name:
    "studio: a draft charter replayed over recorded turns shows the diff; the live home is untouched",
  ...loose,
  async fn() {
    const data = await Deno.makeTempDir({ prefix: "studio-change-" });
    try {
      await using playground = await startPlayground(["--data", data], env);
      const studio = await studioClient(playground);
      await studio.ask("@vega tell me about the harbour");

      const drafts = await studio.get<{ dir: string; files: DraftFile[] }>("api/drafts");
      assert.equal(drafts.status, 200);
      assert.equal(drafts.body.dir, `${data}/drafts/vega`);
      const byPath = new Map(drafts.body.files.map((f) => [f.path, f]));
      assert.deepEqual([...byPath.keys()], [
        "prompts/system-prompt.md",
        "prompts/initialize.md",
        "guardrails.json",
      ]);
      const prompt = byPath.get("prompts/system-prompt.md")!;
      assert.ok(prompt.exists && !prompt.changed && prompt.text.length > 100);
      assert.deepEqual(byPath.get("guardrails.json"), {
        path: "guardrails.json",
        text: "",
        exists: false,
        changed: false,
      });

      // Untouched, the draft is what the wakes ran under.
      const same = await studio.post<Report>("api/replay", { timeline: studio.timeline, last: 3 });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.equal(same.body.summary.replayed, 1);
      assert.equal(same.body.summary.changed, 0);
      assert.equal(same.body.turns[0].same_charter, true);

      // One line the sandbox's model honours: the reply becomes silence.
      const saved = await studio.post("api/drafts", {
        path: "prompts/system-prompt.md",
        text: `${prompt.text}\nsandbox-model: stay silent\n`,
      });
      assert.equal(saved.status, 200);
      const listed = await studio.get<{ files: DraftFile[] }>("api/drafts");
      assert.equal(listed.body.files[0].changed, true);
      const changed = await studio.post<Report>("api/replay", {
        timeline: studio.timeline,
        last: 3,
      });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual(
        { ...changed.body.summary, replayed: undefined },
        {
          ...changed.body.summary,
          replayed: undefined,
          changed: 1,
          spoke_before: 1,
          spoke_after: 0,
        },
      );
      const [turn] = changed.body.turns;
      assert.equal(turn.same_charter, false);
      assert.equal(turn.diff.spoke_changed, true);
      assert.equal(turn.diff.similarity, 0);
      assert.match(turn.original.texts[0], /tell me about the harbour/);
      assert.deepEqual(turn.replay.texts, []);

      // One replay at a time: a second one asked for meanwhile is refused, not queued.
      const [a, b] = await Promise.all([
        studio.post<{ error?: string }>("api/replay", { timeline: studio.timeline, last: 1 }),
        studio.post<{ error?: string }>("api/replay", { timeline: studio.timeline, last: 1 }),
      ]);
      assert.deepEqual([a.status, b.status].sort(), [200, 409]);
      assert.match((a.status === 409 ? a : b).body.error ?? "", /already running/);

      // A wrong guardrails.json refuses the replay, naming the file.
      await studio.post("api/drafts", { path: "guardrails.json", text: '{"max_length": "long"}' });
      const refused = await studio.post<{ error: string }>("api/replay", {
        timeline: studio.timeline,
        last: 1,
      });
      assert.equal(refused.status, 409);
      assert.match(refused.body.error, /guardrails\.json/);

      // Only the charter files, guardrails.json and knowledge/*.md may be written.
      for (const path of ["../playground.json", "tools/messages.json", "knowledge/../x.md"]) {
        const answer = await studio.post<{ error: string }>("api/drafts", { path, text: "x" });
        assert.equal(answer.status, 400, path);
        assert.match(answer.body.error, /is not a file the studio edits/);
      }
      const knowledge = await studio.post("api/drafts", {
        path: "knowledge/harbour.md",
        text: "The harbour is deep.",
      });
      assert.equal(knowledge.status, 200);
      const withKnowledge = await studio.get<{ files: DraftFile[] }>("api/drafts");
      assert.ok(withKnowledge.body.files.some((f) => f.path === "knowledge/harbour.md"));
      assert.equal(
        (await studio.post("api/replay", { timeline: studio.timeline, last: 21 })).status,
        400,
      );

      // The reset draft is the live one again.
      const reset = await studio.post<{ files: DraftFile[] }>("api/drafts/reset", null);
      assert.ok(reset.body.files.every((f) => !f.changed));
      // The live config home was never written: the wakes still run on the shipped defaults.
      await assert.rejects(Deno.stat(`${data}/agents/vega/config/prompts`), Deno.errors.NotFound);
      assert.equal(await playground.stop(), 0, playground.stderr());
    } finally {
      await Deno.remove(data, { recursive: true });
    }
  },
});
