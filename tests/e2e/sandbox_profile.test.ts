/**
 * The outer sandbox as separate processes under the production permission set (invariant 7,
 * docs/invariants.md#7-safe-by-default-enforced-twice): after narrowing as `locked`, spawning a
 * process throws NotCapable; `unlocked` (and the MCP stdio hook) keep `run`. And whole wakes: the
 * resolved tool set, the brief's safety and manifest notes, and model_params all reach the model;
 * the locked wake still replies.
 */
import assert from "node:assert/strict";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";
import { runCli } from "../support/run_cli.ts";
import { say, scriptReply, world } from "./wake_support.ts";
import { WAKE_TOOLS } from "../support/benign_tools.ts";

const SANDBOX_MODULE = new URL("../../lib/runtime/permissions.ts", import.meta.url).href;

/** Narrows a fresh process as `profile`, then tries to spawn `true`; prints the outcome. */
async function spawnAfterNarrowing(
  profile: "locked" | "unlocked",
  mcpStdioServers: string[] = [],
): Promise<{ stdout: string; stderr: string }> {
  const dir = await Deno.makeTempDir({ prefix: "sandbox-child-" });
  try {
    const script = `${dir}/child.ts`;
    await Deno.writeTextFile(
      script,
      `import { narrowPermissions } from ${JSON.stringify(SANDBOX_MODULE)};
const journal = {
  event() {},
  text(level: string, message: string) { console.error(level + " " + message); },
  enabled: () => true,
};
const outcome = await narrowPermissions(
  { profile: ${JSON.stringify(profile)}, mcpStdioServers: ${JSON.stringify(mcpStdioServers)} },
  journal,
);
let result: string;
try {
  await new Deno.Command("true").output();
  result = "spawned";
} catch (error) {
  result = (error as Error).name;
}
console.log(outcome.run + " " + result);
`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=harness", "--quiet", "--config", `${REPO_ROOT}deno.json`, script],
      cwd: REPO_ROOT,
      env: { NO_COLOR: "1", DENO_DIR },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    assert.equal(output.code, 0, decode(output.stderr));
    return { stdout: decode(output.stdout).trim(), stderr: decode(output.stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("locked: after narrowing, spawning a process throws NotCapable", async () => {
  const { stdout } = await spawnAfterNarrowing("locked");
  assert.equal(stdout, "revoked NotCapable");
});

Deno.test("unlocked: run is kept and the spawn works, with an audit WARNING", async () => {
  const { stdout, stderr } = await spawnAfterNarrowing("unlocked");
  assert.equal(stdout, "kept spawned");
  assert.match(stderr, /WARNING Profile 'unlocked': run permission kept/);
});

Deno.test("locked with an MCP stdio server keeps run and audits it", async () => {
  const { stdout, stderr } = await spawnAfterNarrowing("locked", ["browser"]);
  assert.equal(stdout, "kept spawned");
  assert.match(
    stderr,
    /WARNING Profile 'locked' keeps run permission for MCP stdio server\(s\) browser/,
  );
});

/** The system messages of the first chat request. */
function firstRequest(w: Awaited<ReturnType<typeof world>>) {
  const body = w.model.requestsTo("chat")[0].body as {
    messages: { role: string; content: string }[];
    tools?: { function: { name: string } }[];
    temperature?: number;
  };
  return {
    charter: body.messages[0].content,
    tools: (body.tools ?? []).map((t) => t.function.name).sort(),
    temperature: body.temperature,
  };
}

Deno.test("a locked wake with shell and system_prompt opted in: refusal in the brief, reply posted", async () => {
  await using w = await world();
  const install = await runCli(["install", "--opt-in", "shell,system_prompt"], { env: w.env });
  assert.equal(install.code, 0, install.stderr);
  await Deno.writeTextFile(
    `${w.env.BASECRADLE_CONFIG_HOME}/model_params.json`,
    '{"temperature": 0.25}',
  );
  await say(w, "hello @ada");
  scriptReply(w.model, "Hi Bob.");
  const result = await w.wake([], { HARNESS_PROFILE: "locked" });
  assert.equal(result.code, 0, result.stderr);
  const refusal = "Tool 'shell' refused by the safe-by-default policy: needs shell; not loaded.";
  assert.ok(result.stderr.includes(`WARNING ${refusal}`), result.stderr);
  const seen = firstRequest(w);
  assert.ok(!seen.tools.includes("shell"));
  assert.ok(seen.tools.includes("system_prompt_read"));
  assert.ok(seen.tools.includes("system_prompt_edit"));
  assert.ok(seen.tools.includes("memory"));
  assert.ok(seen.charter.includes(`- ${refusal}`));
  assert.match(seen.charter, /- system_prompt_edit — rewrites your own prompts\/system-prompt\.md/);
  assert.match(seen.charter, /- lock — /);
  assert.equal(seen.temperature, 0.25);
  const posts = await w.peer.client.messages.list({ timeline: w.timeline }).toArray();
  assert.ok(posts.some((m) => m.content.body === "Hi Bob."));
});

Deno.test("an unlocked wake audits the profile in the journal and the brief", async () => {
  await using w = await world();
  await say(w, "hello @ada");
  scriptReply(w.model, "Hi.");
  const result = await w.wake([], { HARNESS_PROFILE: "unlocked" });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stderr, /WARNING Profile 'unlocked': run permission kept/);
  const seen = firstRequest(w);
  assert.match(seen.charter, /- The 'unlocked' profile is active/);
  assert.deepEqual(
    seen.tools,
    [...WAKE_TOOLS],
  );
});

Deno.test("a default locked wake offers exactly the benign set plus memory and the working-state tools, no safety block", async () => {
  await using w = await world();
  await say(w, "hello @ada");
  scriptReply(w.model, "Hi.");
  const result = await w.wake([], { HARNESS_PROFILE: "", HARNESS_LOG_LEVEL: "DEBUG" });
  assert.equal(result.code, 0, result.stderr);
  // The wake narrowed itself before any tool, memory or model code ran.
  const revoked = result.stderr.indexOf("DEBUG Profile 'locked': run permission revoked");
  assert.ok(revoked >= 0, result.stderr);
  assert.ok(revoked < result.stderr.indexOf("wake start"));
  const seen = firstRequest(w);
  assert.equal(seen.tools.length, 16); // the twelve benign tools and the four working-state ones
  assert.ok(!seen.charter.includes("Operator-configured tools beyond the shipped safe set"));
  assert.doesNotMatch(result.stderr, /^WARNING/m);
});
