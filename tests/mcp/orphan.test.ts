/**
 * No orphans: a process that started stdio servers through the client is SIGKILLed — no
 * cleanup runs in it — and its servers (a stubborn one that ignores SIGTERM and stdin EOF and
 * forks a grandchild, and the real server-everything) must be gone shortly after. The
 * supervisor's watchdog (lib/mcp/supervisor/script.ts) is what ends them.
 */
import assert from "node:assert/strict";
import {
  approveAll,
  marker,
  npmServers,
  pgrep,
  tempConfigHome,
  waitGone,
  writeServer,
} from "./support.ts";

const MINI = new URL("./fixtures/mini_server.mjs", import.meta.url).pathname;
const HOLD = new URL("./fixtures/hold_server.ts", import.meta.url).pathname;

async function orphanCase(killGroup: boolean): Promise<void> {
  const { everything } = await npmServers();
  const home = await tempConfigHome();
  const tag = marker();
  try {
    await writeServer(home, "stubborn", { command: "node", args: [MINI, "stubborn", tag] });
    await writeServer(home, "everything", { command: "node", args: [everything, "stdio", tag] });
    await approveAll(home);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", HOLD, home],
      stdout: "piped",
      stderr: "inherit",
      // A router that kills the wake's whole process group must not take the watchdog with it.
      detached: killGroup,
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("\n")) out += (await reader.read()).value ?? "";
    const loaded = JSON.parse(out);
    assert.deepEqual(loaded.skipped, []);
    assert.equal(loaded.tools.length > 1, true);
    // The stubborn server, its grandchild, server-everything (and their watchdogs) are up.
    assert.ok((await pgrep(`${tag}-grandchild`)).length >= 1);
    assert.ok((await pgrep(`stdio ${tag}`)).length >= 1);
    Deno.kill(killGroup ? -child.pid : child.pid, "SIGKILL");
    await child.status;
    await reader.cancel().catch(() => {});
    assert.deepEqual(await waitGone(tag, 5000), [], "MCP server processes outlived the wake");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

Deno.test({
  name: "SIGKILL of the process that spawned stdio servers leaves no orphans",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => orphanCase(false),
});

Deno.test({
  name: "SIGKILL of that process's whole group leaves no orphans either",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () => orphanCase(true),
});
