/**
 * The gate's credential shapes against the maintained rule set they mirror: the secretlint
 * recommended preset (pinned in deno.json), run for real over the same corpus. Every rule the
 * gate mirrors flags at least one sample, and every sample a rule flags the gate refuses and
 * redacts. Then each shape on its own: caught, named, redacted; caught through invisible and
 * fullwidth spellings; and the look-alikes pass.
 */
import { strict as assert } from "node:assert";
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import { findCredentials, findCredentialShape, redactSpans } from "../../lib/gate/mod.ts";
import * as z from "../../lib/base/zod.ts";
import { NEGATIVES, SAMPLES } from "./samples.ts";

const PREFIX = "@secretlint/secretlint-rule-";

/**
 * The preset's rules the gate deliberately does not mirror, and why: a post is not a file.
 * `filter-comments` would let a body switch the scan off with a `secretlint-disable` comment;
 * `gcp` reads key files from disk by path (.p12, .json).
 */
const NOT_MIRRORED = new Set(["filter-comments", "gcp"]);

// The package is a boundary: its rules are checked for the shape this driver relies on.
const RuleShape = z.object({
  meta: z.object({ id: z.string() }),
  create: z.custom<(context: unknown, options: unknown) => unknown>((v) => typeof v === "function"),
});
const Handler = z.object({
  file: z.custom<(source: unknown) => unknown>((v) => typeof v === "function"),
});
const Report = z.object({
  message: z.object({ messageId: z.string() }),
  range: z.array(z.number()).length(2),
});

const RULES = z.array(RuleShape).parse(presetRules);

/** What the preset's rules report for `text`: `[rule, start, end]`, in rule order. */
function preset(text: string): Array<[string, number, number]> {
  const found: Array<[string, number, number]> = [];
  for (const rule of RULES) {
    const id = rule.meta.id.replace(PREFIX, "");
    if (NOT_MIRRORED.has(id)) continue;
    // The smallest context a scanner rule uses: a translator that keeps the message id (its
    // text would quote the secret), a report sink, and an ignore that is never honoured.
    const context = {
      sharedOptions: {},
      createTranslator: () => (messageId: string) => ({ message: "", messageId, data: {} }),
      report: (descriptor: unknown) => {
        const { range } = Report.parse(descriptor);
        found.push([id, range[0], range[1]]);
      },
      ignore: () => {},
    };
    const handler = Handler.parse(
      rule.create(context, id === "aws" ? { enableIDScanRule: true } : {}),
    );
    const result = handler.file({
      content: text,
      filePath: undefined,
      ext: "",
      contentType: "text",
    });
    assert.ok(!(result instanceof Promise), `${id} answered asynchronously`);
  }
  return found;
}

Deno.test("rule set: the preset loads, and every rule is mirrored or excluded for a reason", () => {
  const ids = RULES.map((r) => r.meta.id.replace(PREFIX, ""));
  assert.equal(ids.length, 28, `the pinned preset has 28 rules; now: ${ids.join(", ")}`);
  const covered = new Set(SAMPLES.flatMap((s) => (s.rule ? [s.rule] : [])));
  for (const id of ids) {
    assert.ok(
      covered.has(id) !== NOT_MIRRORED.has(id),
      `${id}: mirror it in lib/gate/shape_table.ts with a sample, or say why it is excluded`,
    );
  }
});

for (const sample of SAMPLES) {
  Deno.test(`rule set: ${sample.shape} — ${sample.text.slice(0, 36)}…`, () => {
    const found = findCredentials(sample.text);
    assert.ok(found.length > 0, "the gate must refuse it");
    assert.equal(findCredentialShape(sample.text), sample.shape);
    // The redaction removes the whole credential and keeps the prose around it.
    const redacted = redactSpans(sample.text, found.map((f) => [f.start, f.end] as const));
    assert.ok(!redacted.includes(sample.secret), redacted);
    assert.ok(redacted.includes("[redacted]"));
    // The preset agrees where it has a rule, and whatever it flags, the gate covers.
    const flagged = preset(sample.text);
    if (sample.rule) {
      assert.ok(flagged.some(([id]) => id === sample.rule), `${sample.rule} should flag it`);
    }
    for (const [id, start, end] of flagged) {
      assert.ok(
        found.some((f) => f.start < end && start < f.end),
        `${id} flagged ${start}..${end}, which the gate does not cover`,
      );
    }
  });
}

Deno.test("rule set: look-alikes pass (prose, credential-free URLs, placeholders, ids, hashes)", () => {
  for (const text of NEGATIVES) {
    assert.deepEqual(findCredentials(text), [], text);
  }
});

const ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u202e"];

/** Fullwidth ASCII (U+FF01…U+FF5E) for every printable character that has one. */
function fullwidth(text: string): string {
  return text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
}

Deno.test("rule set: a credential split by an invisible character is still refused", () => {
  let cases = 0;
  for (const sample of SAMPLES) {
    for (const mark of ZERO_WIDTH) {
      // Inside the credential, a third of the way in: the literal scan no longer sees the shape.
      const cut = Math.max(5, Math.floor(sample.secret.length / 3));
      const spelled = sample.secret.slice(0, cut) + mark + sample.secret.slice(cut);
      const text = sample.text.replace(sample.secret, spelled);
      const found = findCredentials(text);
      assert.ok(found.length > 0, `${sample.shape} with U+${mark.charCodeAt(0).toString(16)}`);
      const redacted = redactSpans(text, found.map((f) => [f.start, f.end] as const));
      assert.ok(!redacted.includes(sample.secret.slice(cut)), redacted);
      cases++;
    }
  }
  assert.equal(cases, SAMPLES.length * ZERO_WIDTH.length);
});

Deno.test("rule set: a credential in fullwidth letters is still refused", () => {
  for (const sample of SAMPLES) {
    const text = sample.text.replace(sample.secret, fullwidth(sample.secret));
    assert.ok(findCredentials(text).length > 0, `${sample.shape} in fullwidth`);
  }
});

Deno.test("rule set: every finding is a span of the body, never text", () => {
  const body = `a ${SAMPLES[12].secret} b ${SAMPLES[23].secret} c`;
  const found = findCredentials(body);
  assert.ok(found.length >= 2);
  for (const f of found) {
    assert.deepEqual(Object.keys(f).sort(), ["end", "shape", "start"]);
    assert.ok(!f.shape.includes(SAMPLES[12].secret) && !f.shape.includes(SAMPLES[23].secret));
  }
  assert.equal(
    redactSpans(body, found.map((f) => [f.start, f.end] as const)),
    "a [redacted] b [redacted] c",
  );
});
