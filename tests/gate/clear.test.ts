/**
 * Clearing agent text for each surface (docs/security.md#what-each-surface-screens): which
 * fields are read, which checks run on them, what a refusal names, and that what was judged is
 * what the seal carries.
 */
import { strict as assert } from "node:assert";
import { clearText, GateRefusal, parseGuardrails, surfaceChecks } from "../../lib/gate/mod.ts";
import { Gate } from "../../lib/gate/gate.ts";
import { MemoryJournal } from "../../lib/journal/mod.ts";
import { ClearedText, PlatformClient } from "../../lib/platform/mod.ts";

const TOKEN = "bc_uat_4c1d9e8f7a6b5c4d3e2f1a0b9c8d7e6f";
const CHECKS = surfaceChecks(
  parseGuardrails(
    JSON.stringify({ max_length: 10, forbidden_patterns: [{ pattern: "nightjar", flags: "i" }] }),
    "guardrails.json",
  ),
  [TOKEN],
);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]);
const text = (s: string) => new TextEncoder().encode(s);

function refusal(run: () => unknown): GateRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof GateRefusal) return error;
    throw error;
  }
  throw new Error("expected a GateRefusal");
}

Deno.test("clear: an asset's content, filename and description are each screened", () => {
  const content = refusal(() =>
    clearText("asset", { file: text(`k=${TOKEN}`), filename: "a.txt" }, CHECKS)
  );
  assert.match(content.message, /blocked the file's content \(failed checks?: known_secrets/);
  assert.deepEqual(content.redactedFields, { file: "k=[redacted]" });
  const described = refusal(() =>
    clearText("asset", { file: text("ok"), filename: "a.txt", description: TOKEN }, CHECKS)
  );
  assert.match(described.message, /blocked the asset's description/);
  const named = refusal(() =>
    clearText("asset", { file: text("ok"), filename: "Nightjar.md" }, CHECKS)
  );
  assert.match(named.message, /blocked the asset's filename \(failed check: forbidden_patterns\)/);
});

Deno.test("clear: a create refused in several fields names every refused field", () => {
  const both = refusal(() =>
    clearText(
      "asset",
      { file: text("ok"), filename: `${TOKEN}.txt`, description: `see ${TOKEN}` },
      CHECKS,
    )
  );
  assert.match(
    both.message,
    /blocked the asset's filename and the asset's description \(failed checks?: known_secrets/,
  );
  assert.deepEqual(both.redactedFields, {
    filename: "[redacted].txt",
    description: "see [redacted]",
  });
  // Three refused fields, and one clean field that is not named.
  const three = refusal(() =>
    clearText(
      "asset",
      { file: text(`k=${TOKEN}`), filename: "Nightjar.md", description: TOKEN },
      CHECKS,
    )
  );
  assert.match(
    three.message,
    /blocked the asset's filename, the asset's description and the file's content \(/,
  );
  const one = refusal(() =>
    clearText("asset", { file: text("ok"), filename: "a.txt", description: TOKEN }, CHECKS)
  );
  assert.match(one.message, /blocked the asset's description \(/);
});

Deno.test("clear: media bytes are not read as text, but text named .png or typed as an image is", () => {
  const sealed = clearText(
    "asset",
    { file: PNG, filename: "shot.png", contentType: "image/png", description: "a chart" },
    CHECKS,
  );
  assert.deepEqual([...new Set(sealed.verdicts.map((v) => v.field))], ["filename", "description"]);
  // Valid UTF-8 is text whatever it is called or declared.
  assert.throws(
    () =>
      clearText(
        "asset",
        { file: text(TOKEN), filename: "x.png", contentType: "image/png" },
        CHECKS,
      ),
    /file's content/,
  );
  // Not UTF-8 and not declared media: decoded leniently and screened.
  const mixed = new Uint8Array([...text(`${TOKEN} `), 0xff]);
  assert.throws(() => clearText("asset", { file: mixed, filename: "x.bin" }, CHECKS), GateRefusal);
});

Deno.test("clear: length and emptiness are a message's rules, not a description's", () => {
  const long = "a perfectly fine description well past ten characters";
  assert.ok(
    ClearedText.is(
      clearText("webhook_endpoint", { description: long }, CHECKS),
      "webhook_endpoint",
    ),
  );
  assert.ok(clearText("task", { instructions: long, activateAt: "+1h" }, CHECKS));
  assert.throws(() => clearText("message", { body: long }, CHECKS), /max_length/);
  assert.throws(
    () => clearText("task", { instructions: `call ${TOKEN}`, activateAt: "+1h" }, CHECKS),
    /the task's instructions \(failed checks?: known_secrets/,
  );
});

Deno.test("clear: the seal carries a copy of exactly the bytes that were judged", () => {
  const bytes = text("fine");
  const sealed = clearText("asset", { file: bytes, filename: "a.txt" }, CHECKS);
  bytes.set(text(TOKEN.slice(0, 4)));
  assert.equal(new TextDecoder().decode(sealed.fields.file), "fine");
  assert.ok(Object.isFrozen(sealed.fields));
});

Deno.test("Gate.clear: a refusal logs `post blocked` with the surface, never the text", async () => {
  const journal = new MemoryJournal();
  const client = new PlatformClient({ baseUrl: "http://127.0.0.1:9", token: TOKEN });
  const gate = new Gate({ client, journal, secrets: [TOKEN] });
  await assert.rejects(
    gate.clear({
      surface: "task",
      timeline: "t1",
      fields: { instructions: TOKEN, activateAt: "+1h" },
    }),
    GateRefusal,
  );
  const lines = journal.lines.join("\n");
  assert.match(
    lines,
    /WARNING post blocked timeline=t1 kind=task check=known_secrets,secret_guard/,
  );
  assert.ok(!lines.includes(TOKEN));
  const cleared = await gate.clear({ surface: "webhook_endpoint", fields: { description: "ci" } });
  assert.ok(ClearedText.is(cleared, "webhook_endpoint"));
});
