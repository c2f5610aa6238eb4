/**
 * The subprocess PATH helpers (docs/tools.md#run-any-command-the-shell-tool), pure: only ever add,
 * and only when absent.
 */
import assert from "node:assert/strict";
import { DEFAULT_PATH, pathPrelude, pathWithBin, shellQuote } from "../../lib/tools/shell/path.ts";

Deno.test("shell path: the bin dir is prepended only when absent", () => {
  assert.equal(pathWithBin("/usr/bin:/bin", "/opt/h"), "/opt/h:/usr/bin:/bin");
  assert.equal(pathWithBin("/usr/bin:/opt/h", "/opt/h"), "/usr/bin:/opt/h");
  assert.equal(pathWithBin(undefined, "/opt/h"), `/opt/h:${DEFAULT_PATH}`);
  assert.equal(pathWithBin("", "/opt/h"), "/opt/h");
  assert.equal(pathWithBin("/usr/bin", undefined), "/usr/bin");
  // Exact entries only: a prefix is not a match.
  assert.equal(pathWithBin("/opt/h2", "/opt/h"), "/opt/h:/opt/h2");
});

Deno.test("shell path: shellQuote leaves safe words bare and quotes the rest", () => {
  assert.equal(shellQuote("/opt/harness-1.0/bin"), "/opt/harness-1.0/bin");
  assert.equal(shellQuote("/a b/c'd"), `'/a b/c'"'"'d'`);
  assert.equal(shellQuote(""), "''");
});

Deno.test("shell path: the prelude is empty without a dir and idempotent in bash", async () => {
  assert.equal(pathPrelude(undefined), "");
  const dir = "/tmp/odd [dir]*";
  const script = `${pathPrelude(dir)}\n${
    pathPrelude(dir)
  }\necho "$PATH"; echo "\${__bc_bin-unset}"`;
  const out = await new Deno.Command("/bin/bash", {
    args: ["-c", script],
    env: { PATH: "/usr/bin:/bin" },
  }).output();
  assert.equal(new TextDecoder().decode(out.stdout), `${dir}:/usr/bin:/bin\nunset\n`);
});
