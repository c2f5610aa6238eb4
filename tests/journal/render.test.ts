import { strictEqual } from "node:assert/strict";
import {
  bound,
  codePoints,
  collapseWhitespace,
  renderEvent,
  renderFields,
  renderLine,
  renderText,
  renderValue,
  renderVerbatim,
} from "../../lib/journal/mod.ts";

const plain = (name: string) => (name === "NO_COLOR" ? "1" : undefined);
const coloured = () => undefined;

Deno.test("fields keep insertion order and drop null/undefined/empty, keeping 0 and false", () => {
  strictEqual(
    renderFields({ b: 1, a: "x", n: null, u: undefined, e: "", w: " \n\t ", z: 0, f: false }, {
      colored: false,
    }),
    "b=1 a=x z=0 f=false",
  );
});

Deno.test("a value with a space, = or a double quote is quoted; inner quotes become single", () => {
  strictEqual(renderValue("two words"), '"two words"');
  strictEqual(renderValue("a=b"), '"a=b"');
  strictEqual(renderValue('say "hi"'), `"say 'hi'"`);
  strictEqual(renderValue('x"y'), `"x'y"`);
  strictEqual(renderValue("plain-token_1.2:3/4"), "plain-token_1.2:3/4");
  strictEqual(renderValue("it's"), "it's");
});

Deno.test("whitespace runs, newlines and tabs collapse to one space; ends are trimmed", () => {
  strictEqual(renderValue("  line one\n\n\tline  two \r\n"), '"line one line two"');
  strictEqual(collapseWhitespace("a\u00a0\u2003b\u3000c\x1cd\x85e"), "a b c d e");
  // U+FEFF is not whitespace to Python, so it is not collapsed either.
  strictEqual(collapseWhitespace("a\ufeffb"), "a\ufeffb");
});

Deno.test("control characters become U+FFFD so no escape reaches a terminal", () => {
  strictEqual(renderValue("a\x1b[32mb\x00"), "a\ufffd[32mb\ufffd");
});

Deno.test("a forged field cannot create a second pair", () => {
  const line = renderEvent("tool", { name: "x", error: "a outcome=ok" }, {}, coloured);
  strictEqual(line, 'tool name=x error="a outcome=ok"');
  strictEqual(line.match(/ outcome=/g)?.length, 1);
  const forged = renderEvent("unspoken", { kind: "narration", text: 'a" outcome=ok "b' }, {
    verbatim: ["text"],
  }, plain);
  strictEqual(forged, `unspoken kind=narration text="a' outcome=ok 'b"`);
  // The only unquoted pairs are the ones we wrote.
  strictEqual(forged.replace(/"[^"]*"/g, "").match(/\w+=/g)?.join(","), "kind=,text=");
});

Deno.test("values are bounded to 240 code points: 239 kept, right-stripped, plus …", () => {
  strictEqual(renderValue("a".repeat(240)), "a".repeat(240));
  strictEqual(renderValue("a".repeat(241)), "a".repeat(239) + "…");
  // Right-strip: the cut lands just after a space, which is removed before the ellipsis (and
  // the value, now space-free, needs no quotes).
  const spaced = "a".repeat(238) + " " + "b".repeat(10);
  strictEqual(renderValue(spaced), `${"a".repeat(238)}…`);
});

Deno.test("the bound counts code points, not UTF-16 units (emoji and CJK)", () => {
  const emoji = "😀".repeat(240); // 480 UTF-16 units, 240 code points
  strictEqual(renderValue(emoji), emoji);
  const longer = "😀".repeat(300);
  const out = renderValue(longer)!;
  strictEqual(codePoints(out), 240);
  strictEqual(out, "😀".repeat(239) + "…");
  strictEqual(renderValue("漢".repeat(241)), "漢".repeat(239) + "…");
  strictEqual(bound("字".repeat(5), 4), "字字字…");
});

Deno.test("secrets are scrubbed before the bound, so a cut never exposes a key's tail", () => {
  const value = "x".repeat(220) + " sk-" + "A".repeat(40);
  strictEqual(renderValue(value), `"${"x".repeat(220)} [redacted]"`);
  // A key straddling the 240th code point is still redacted whole.
  const straddle = "x".repeat(235) + " sk-" + "A".repeat(40);
  strictEqual(renderValue(straddle), `"${"x".repeat(235)} [re…"`);
});

Deno.test("verbatim values are flattened and scrubbed, never truncated, always quoted", () => {
  const long = "word ".repeat(200).trim();
  strictEqual(renderVerbatim(long), `"${long}"`);
  strictEqual(renderVerbatim("single"), '"single"');
  strictEqual(renderVerbatim(""), '""');
  strictEqual(
    renderVerbatim('my key is sk-or-v1abcdefgh\nok "bye"'),
    `"my key is [redacted] ok 'bye'"`,
  );
  strictEqual(renderVerbatim(null), undefined);
});

Deno.test("colours: the head is wrapped whole, and only the outcome pair is coloured", () => {
  strictEqual(
    renderEvent(
      "wake end",
      { timeline: "t", outcome: "ok", turns: 1 },
      { color: "blue" },
      coloured,
    ),
    "\x1b[34mwake end\x1b[0m timeline=t \x1b[32moutcome=ok\x1b[0m turns=1",
  );
  strictEqual(
    renderEvent("tool", { outcome: "error" }, {}, coloured),
    "tool \x1b[31moutcome=error\x1b[0m",
  );
  strictEqual(
    renderEvent("wake end", { outcome: "declined" }, {}, coloured),
    "wake end \x1b[33moutcome=declined\x1b[0m",
  );
  // Other words, other keys and quoted values stay plain.
  strictEqual(
    renderEvent("x", { outcome: "maybe", result: "ok" }, {}, coloured),
    "x outcome=maybe result=ok",
  );
  strictEqual(renderEvent("x", { outcome: "ok now" }, {}, coloured), 'x outcome="ok now"');
  strictEqual(
    renderEvent("wake start", {}, { color: "green" }, coloured),
    "\x1b[32mwake start\x1b[0m",
  );
  strictEqual(
    renderEvent("degraded", {}, { color: "yellow" }, coloured),
    "\x1b[33mdegraded\x1b[0m",
  );
  strictEqual(
    renderEvent("wake failed", {}, { color: "red" }, coloured),
    "\x1b[31mwake failed\x1b[0m",
  );
});

Deno.test("NO_COLOR non-empty disables colour; empty NO_COLOR does not", () => {
  const fields = { outcome: "ok" };
  strictEqual(renderEvent("wake end", fields, { color: "blue" }, plain), "wake end outcome=ok");
  strictEqual(
    renderEvent("wake end", fields, { color: "blue" }, (n) => (n === "NO_COLOR" ? "" : undefined)),
    "\x1b[34mwake end\x1b[0m \x1b[32moutcome=ok\x1b[0m",
  );
  // A getter that throws (env permission denied) counts as unset.
  strictEqual(
    renderEvent("wake end", fields, { color: "blue" }, () => {
      throw new Error("denied");
    }),
    "\x1b[34mwake end\x1b[0m \x1b[32moutcome=ok\x1b[0m",
  );
});

Deno.test("NO_COLOR is read per line", () => {
  let noColor: string | undefined = undefined;
  const env = (n: string) => (n === "NO_COLOR" ? noColor : undefined);
  strictEqual(renderEvent("a", {}, { color: "red" }, env), "\x1b[31ma\x1b[0m");
  noColor = "1";
  strictEqual(renderEvent("a", {}, { color: "red" }, env), "a");
});

Deno.test("a full line has its level first, and a head with no pairs has no trailing space", () => {
  strictEqual(
    renderLine("INFO", "llm", { provider: "openai" }, {}, plain),
    "INFO llm provider=openai",
  );
  strictEqual(renderLine("WARNING", "degraded", {}, {}, plain), "WARNING degraded");
});

Deno.test("free text is scrubbed and flattened; DEBUG keeps newlines", () => {
  strictEqual(
    renderText("WARNING", "failed:\n  key xai-abcdefghij\tnow"),
    "WARNING failed: key [redacted] now",
  );
  strictEqual(
    renderText("DEBUG", "trace\r\n  at x\x1b\n  sk-abcdefghij"),
    "DEBUG trace\n  at x\ufffd\n  [redacted]",
  );
});
