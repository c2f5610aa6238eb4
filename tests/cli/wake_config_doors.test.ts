/**
 * One validation, four doors (docs/configuration.md#when-a-file-is-wrong): `harness install`,
 * `harness verify`, `harness doctor` and `harness wake` load the config home through the same
 * function, so for every way an optional file can be broken they agree — each refuses with the
 * very sentence the wake prints after `ERROR harness wake: `, or none of them does. Real processes
 * under the production permission set, against the sandbox platform and a model wire mock, so a
 * healthy box is all green first and a red door is red for the broken file alone.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/run_cli.ts";
import { type World, world } from "../e2e/wake_support.ts";

/** How a case breaks the config home at `dir`. */
type Breakage = (dir: string) => Promise<void>;

const write = (rel: string, text: string): Breakage => (dir) =>
  Deno.writeTextFile(`${dir}/${rel}`, text);

const directory = (rel: string): Breakage => async (dir) => {
  await Deno.remove(`${dir}/${rel}`).catch(() => {});
  await Deno.mkdir(`${dir}/${rel}`, { recursive: true });
};

/** Every optional file a wake loads, broken in each way its loader refuses. */
const REFUSED: ReadonlyArray<readonly [string, Breakage]> = [
  ["guardrails.json is not JSON", write("guardrails.json", "{")],
  ["guardrails.json has an unknown key", write("guardrails.json", '{"max_lenght": 5}')],
  ["guardrails.json has a wrong type", write("guardrails.json", '{"max_length": "five"}')],
  ["guardrails.json is a directory", directory("guardrails.json")],
  ["host_rules.json is not JSON", write("host_rules.json", "allow: everything")],
  ["host_rules.json has an unknown key", write("host_rules.json", '{"deny": []}')],
  ["host_rules.json has an entry that is no rule", write("host_rules.json", '{"allow": ["a b"]}')],
  ["budget.json has a negative limit", write("budget.json", '{"usd_per_day": -1}')],
  ["budget.json has an unknown key", write("budget.json", '{"usd_per_month": 5}')],
  ["budget.json is a directory", directory("budget.json")],
  [
    "escalation.json is enabled without NTFY_DM_TOKEN",
    write("escalation.json", '{"enabled": true}'),
  ],
  [
    "escalation.json names an unknown trigger",
    write("escalation.json", '{"enabled": false, "on": ["x"]}'),
  ],
  ["escalation.json is not an object", write("escalation.json", "[]")],
  ["records.json has an unknown content mode", write("records.json", '{"content": "some"}')],
  ["records.json has a zero retention", write("records.json", '{"retention_days": 0}')],
  [
    "image_prep.json has a value below its floor",
    write("image_prep.json", '{"*": {"segment_height": 10}}'),
  ],
  ["image_prep.json has an unknown key", write("image_prep.json", '{"*": {"height": 300}}')],
  ["model_params.json is not an object", write("model_params.json", "[1]")],
  ["model_params.json is not JSON", write("model_params.json", "temperature=1")],
  ["search_params.json is not an object", write("search_params.json", '"web"')],
  ["tools/messages.json is garbage", write("tools/messages.json", "\u0000 not json {{{")],
];

/** Files a wake reads without refusing, or never reads: every door stays green. */
const TOLERATED: ReadonlyArray<readonly [string, Breakage]> = [
  ["an mcp/ server file is not JSON (a skipped server)", write("mcp/broken.json", "{")],
  ["an operator's own tool plugin is garbage (a skipped file)", write("tools/mine.json", "{{")],
  ["prices.json is invalid (read by records stats, never by a wake)", write("prices.json", "[]")],
];

interface Doors {
  readonly install: Awaited<ReturnType<typeof runCli>>;
  readonly verify: Awaited<ReturnType<typeof runCli>>;
  readonly doctor: Awaited<ReturnType<typeof runCli>>;
  readonly wake: Awaited<ReturnType<typeof runCli>>;
}

/** Restores the pristine config home, breaks it, then knocks on every door. */
async function knock(w: World, pristine: string, breakIt: Breakage): Promise<Doors> {
  const dir = w.env.BASECRADLE_CONFIG_HOME;
  await Deno.remove(dir, { recursive: true });
  const copied = await new Deno.Command("cp", { args: ["-a", pristine, dir] }).output();
  assert.equal(copied.code, 0);
  await breakIt(dir);
  // install first: it writes (a .new beside an edited default); the others only read.
  const install = await runCli(["install"], { env: w.env });
  const [verify, doctor, wake] = await Promise.all([
    runCli(["verify", "--json", "--no-evidence"], { env: w.env }),
    runCli(["doctor", "--json", "--timeout", "60"], { env: w.env }),
    w.wake(),
  ]);
  return { install, verify, doctor, wake };
}

/** The sentence after `ERROR harness wake: `, from the wake's one stderr line. */
function wakeSentence(wake: Doors["wake"]): string {
  const lines = wake.stderr.split("\n").filter((line) => line.startsWith("ERROR harness wake: "));
  assert.equal(lines.length, 1, wake.stderr);
  return lines[0].slice("ERROR harness wake: ".length);
}

interface DoctorRow {
  name: string;
  status: string;
  detail: string;
}

const doctorRows = (doctor: Doors["doctor"]): DoctorRow[] => JSON.parse(doctor.stdout).checks;

Deno.test("install, verify, doctor and wake agree on every broken optional file", async (t) => {
  await using w = await world();
  w.model.always("model", { json: { id: "scripted", object: "model", created: 1, owned_by: "t" } });
  const installed = await runCli(["install"], { env: w.env });
  assert.equal(installed.code, 0, installed.stderr);
  const pristine = `${w.home}/pristine-config`;
  const copied = await new Deno.Command("cp", {
    args: ["-a", w.env.BASECRADLE_CONFIG_HOME, pristine],
  }).output();
  assert.equal(copied.code, 0);

  await t.step("a healthy box: every door is green", async () => {
    const doors = await knock(w, pristine, () => Promise.resolve());
    for (const [door, result] of Object.entries(doors)) {
      assert.equal(result.code, 0, `${door}: ${result.stdout}${result.stderr}`);
    }
    const row = doctorRows(doors.doctor).find((r) => r.name === "wake-config");
    assert.equal(row?.status, "OK");
  });

  for (const [name, breakIt] of REFUSED) {
    await t.step(`${name}: every door refuses with the wake's sentence`, async () => {
      const doors = await knock(w, pristine, breakIt);
      assert.equal(doors.wake.code, 1, doors.wake.stderr);
      const sentence = wakeSentence(doors.wake);

      assert.equal(doors.install.code, 1, doors.install.stderr);
      assert.ok(
        doors.install.stderr.includes(
          `harness install: a wake would refuse this config home: ${sentence}\n`,
        ),
        doors.install.stderr,
      );
      assert.match(doors.install.stdout, /^Config home: /, "the summary of what it wrote");

      assert.equal(doors.verify.code, 1, doors.verify.stderr);
      const findings: { check: string; detail: string }[] = JSON.parse(doors.verify.stdout)
        .findings;
      assert.deepEqual(
        findings.map((f) => [f.check, f.detail]),
        [["wake-would-refuse", sentence]],
      );

      assert.equal(doors.doctor.code, 1, doors.doctor.stdout);
      const failed = doctorRows(doors.doctor).filter((r) => r.status === "FAIL");
      assert.deepEqual(failed.find((r) => r.name === "wake-config"), {
        name: "wake-config",
        status: "FAIL",
        detail: sentence,
        fix: "fix what the sentence names; every wake refuses with this sentence until then",
      });
      // A host_rules.json that does not load also fails its own row (same sentence), and the
      // network checks it would fence are not run; no other file fails anything else.
      const others = failed.filter((r) => r.name !== "wake-config");
      if (name.startsWith("host_rules.json")) {
        assert.deepEqual(others.find((r) => r.name === "host-rules")?.detail, sentence);
        for (const row of others.filter((r) => r.name !== "host-rules")) {
          assert.match(row.detail, /^not checked: host_rules\.json does not load/, row.name);
        }
      } else {
        assert.deepEqual(others, []);
      }
    });
  }

  for (const [name, breakIt] of TOLERATED) {
    await t.step(`${name}: every door stays green`, async () => {
      const doors = await knock(w, pristine, breakIt);
      for (const [door, result] of Object.entries(doors)) {
        assert.equal(result.code, 0, `${door}: ${result.stdout}${result.stderr}`);
      }
    });
  }
});

Deno.test("install, verify and doctor judge the agent's settings: agent.env fills in what the shell lacks", async () => {
  await using w = await world();
  w.model.always("model", { json: { id: "scripted", object: "model", created: 1, owned_by: "t" } });
  const dir = w.env.BASECRADLE_CONFIG_HOME;
  const installed = await runCli(["install"], { env: w.env });
  assert.equal(installed.code, 0, installed.stderr);
  await Deno.writeTextFile(`${dir}/escalation.json`, '{"enabled": true}');
  // The operator's shell has no NTFY_DM_TOKEN; the agent's file does, as the router reads it.
  await Deno.writeTextFile(`${dir}/agent.env`, "export NTFY_DM_TOKEN='tk_live_0123456789'\n");
  const [install, verify, doctor] = await Promise.all([
    runCli(["install"], { env: w.env }),
    runCli(["verify", "--no-evidence"], { env: w.env }),
    runCli(["doctor", "--json"], { env: w.env }),
  ]);
  assert.equal(install.code, 0, install.stderr);
  assert.equal(verify.code, 0, verify.stderr);
  assert.equal(doctor.code, 0, doctor.stdout);

  // Without it in either place, all three refuse, naming the variable.
  await Deno.writeTextFile(`${dir}/agent.env`, "# NTFY_DM_TOKEN=\n");
  const refused = await runCli(["install"], { env: w.env });
  assert.equal(refused.code, 1);
  assert.match(
    refused.stderr,
    /escalation\.json key 'enabled' is true but NTFY_DM_TOKEN is not set/,
  );
});
