/**
 * The production permission set's net deny list, proven in real processes
 * (docs/security.md#the-permission-set): under `-P=harness`, every metadata and wire-server
 * address, in every spelling net_probe.ts knows, is refused by Deno's permission check before
 * any packet — by fetch, Deno.connect and node:net — both from a plain script and from a custom
 * memory provider the harness loads after narrowing itself. A local listener is probed by the
 * same code as a control, so "refused" cannot be an artefact of a probe that never connects.
 */
import assert from "node:assert/strict";
import { DENO_DIR, REPO_ROOT, runCli } from "../support/run_cli.ts";
import { NET_DENY_LIST, permissionReport } from "../../lib/runtime/permissions.ts";
import type { ProbeResult } from "./net_probe.ts";

interface ProbeReport {
  readonly results: ProbeResult[];
  readonly control: ProbeResult[];
  readonly wireServerQuery: string;
}

/** A loopback HTTP server the probes must reach: the control. */
function controlServer(): Deno.HttpServer<Deno.NetAddr> & { readonly address: string } {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("control"),
  );
  return Object.assign(server, { address: `127.0.0.1:${server.addr.port}` });
}

/** Asserts every probe was refused by the permission check, and the control was reached. */
function assertRefused(report: ProbeReport): void {
  const leaks = report.results.filter((r) => r.verdict !== "refused");
  assert.deepEqual(leaks, [], "these attempts were not refused by the permission check");
  // Each target is tried by all three APIs; the target list covers the whole deny list.
  assert.ok(report.results.length >= NET_DENY_LIST.length * 3, `${report.results.length}`);
  for (const api of ["fetch", "connect", "node:net"]) {
    assert.ok(report.results.some((r) => r.api === api), api);
  }
  assert.deepEqual(
    report.control.map((r) => [r.api, r.verdict]),
    [["fetch", "reached"], ["connect", "reached"], ["node:net", "reached"]],
  );
  assert.equal(report.wireServerQuery, "denied");
}

Deno.test("under -P=harness, a script cannot reach any metadata address form by any API", async () => {
  await using server = controlServer();
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-P=harness",
      "--quiet",
      "--config",
      `${REPO_ROOT}deno.json`,
      `${REPO_ROOT}tests/e2e/net_probe.ts`,
    ],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", DENO_DIR, PROBE_CONTROL: server.address },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.equal(output.code, 0, decode(output.stderr));
  assertRefused(JSON.parse(decode(output.stdout)));
});

Deno.test("a custom memory provider in the harness process is refused too, and resolved-config reports the list in force", async () => {
  await using server = controlServer();
  const dir = await Deno.makeTempDir({ prefix: "net-deny-" });
  try {
    const out = `${dir}/probe.json`;
    const result = await runCli(["resolved-config"], {
      env: {
        HOME: dir,
        BASECRADLE_CONFIG_HOME: `${dir}/config`,
        HARNESS_HOME: "",
        HARNESS_PROFILE: "",
        AI_API_KEY: "",
        HARNESS_MEMORY_PROVIDER: `${REPO_ROOT}tests/e2e/net_probe_memory.ts`,
        PROBE_OUT: out,
        PROBE_CONTROL: server.address,
      },
    });
    assert.equal(result.code, 0, result.stderr);
    const doc = JSON.parse(result.stdout);
    assert.equal(doc.memory_provider, `module:${REPO_ROOT}tests/e2e/net_probe_memory.ts`);
    assert.equal(doc.sandbox.run, "denied", "the provider ran in the narrowed process");
    assert.deepEqual(doc.sandbox.net_deny, {
      denied: NET_DENY_LIST.length,
      entries: NET_DENY_LIST.length,
      missing: [],
    });
    assertRefused(JSON.parse(await Deno.readTextFile(out)));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the permission report names every entry a process does not deny", async () => {
  // This test process runs with -A: no deny list at all, so nothing is confirmed.
  const report = await permissionReport(false);
  assert.deepEqual(report.net_deny, {
    entries: NET_DENY_LIST.length,
    denied: 0,
    missing: [...NET_DENY_LIST],
  });
});
