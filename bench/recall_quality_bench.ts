/**
 * Recall quality of the automatic memory (BM25 + recency, no embeddings): 210 generated
 * question/fact pairs (bench/recall_corpus.ts) — facts told 2 to 12 weeks before the question on
 * six timelines, asked in other words, among recent distractors about the same people and
 * projects and 2,000 filler exchanges. Reports recall@5 and recall@10 (the share of questions
 * whose fact exchange is among the top 5 / 10), overall and per template. Target: R@5 ≥ 0.90.
 *
 *   deno run -A bench/recall_quality_bench.ts [--json]
 *
 * Exits 1 under the target.
 */
import { join } from "node:path";
import { exchangeText } from "../lib/memory/recall_provider.ts";
import { RecallStore } from "../lib/memory/recall_store.ts";
import { queryText } from "../lib/memory/recall_text.ts";
import { recallCorpus } from "./recall_corpus.ts";

/** The R@5 target. */
export const TARGET_R5 = 0.9;

const AGENT = "00000000-0000-4000-8000-0000000000aa";

/** Recall@5 and @10 over the corpus, overall and by template. */
export function measureQuality(seed = 7): {
  questions: number;
  exchanges: number;
  r5: number;
  r10: number;
  byTemplate: Record<string, { n: number; r5: number; r10: number }>;
} {
  const corpus = recallCorpus({ seed });
  const dir = Deno.makeTempDirSync({ prefix: "recall_quality_" });
  const store = new RecallStore({ path: join(dir, "recall.db") });
  try {
    const texts = corpus.exchanges.map((e) =>
      exchangeText({ user: e.user, assistant: e.assistant, scope: { agent: AGENT } })
    );
    store.addMany(corpus.exchanges.map((e, i) => ({
      agent: AGENT,
      timeline: e.timeline,
      text: texts[i],
      at: e.at,
    })));
    let r5 = 0;
    let r10 = 0;
    const byTemplate: Record<string, { n: number; r5: number; r10: number }> = {};
    for (const question of corpus.questions) {
      const hits = store.search(AGENT, queryText(question.query), 10, corpus.now);
      const rank = hits.findIndex((hit) => hit.text === texts[question.answer]);
      const row = byTemplate[question.template] ??= { n: 0, r5: 0, r10: 0 };
      row.n++;
      if (rank >= 0 && rank < 5) (r5++, row.r5++);
      if (rank >= 0) (r10++, row.r10++);
    }
    const n = corpus.questions.length;
    for (const row of Object.values(byTemplate)) {
      row.r5 /= row.n;
      row.r10 /= row.n;
    }
    return {
      questions: n,
      exchanges: corpus.exchanges.length,
      r5: r5 / n,
      r10: r10 / n,
      byTemplate,
    };
  } finally {
    store.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const result = measureQuality();
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify({ target: TARGET_R5, ...result }));
  } else {
    console.log(
      `recall quality: ${result.questions} questions over ${result.exchanges} exchanges ` +
        `(BM25 + recency, porter stemming)`,
    );
    console.log("template      n    R@5    R@10");
    for (const [name, row] of Object.entries(result.byTemplate).sort()) {
      console.log(
        `${name.padEnd(12)} ${String(row.n).padStart(3)}  ${row.r5.toFixed(3)}  ${
          row.r10.toFixed(3)
        }`,
      );
    }
    console.log(
      `all          ${String(result.questions).padStart(3)}  ${result.r5.toFixed(3)}  ${
        result.r10.toFixed(3)
      }`,
    );
    console.log(`target R@5 ≥ ${TARGET_R5}: ${result.r5 >= TARGET_R5 ? "met" : "MISSED"}`);
  }
  if (result.r5 < TARGET_R5) Deno.exit(1);
}
