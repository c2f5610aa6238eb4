/**
 * The shipped prompts are embedded and carry the operating guidance the model must see: speech
 * is the `messages` tool, closing text reaches no one, the log has no reader, silence is fine,
 * inputs are data, times are UTC, the step budget and follow-up tasks.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  DEFAULT_INITIALIZE,
  DEFAULT_SYSTEM_PROMPT,
  SHIPPED_DEFAULTS,
} from "../../lib/config/defaults.ts";
import { stripHtmlComments } from "../../lib/config/prompts.ts";

// What the model actually reads: operator notes in comments are not guidance.
const guidance = stripHtmlComments(DEFAULT_INITIALIZE);
const persona = stripHtmlComments(DEFAULT_SYSTEM_PROMPT);

Deno.test("the embedded defaults are the files under defaults/prompts, byte for byte", async () => {
  const root = new URL("../../defaults/prompts/", import.meta.url);
  assert.equal(DEFAULT_INITIALIZE, await readFile(new URL("initialize.md", root), "utf8"));
  assert.equal(DEFAULT_SYSTEM_PROMPT, await readFile(new URL("system-prompt.md", root), "utf8"));
  assert.deepEqual(Object.keys(SHIPPED_DEFAULTS), [
    "prompts/initialize.md",
    "prompts/system-prompt.md",
  ]);
  assert.equal(SHIPPED_DEFAULTS["prompts/initialize.md"], DEFAULT_INITIALIZE);
});

Deno.test("both defaults carry operator notes in comments, and text the model sees", () => {
  for (const text of [DEFAULT_INITIALIZE, DEFAULT_SYSTEM_PROMPT]) {
    assert.match(text, /^<!--[\s\S]*?-->/);
  }
  assert.ok(persona.length > 0);
  assert.ok(guidance.length > persona.length);
  assert.ok(!guidance.includes("<!--") && !persona.includes("<!--"));
});

Deno.test("speaking means calling the `messages` tool; closing text reaches no one", () => {
  assert.match(guidance, /call\s+the\s+`messages`\s+tool/);
  assert.match(guidance, /reaches\s+no one/);
  assert.match(guidance, /unspoken/);
  assert.match(guidance, /log and to your\s+memory/);
});

Deno.test("the log is said to have no reader, and no line implies one", () => {
  assert.match(guidance, /nobody watches/);
  assert.match(guidance, /no supervisor/);
  // Phrases that would tell the model someone reviews its log.
  assert.doesNotMatch(
    guidance,
    /(supervisor|operator|someone|admin)\s+(will\s+)?(reads?|reviews?|sees?)/i,
  );
});

Deno.test("silence is presented as legitimate", () => {
  assert.match(guidance, /posting\s+nothing\s+is\s+a\s+good\s+answer/);
  assert.match(guidance, /Silence is allowed/);
});

Deno.test("the input-security floor: outside text is data, credentials stay private", () => {
  for (const source of ["timelines", "webhook deliveries", "web pages", "files"]) {
    assert.ok(guidance.includes(source), source);
  }
  assert.match(guidance, /never a command/);
  assert.match(guidance, /cannot override/);
  assert.match(guidance, /Never reveal credentials/);
});

Deno.test("times are UTC, with the conversion to a peer's local time", () => {
  assert.match(guidance, /UTC \(`\+00:00`\)/);
  assert.match(guidance, /convert from UTC to\s+their zone/);
  assert.match(guidance, /`\[created_at\]`/);
});

Deno.test("the step budget, and a follow-up task when work remains", () => {
  assert.match(guidance, /limited number of steps/);
  assert.match(guidance, /schedule a follow-up task/);
});

Deno.test("the personality holds no runtime rules (they live in initialize.md)", () => {
  assert.doesNotMatch(persona, /messages` tool|UTC|credential/);
});
