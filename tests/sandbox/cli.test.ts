import { strict as assert } from "node:assert";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Runs `harness sandbox …` the way an operator would. */
function spawnSandbox(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "main.ts", "sandbox", ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Reads stdout up to the first newline; returns the line and a reader for the rest. */
async function firstLine(child: Deno.ChildProcess) {
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const [line, ...rest] = text.split("\n");
  return {
    line,
    async remainder() {
      let tail = rest.join("\n");
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        tail += new TextDecoder().decode(value);
      }
      return tail;
    },
  };
}

async function stop(child: Deno.ChildProcess) {
  const stderr = new Response(child.stderr).text();
  child.kill("SIGTERM");
  const status = await child.status;
  return { code: status.code, stderr: await stderr };
}

Deno.test("CLI: harness sandbox prints one JSON line, serves, logs, stops on SIGTERM with 0", async () => {
  const child = spawnSandbox(["--port", "0"]);
  const out = await firstLine(child);
  assert.match(
    out.line,
    /^\{"base_url": "http:\/\/127\.0\.0\.1:\d+", "admin_url": "http:\/\/127\.0\.0\.1:\d+\/_sandbox", "admin_token": "sbx_admin_[0-9a-f]{32}"\}$/,
  );
  const { base_url: base, admin_url: admin, admin_token: adminToken } = JSON.parse(out.line);
  assert.equal(admin, `${base}/_sandbox`);
  const adminHeaders = { "sandbox-admin-token": adminToken };

  const user = await fetch(`${admin}/users`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders },
    body: JSON.stringify({ handle: "ada", name: "Ada", kind: "human" }),
  }).then((r) => r.json());
  const auth = { authorization: `Bearer ${user.token}`, "content-type": "application/json" };
  const tl = await fetch(`${base}/timelines`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ timeline: { name: "cli" } }),
  }).then((r) => r.json());
  const msg = await fetch(`${base}/timelines/${tl.timeline.uuid}/messages`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ message: { body: "secret body text" } }),
  });
  assert.equal(msg.status, 201);
  await msg.body?.cancel();
  const events = await fetch(`${admin}/events`, { headers: adminHeaders }).then((r) => r.json());
  assert.equal(events.events[0].event, "message.created");

  const { code, stderr } = await stop(child);
  assert.equal(code, 0);
  assert.equal((await out.remainder()).trim(), "", "nothing else on stdout");
  assert.match(stderr, /method=POST path=\/timelines\/[0-9a-f-]+\/messages status=201 ms=\d+/);
  assert.ok(!stderr.includes(user.token), "tokens never logged");
  assert.ok(!stderr.includes(adminToken), "the admin token is never logged");
  assert.ok(!stderr.includes("secret body text"), "bodies never logged");
});

Deno.test("CLI: --data persists state across restarts", async () => {
  const dir = await Deno.makeTempDir({ prefix: "sandbox-cli-" });
  try {
    let child = spawnSandbox(["--data", dir]);
    const started = JSON.parse((await firstLine(child)).line);
    let base = started.base_url;
    const user = await fetch(`${base}/_sandbox/users`, {
      method: "POST",
      headers: { "content-type": "application/json", "sandbox-admin-token": started.admin_token },
      body: JSON.stringify({ handle: "vega", name: "Vega", kind: "ai" }),
    }).then((r) => r.json());
    assert.equal((await stop(child)).code, 0);
    await Deno.stat(join(dir, "sandbox.db"));

    child = spawnSandbox(["--data", dir]);
    base = JSON.parse((await firstLine(child)).line).base_url;
    const me = await fetch(`${base}/users/dashboard`, {
      headers: { authorization: `Bearer ${user.token}` },
    }).then((r) => r.json());
    assert.equal(me.identity.uuid, user.user.uuid);
    assert.equal((await stop(child)).code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("CLI: usage errors exit 2; --help exits 0", async () => {
  for (const args of [["--port", "abc"], ["--port", "70000"], ["--bogus"], ["extra"]]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-P=harness", "main.ts", "sandbox", ...args],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 2, `args ${args.join(" ")}`);
    assert.equal(new TextDecoder().decode(out.stdout), "");
  }
  const help = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "main.ts", "sandbox", "--help"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(help.code, 0);
  assert.match(new TextDecoder().decode(help.stdout), /--wake-command/);
});
