/**
 * agent.env as the router's wake runner reads it (docs/operating.md#the-agentenv-file): literal
 * `KEY=VALUE` lines, a leading `export ` and one layer of matching quotes stripped, nothing
 * expanded, the last assignment winning.
 */
import assert from "node:assert/strict";
import { parseAgentEnv, readAgentEnv, withAgentEnv } from "../../lib/config/agent_env.ts";

Deno.test("export prefixes and one layer of matching quotes are stripped, as the router strips them", () => {
  const vars = parseAgentEnv(
    [
      "export AI_PROVIDER=xai",
      'AI_MODEL="grok-4"',
      "AI_API_KEY='xai-abc def'",
      "  export   HARNESS_HOME=/home/ada/harness",
      `NESTED="'kept'"`,
      'TWO_LAYERS=""x""',
      "MISMATCHED=\"x'",
      'LONE="',
      "EMPTY=",
      'QUOTED_EMPTY=""',
    ].join("\n"),
  );
  assert.deepEqual(vars, {
    AI_PROVIDER: "xai",
    AI_MODEL: "grok-4",
    AI_API_KEY: "xai-abc def",
    HARNESS_HOME: "/home/ada/harness",
    NESTED: "'kept'",
    TWO_LAYERS: '"x"',
    MISMATCHED: "\"x'",
    LONE: '"',
    EMPTY: "",
    QUOTED_EMPTY: "",
  });
});

Deno.test("values are literal: no expansion, trailing comments and inner = kept, CRLF tolerated", () => {
  const vars = parseAgentEnv(
    "PASSWORD=a$b`c`$(d)\r\nNOTE=x # not a comment\r\nURL=https://h/?a=b\n",
  );
  assert.deepEqual(vars, {
    PASSWORD: "a$b`c`$(d)",
    NOTE: "x # not a comment",
    URL: "https://h/?a=b",
  });
});

Deno.test("comments, blank lines, lines without = and non-names are skipped; the last assignment wins", () => {
  const vars = parseAgentEnv(
    "# AI_MODEL=commented\n\nnot an assignment\n1BAD=x\nBAD-NAME=y\n AI_MODEL=a\nAI_MODEL=b\n",
  );
  assert.deepEqual(vars, { AI_MODEL: "b" });
});

Deno.test("withAgentEnv fills in only what the environment leaves unset", async () => {
  const dir = await Deno.makeTempDir({ prefix: "agent-env-" });
  try {
    assert.deepEqual(await readAgentEnv(dir), {}, "no file: nothing to add");
    await Deno.writeTextFile(`${dir}/agent.env`, "export A=from-file\nB='from-file'\nC=x\n");
    assert.deepEqual(await withAgentEnv({ A: "from-env", C: "", D: undefined }, dir), {
      A: "from-env",
      B: "from-file",
      C: "",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
