/** `harness sandbox`'s router-twin flags, through the real process. */
import { strict as assert } from "node:assert";
import { fileURLToPath } from "node:url";
import { recorder } from "./router_support.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("CLI: --wake-command with --no-coalesce and --no-own-posts runs the twin by those rules", async () => {
  await using rec = await recorder(0.2);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-P=harness",
      "--quiet",
      "main.ts",
      "sandbox",
      "--data",
      rec.dir,
      "--wake-command",
      rec.command,
      "--no-coalesce",
      "--no-own-posts",
    ],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const drained = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (text) => void (stderr += text) }),
  );
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let first = "";
  while (!first.includes("\n")) first += (await reader.read()).value ?? "";
  const { base_url: base, admin_token: adminToken } = JSON.parse(first);
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : { "sandbox-admin-token": adminToken }),
      },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  try {
    const ada = await post("/_sandbox/users", { handle: "ada", name: "Ada", kind: "human" });
    const vega = await post("/_sandbox/users", { handle: "vega", name: "Vega", kind: "ai" });
    await post(`/users/${vega.user.uuid}/trust`, {}, ada.token);
    await post(`/users/${ada.user.uuid}/trust`, {}, vega.token);
    const tl = (await post("/timelines", { timeline: { name: "t" } }, ada.token)).timeline.uuid;
    await post(`/timelines/${tl}/participations`, { user_id: vega.user.uuid }, ada.token);
    // Vega's own message first: it wakes no one (had it been delivered, its wake would run
    // first and a third wake would have started by the time two have ended).
    await post(`/timelines/${tl}/messages`, { message: { body: "mine" } }, vega.token);
    // Two quick messages: without coalescing both wake vega, one after the other.
    await post(`/timelines/${tl}/messages`, { message: { body: "one" } }, ada.token);
    await post(`/timelines/${tl}/messages`, { message: { body: "two" } }, ada.token);
    const count = (kind: string) =>
      stderr.split("\n").filter((l) => l.startsWith(`sandbox wake ${kind} `)).length;
    const deadline = Date.now() + 30_000;
    while (count("exit") < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(count("exit"), 2, stderr);
    assert.equal(count("start"), 2, stderr);
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await reader.cancel();
    await drained;
  }
  const runs = await rec.runs();
  assert.equal(runs.length, 2);
  assert.ok(stderr.split("\n").every((l) => !l.startsWith("sandbox wake coalesced")));
});

Deno.test("CLI: a router-twin flag without --wake-command is a usage error (exit 2)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "--quiet", "main.ts", "sandbox", "--no-dedup"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /--no-dedup needs --wake-command/);
});
