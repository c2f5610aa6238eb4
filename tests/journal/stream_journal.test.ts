import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  journalFromEnv,
  type Level,
  LogLevelError,
  MemoryJournal,
  parseLogLevel,
  StreamJournal,
} from "../../lib/journal/mod.ts";

const LEVELS: Level[] = ["DEBUG", "INFO", "WARNING", "ERROR"];

function collect(minLevel: Level | number) {
  const lines: string[] = [];
  const journal = new StreamJournal({
    minLevel,
    sink: (line) => lines.push(line),
    env: (n) => (n === "NO_COLOR" ? "1" : undefined),
  });
  for (const level of LEVELS) journal.event(level, "e", { level });
  for (const level of LEVELS) journal.text(level, `t ${level}`);
  return { journal, lines };
}

Deno.test("HARNESS_LOG_LEVEL parsing: names any case, Python aliases, numbers, blank", () => {
  strictEqual(parseLogLevel(undefined), 20);
  strictEqual(parseLogLevel("  "), 20);
  strictEqual(parseLogLevel("debug"), 10);
  strictEqual(parseLogLevel(" Info "), 20);
  strictEqual(parseLogLevel("WARNING"), 30);
  strictEqual(parseLogLevel("warn"), 30);
  strictEqual(parseLogLevel("Error"), 40);
  strictEqual(parseLogLevel("critical"), 50);
  strictEqual(parseLogLevel("15"), 15);
});

Deno.test("an invalid HARNESS_LOG_LEVEL is an error naming the variable and the accepted values", () => {
  throws(() => parseLogLevel("verbose"), (error: unknown) => {
    strictEqual(error instanceof LogLevelError, true);
    const message = (error as Error).message;
    strictEqual(message.includes("HARNESS_LOG_LEVEL"), true);
    strictEqual(message.includes("DEBUG, INFO, WARNING, ERROR"), true);
    strictEqual(message.includes("'verbose'"), true);
    return true;
  });
  throws(() => parseLogLevel("-1"), LogLevelError);
  throws(
    () => journalFromEnv((n) => (n === "HARNESS_LOG_LEVEL" ? "loud" : undefined)),
    LogLevelError,
  );
});

Deno.test("level filtering: lines below the minimum are not written", () => {
  deepStrictEqual(collect("INFO").lines, [
    "INFO e level=INFO",
    "WARNING e level=WARNING",
    "ERROR e level=ERROR",
    "INFO t INFO",
    "WARNING t WARNING",
    "ERROR t ERROR",
  ]);
  strictEqual(collect("DEBUG").lines.length, 8);
  deepStrictEqual(collect("ERROR").lines, ["ERROR e level=ERROR", "ERROR t ERROR"]);
  deepStrictEqual(collect(25).lines, [
    "WARNING e level=WARNING",
    "ERROR e level=ERROR",
    "WARNING t WARNING",
    "ERROR t ERROR",
  ]);
  deepStrictEqual(collect(50).lines, []);
  const { journal } = collect("WARNING");
  deepStrictEqual(LEVELS.map((l) => journal.enabled(l)), [false, false, true, true]);
});

Deno.test("journalFromEnv reads the level and NO_COLOR from the given env", () => {
  const lines: string[] = [];
  const env = (n: string) =>
    ({ HARNESS_LOG_LEVEL: "warning", NO_COLOR: "" } as Record<string, string>)[n];
  const journal = journalFromEnv(env, (line) => lines.push(line));
  journal.event("INFO", "wake start", { timeline: "t" }, { color: "green" });
  journal.event("WARNING", "degraded", { timeline: "t" }, { color: "yellow" });
  deepStrictEqual(lines, ["WARNING \x1b[33mdegraded\x1b[0m timeline=t"]);
});

Deno.test("a sink that throws never propagates into the caller", () => {
  let calls = 0;
  const journal = new StreamJournal({
    minLevel: "DEBUG",
    sink: () => {
      calls++;
      throw new Error("EPIPE");
    },
  });
  journal.event("ERROR", "wake failed", { error: "x" }, { color: "red" });
  journal.text("WARNING", "still fine");
  strictEqual(calls, 2);
});

Deno.test("an env getter that throws never propagates either", () => {
  const lines: string[] = [];
  const journal = new StreamJournal({
    sink: (line) => lines.push(line),
    env: () => {
      throw new Deno.errors.NotCapable("env");
    },
  });
  journal.event("INFO", "tool", { outcome: "ok" });
  deepStrictEqual(lines, ["INFO tool \x1b[32moutcome=ok\x1b[0m"]);
});

Deno.test("free-text lines are scrubbed and flattened; DEBUG may keep newlines", () => {
  const journal = new MemoryJournal();
  journal.text("WARNING", "Provider failed (attempt 1/3):\n  401 for key sk-abcdefghijkl");
  journal.text("DEBUG", "Traceback:\n  line 1\n  Bearer abcdefghij");
  deepStrictEqual(journal.lines, [
    "WARNING Provider failed (attempt 1/3): 401 for key [redacted]",
    "DEBUG Traceback:\n  line 1\n  [redacted]",
  ]);
});

Deno.test("MemoryJournal defaults to every level and no colour", () => {
  const journal = new MemoryJournal();
  journal.event("DEBUG", "memory", { op: "recall", chars: 0 });
  journal.event("INFO", "wake end", { outcome: "ok" }, { color: "blue" });
  deepStrictEqual(journal.lines, ["DEBUG memory op=recall chars=0", "INFO wake end outcome=ok"]);
});

Deno.test("the default sink writes a whole line to stderr", async () => {
  const script = `
    import { StreamJournal } from ${
    JSON.stringify(new URL("../../lib/journal/mod.ts", import.meta.url).href)
  };
    new StreamJournal().event("INFO", "wake start", { timeline: "t" }, { color: "green" });
  `;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  strictEqual(new TextDecoder().decode(output.stderr), "INFO wake start timeline=t\n");
  strictEqual(output.stdout.length, 0);
});
