/**
 * The agent.env format (docs/operating.md#the-agentenv-file), read as the router's wake runner
 * reads it: literal values, one `export ` and one layer of matching quotes dropped, the last
 * assignment winning, and every line it cannot read reported by number without its text.
 */
import assert from "node:assert/strict";
import { parseEnvFile } from "../../lib/base/env_file.ts";

const read = (text: string) => Object.fromEntries(parseEnvFile(text).values);

Deno.test("KEY=VALUE lines, comments and blank lines", () => {
  assert.deepEqual(read("# a comment\n\nA=1\n   # indented comment\n  B=two words\n"), {
    A: "1",
    B: "two words",
  });
  assert.deepEqual(read("A=1"), { A: "1" }, "no final newline");
  assert.deepEqual(read(""), {});
});

Deno.test("values are literal: no expansion, no escapes, no trailing comment, spaces kept", () => {
  assert.deepEqual(read("P=$HOME/x `id` $(id)\nQ=a # not a comment\nR=back\\slash\nS=tail  \n"), {
    P: "$HOME/x `id` $(id)",
    Q: "a # not a comment",
    R: "back\\slash",
    S: "tail  ",
  });
  assert.deepEqual(read("URL=https://x/?a=b&c=d\n"), { URL: "https://x/?a=b&c=d" }, "first '='");
  assert.deepEqual(read("K = v\n"), { K: " v" }, "spaces around the key go, the value's stay");
});

Deno.test("one leading `export ` is dropped", () => {
  assert.deepEqual(read("export A=1\n  export B=2\n"), { A: "1", B: "2" });
  assert.deepEqual(read("export export C=3\n"), {}, "only one");
  assert.deepEqual(read("exportD=4\n"), { exportD: "4" });
});

Deno.test("one layer of matching quotes around the whole value is dropped", () => {
  assert.deepEqual(
    read(
      [
        `A="double"`,
        `B='single'`,
        `C="'nested'"`,
        `D=""`,
        `E="unmatched'`,
        `F="open`,
        `G=mid"dle"`,
        `H="`,
        `I='a b' c'`,
      ].join("\n"),
    ),
    {
      A: "double",
      B: "single",
      C: "'nested'",
      D: "",
      E: `"unmatched'`,
      F: `"open`,
      G: `mid"dle"`,
      H: `"`,
      I: "a b' c",
    },
  );
});

Deno.test("the last assignment wins, a blank one included", () => {
  assert.deepEqual(read("A=1\nB=x\nA=2\nB=\n"), { A: "2", B: "" });
  assert.deepEqual([...parseEnvFile("B=1\nA=1\nB=2\n").values.keys()], ["B", "A"]);
});

Deno.test("lines that are not assignments are ignored and reported by number, never quoted", () => {
  const parsed = parseEnvFile("A=1\nsk-secret-no-equals\n1BAD=x\nBAD-NAME=y\n=z\nB=2\n");
  assert.deepEqual(Object.fromEntries(parsed.values), { A: "1", B: "2" });
  assert.deepEqual(parsed.ignored.map((i) => i.line), [2, 3, 4, 5]);
  assert.match(parsed.ignored[0].reason, /no '='/);
  assert.match(parsed.ignored[1].reason, /not a variable name/);
  for (const { reason } of parsed.ignored) assert.doesNotMatch(reason, /secret|BAD|z/);
});
