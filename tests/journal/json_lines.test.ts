/**
 * `HARNESS_LOG_FORMAT=json` (docs/journal.md#json-lines): one JSON object per journal line with
 * the same head, fields and values as the text line, scrubbed by the same scrubber.
 */
import assert from "node:assert/strict";
import {
  clearRegisteredSecrets,
  type Fields,
  type JsonLine,
  LogFormatError,
  MemoryJournal,
  parseLogFormat,
  registerSecret,
} from "../../lib/journal/mod.ts";
import {
  llmCall,
  posted,
  toolRun,
  unspoken,
  wakeEnd,
  wakeStart,
} from "../../lib/journal/catalogue.ts";
import { parseEnv } from "../../lib/config/env.ts";

const T = "8c0d0f5e-2b64-4d8e-9a35-4a6b9f7e1c21";
const NOW = new Date("2026-12-01T23:59:58.123Z");

/** The `k=v` pairs of a text line, split by the grammar (quoted values hold no `"`). */
function textPairs(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const match of text.matchAll(/ ([A-Za-z_][\w]*)=("[^"]*"|\S+)/g)) {
    pairs[match[1]] = match[2].startsWith('"') ? match[2].slice(1, -1) : match[2];
  }
  return pairs;
}

/** Writes the same facts through a text journal and a JSON journal. */
function both(write: (journal: MemoryJournal) => void): { text: string[]; json: JsonLine[] } {
  const text = new MemoryJournal();
  const json = new MemoryJournal({ format: "json", now: () => NOW });
  write(text);
  write(json);
  return { text: text.lines, json: json.lines.map((line) => JSON.parse(line) as JsonLine) };
}

Deno.test("HARNESS_LOG_FORMAT: text by default, json or text in any case, anything else refused", () => {
  assert.equal(parseLogFormat(undefined), "text");
  assert.equal(parseLogFormat("  "), "text");
  assert.equal(parseLogFormat("JSON"), "json");
  assert.equal(parseLogFormat(" text "), "text");
  assert.throws(() => parseLogFormat("logfmt"), LogFormatError);
  assert.throws(
    () => parseLogFormat("logfmt"),
    /HARNESS_LOG_FORMAT must be 'text' or 'json'.*'logfmt'/,
  );
  // The env schema refuses it with the same sentence, naming the variable.
  assert.throws(() => parseEnv({ HARNESS_LOG_FORMAT: "yaml" }), /HARNESS_LOG_FORMAT must be/);
  assert.equal(parseEnv({ HARNESS_LOG_FORMAT: "json" }).logFormat, "json");
  assert.equal(parseEnv({}).logFormat, "text");
});

Deno.test("every JSON line carries the text line's head, message and field values", () => {
  const { text, json } = both((journal) => {
    wakeStart(journal, { timeline: T, provider: "openai", model: "gpt-5.4-mini", delivery: "d-1" });
    llmCall(journal, {
      provider: "openai",
      model: "gpt-5.4-mini",
      seconds: 3.41,
      tokensIn: 4210,
      tokensOut: 96,
      tokensTotal: 4306,
      cachedTokens: 0,
      cost: 0.0445,
    });
    toolRun(journal, {
      name: "web_fetch",
      seconds: 0.4,
      outcome: "error",
      error: 'boom "x" outcome=ok',
    });
    posted(journal, { message: "m-1", timeline: T, kind: "tool", chars: 184 });
    unspoken(journal, { timeline: T, kind: "narration", text: 'Told "Bob"\nthe status.' });
    wakeEnd(journal, {
      timeline: T,
      outcome: "ok",
      turns: 1,
      steps: 2,
      maxSteps: 24,
      posted: 1,
      seconds: 6.12,
    });
    journal.text("WARNING", "Provider returned an unparseable response (attempt 1/3): x");
  });
  assert.equal(json.length, text.length);
  for (const [i, line] of json.entries()) {
    assert.equal(line.time, "2026-12-01T23:59:58.123Z");
    const [level, ...rest] = text[i].split(" ");
    assert.equal(line.level, level);
    assert.equal(line.message, rest.join(" "), "message is the text line without its level");
    if (line.head === undefined) {
      assert.equal(line.fields, undefined);
      continue;
    }
    assert.ok(line.message.startsWith(line.head), line.head);
    const fields = Object.fromEntries(
      Object.entries(line.fields ?? {}).map(([k, v]) => [k, String(v)]),
    );
    assert.deepEqual(fields, textPairs(line.message), line.head);
  }
  // Numbers and booleans stay typed; durations and costs are the text line's strings.
  const llm = json.find((line) => line.head === "llm")!;
  assert.deepEqual(llm.fields, {
    provider: "openai",
    model: "gpt-5.4-mini",
    duration: "3.41s",
    tokens_in: 4210,
    tokens_out: 96,
    tokens_total: 4306,
    cached_tokens: 0,
    cost: "0.0445",
  });
  // A forged pair stays inside its value, and the unspoken text is flattened, never cut.
  const tool = json.find((line) => line.head === "tool" && line.level === "WARNING")!;
  assert.equal(tool.fields?.error, "boom 'x' outcome=ok");
  assert.equal(json.find((l) => l.head === "unspoken")!.fields?.text, "Told 'Bob' the status.");
});

Deno.test("a JSON line is scrubbed by the same scrubber as the text line", () => {
  registerSecret("literal-secret-1234");
  try {
    const fields: Fields = { error: "401 for sk-abcdefghijklmnop and literal-secret-1234" };
    const { text, json } = both((journal) => {
      journal.event("ERROR", "wake failed", fields, { color: "red" });
      journal.text("ERROR", "Bearer abcdefghijklmnop refused");
    });
    assert.equal(json[0].fields?.error, "401 for [redacted] and [redacted]");
    assert.equal(json[0].message, text[0].slice("ERROR ".length));
    assert.equal(json[1].message, "[redacted] refused");
    for (const line of json) assert.ok(!JSON.stringify(line).includes("abcdefghijklmnop"));
  } finally {
    clearRegisteredSecrets();
  }
});

Deno.test("a JSON line is one line and never coloured, whatever the colour settings", () => {
  const journal = new MemoryJournal({
    format: "json",
    env: (name) => (name === "FORCE_COLOR" ? "1" : undefined),
  });
  journal.event("INFO", "wake start", { timeline: T }, { color: "green" });
  journal.text("DEBUG", "Traceback:\n  at one\n  at two");
  for (const line of journal.lines) {
    assert.ok(!line.includes("\n") && !line.includes("\x1b"), line);
    JSON.parse(line);
  }
  assert.equal(JSON.parse(journal.lines[1]).message, "Traceback:\n  at one\n  at two");
});
