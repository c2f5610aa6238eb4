import assert from "node:assert/strict";
import { REPO_ROOT } from "../support/run_cli.ts";

Deno.test("compile refuses a DENORT_BIN that is not an executable, saying how to fix it", async () => {
  const output = await new Deno.Command("sh", {
    args: ["deploy/compile.sh"],
    cwd: REPO_ROOT,
    env: { DENORT_BIN: "/nonexistent/denort" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 1);
  assert.match(stderr, /DENORT_BIN is set to '\/nonexistent\/denort', which is not an executable/);
  assert.match(stderr, /unset it to let Deno download the runtime/);
});
