/**
 * The studio's tool list (`GET /api/tools`) is resolved from the agent's configuration once and
 * kept while the config home's files stay the same: a second request resolves nothing, and an
 * edit — installing the config home and adding a plugin file — is seen by the next request.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startPlayground } from "../../lib/playground/playground.ts";
import { runCli } from "../support/run_cli.ts";

const loose = { sanitizeOps: false, sanitizeResources: false };
const TIMELINE = "0197a6b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b";

Deno.test({
  name: "studio: the tool list is resolved once per config change, and an edit is seen",
  ...loose,
  async fn() {
    const playground = await startPlayground({
      host: "127.0.0.1",
      port: 0,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: Deno.env.get("HOME") ?? "/" },
      log: () => {},
    });
    try {
      const { studio } = playground;
      const names = async () => (await studio.tools(TIMELINE)).map((t) => t.name);
      const first = await names();
      assert.ok(first.includes("web_fetch"), first.join(","));
      assert.ok(!first.includes("fetch_page"), first.join(","));
      assert.equal(studio.toolListBuilds, 1);
      assert.deepEqual(await names(), first);
      assert.equal(studio.toolListBuilds, 1, "a second request resolved the configuration again");

      // The config home installed, with a plugin file that renames web_fetch: the next request
      // resolves again and shows it.
      const installed = await runCli(["install"], {
        env: { BASECRADLE_CONFIG_HOME: studio.configHome(), HOME: Deno.env.get("HOME") ?? "/" },
      });
      assert.equal(installed.code, 0, installed.stderr);
      await Deno.writeTextFile(
        join(studio.configHome(), "tools", "zz_fetch_page.json"),
        JSON.stringify({ format: 1, plugins: [{ tool: "web_fetch", name: "fetch_page" }] }),
      );
      const edited = await names();
      assert.ok(edited.includes("fetch_page"), edited.join(","));
      assert.equal(studio.toolListBuilds, 2);
      assert.deepEqual(await names(), edited);
      assert.equal(studio.toolListBuilds, 2);
    } finally {
      await playground.close();
    }
  },
});
