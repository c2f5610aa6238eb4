import assert from "node:assert/strict";
import { REPO_ROOT } from "../support/run_cli.ts";

const WRAPPERS = {
  "basecradle-harness-wake": "wake",
  "basecradle-harness-install": "install",
  "basecradle-harness-cleanup": "cleanup",
  "basecradle-harness-resolve": "resolve",
};

Deno.test("each compatibility wrapper execs `harness <command>` with its arguments unchanged", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrappers-" });
  try {
    // A stand-in harness that prints the argv it received, one argument per line.
    const fake = `${dir}/harness`;
    await Deno.writeTextFile(fake, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
    await Deno.chmod(fake, 0o755);
    for (const [wrapper, command] of Object.entries(WRAPPERS)) {
      const output = await new Deno.Command(`${REPO_ROOT}deploy/bin/${wrapper}`, {
        args: ["--timeline", "a b", "--flag"],
        env: { HARNESS_BIN: fake },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(output.code, 0, wrapper);
      assert.equal(
        new TextDecoder().decode(output.stdout),
        `${command}\n--timeline\na b\n--flag\n`,
        wrapper,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a wrapper passes the harness exit code through", async () => {
  const dir = await Deno.makeTempDir({ prefix: "wrappers-" });
  try {
    const fake = `${dir}/harness`;
    await Deno.writeTextFile(fake, "#!/bin/sh\nexit 2\n");
    await Deno.chmod(fake, 0o755);
    const output = await new Deno.Command(`${REPO_ROOT}deploy/bin/basecradle-harness-wake`, {
      env: { HARNESS_BIN: fake },
    }).output();
    assert.equal(output.code, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
