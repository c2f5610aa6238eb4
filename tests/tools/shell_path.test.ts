/**
 * The subprocess PATH helpers (lib/box/child_path.ts, docs/tools.md#run-any-command-the-shell-tool),
 * pure: only ever add, only when absent, in the given order.
 */
import assert from "node:assert/strict";
import { DEFAULT_PATH, pathPrelude, pathWithDirs, shellQuote } from "../../lib/tools/shell/path.ts";
import { AGENT_BIN_DIRS, agentBinDirs, harnessBinDir } from "../../lib/box/child_path.ts";

Deno.test("shell path: the dirs are prepended in order, each only when absent", () => {
  assert.equal(pathWithDirs("/usr/bin:/bin", ["/opt/h"]), "/opt/h:/usr/bin:/bin");
  assert.equal(pathWithDirs("/usr/bin:/opt/h", ["/opt/h"]), "/usr/bin:/opt/h");
  assert.equal(pathWithDirs(undefined, ["/opt/h"]), `/opt/h:${DEFAULT_PATH}`);
  assert.equal(pathWithDirs("", ["/opt/h"]), "/opt/h");
  assert.equal(pathWithDirs("/usr/bin", []), "/usr/bin");
  assert.equal(pathWithDirs(undefined, []), undefined);
  // Exact entries only: a prefix is not a match.
  assert.equal(pathWithDirs("/opt/h2", ["/opt/h"]), "/opt/h:/opt/h2");
  assert.equal(pathWithDirs("/usr/bin:/b", ["/a", "/b", "/c", "/a"]), "/a:/c:/usr/bin:/b");
});

Deno.test("shell path: shellQuote leaves safe words bare and quotes the rest", () => {
  assert.equal(shellQuote("/opt/harness-1.0/bin"), "/opt/harness-1.0/bin");
  assert.equal(shellQuote("/a b/c'd"), `'/a b/c'"'"'d'`);
  assert.equal(shellQuote(""), "''");
});

Deno.test("shell path: the prelude is empty without dirs, keeps their order and is idempotent in bash", async () => {
  assert.equal(pathPrelude([]), "");
  const dirs = ["/tmp/odd [dir]*", "/tmp/b", "/usr/bin"];
  const script = `${pathPrelude(dirs)}\n${
    pathPrelude(dirs)
  }\necho "$PATH"; echo "\${__bc_bin-unset}"`;
  const out = await new Deno.Command("/bin/bash", {
    args: ["-c", script],
    env: { PATH: "/usr/bin:/bin" },
  }).output();
  assert.equal(new TextDecoder().decode(out.stdout), `${dirs[0]}:/tmp/b:/usr/bin:/bin\nunset\n`);
});

Deno.test("child path: the harness's own dir, then the per-agent dirs under HOME that exist", async () => {
  const home = await Deno.makeTempDir();
  try {
    const own = harnessBinDir();
    assert.ok(own !== undefined);
    assert.deepEqual(agentBinDirs(home), [own]);
    for (const rel of [".venv/bin", ".local/bin"]) {
      await Deno.mkdir(`${home}/${rel}`, { recursive: true });
    }
    await Deno.writeTextFile(`${home}/bin`, "a file, not a directory");
    assert.deepEqual(agentBinDirs(home), [own, `${home}/.local/bin`, `${home}/.venv/bin`]);
    assert.deepEqual(agentBinDirs(undefined), [own]);
    assert.deepEqual(agentBinDirs("relative/home"), [own], "a relative HOME adds nothing");
    assert.deepEqual(AGENT_BIN_DIRS, [".local/bin", "bin", ".deno/bin", "venv/bin", ".venv/bin"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
