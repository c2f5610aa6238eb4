/**
 * A stdio MCP server installed next to the agent and named by bare command keeps working after a
 * switch from the Python harness (docs/mcp.md#the-agents-own-commands-on-path): the agent's own bin directories
 * (`~/.local/bin`, the old virtualenv's `~/venv/bin`, …) are on the server's `PATH` although the
 * wake's own `PATH` lacks them, as under the router; a `PATH` in the server's config still wins.
 * Real processes: `harness mcp approve` starts each server and lists its tools, as a wake does.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { writeServer } from "./support.ts";

const MINI = new URL("./fixtures/mini_server.mjs", import.meta.url).pathname;
const NODE = await new Deno.Command("sh", { args: ["-c", "command -v node"], stdout: "piped" })
  .output().then((out) => new TextDecoder().decode(out.stdout).trim());

/** An executable `name` in `dir` that runs the mini server (by node's absolute path). */
async function installServer(dir: string, name: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/${name}`, `#!/bin/sh\nexec '${NODE}' '${MINI}' ok "$@"\n`, {
    mode: 0o755,
  });
}

Deno.test("stdio MCP servers named by bare command are found in the agent's own bin dirs", async () => {
  assert.ok(NODE, "node is needed to run the mini MCP server");
  const home = await Deno.makeTempDir({ prefix: "mcp-agent-path-" });
  try {
    const config = `${home}/.config/basecradle`;
    await Deno.mkdir(`${config}/mcp`, { recursive: true });
    await installServer(`${home}/.local/bin`, "bc-local-mcp");
    await installServer(`${home}/venv/bin`, "bc-venv-mcp");
    await writeServer(config, "local", { command: "bc-local-mcp" });
    await writeServer(config, "venv", { command: "bc-venv-mcp" });
    // The operator's deliberate PATH in the config wins, so this one is not found.
    await writeServer(config, "pinned", {
      command: "bc-local-mcp",
      env: { PATH: "/usr/bin:/bin" },
    });
    // As under the router: a PATH without the agent's own directories.
    const env = { HOME: home, BASECRADLE_CONFIG_HOME: config, PATH: "/usr/bin:/bin" };

    const approved = await runCli(["mcp", "approve", "local", "venv"], { env });
    assert.equal(approved.code, 0, approved.stdout + approved.stderr);
    assert.match(approved.stdout, /^approved local \(sha256 [0-9a-f]{16}…\)$/m);
    assert.match(approved.stdout, /^approved venv \(sha256 [0-9a-f]{16}…\)$/m);

    const pinned = await runCli(["mcp", "approve", "pinned"], { env });
    assert.equal(pinned.code, 1, pinned.stdout + pinned.stderr);
    assert.match(
      pinned.stderr,
      /^harness mcp: could not approve 'pinned': .*exited with code 127: .*bc-local-mcp: not found$/m,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
