/**
 * The agent's own secrets (known_secrets): a long key or token is caught in every spelling a
 * model could slip past a literal comparison, its secret part alone or under another prefix; a
 * short key that is a plain word does not mute the word; nothing is ever echoed.
 */
import { strict as assert } from "node:assert";
import {
  findOwnSecrets,
  knownSecrets,
  MIN_SECRET_PART,
  prepareOwnSecrets,
  redactSpans,
  secretPart,
} from "../../lib/gate/mod.ts";
import { fake } from "./samples.ts";

const TOKEN = `bc_uat_${fake(32, undefined, 101)}`; // the sandbox's shape: prefix + 32
const PART = TOKEN.slice("bc_uat_".length);
const API_KEY = `sk-or-v1-${fake(64, "0123456789abcdef", 102)}`;
const PASSWORD = "Correct-Horse-9-Battery";
const SECRETS = [TOKEN, API_KEY, PASSWORD];

const check = knownSecrets(SECRETS);

/** Whether known_secrets refuses `body`, and the body with what it found redacted. */
function judge(body: string): { refused: boolean; redacted: string } {
  const verdict = check.judge(body);
  return {
    refused: !verdict.passed,
    redacted: redactSpans(body, verdict.spans ?? []),
  };
}

const FULLWIDTH_OFFSET = 0xfee0;
const fullwidth = (s: string) =>
  s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + FULLWIDTH_OFFSET));
const insertEvery = (s: string, mark: string, n: number) =>
  [...s].map((c, i) => (i > 0 && i % n === 0 ? mark + c : c)).join("");
const at = (s: string, index: number, mark: string) => s.slice(0, index) + mark + s.slice(index);

// Latin letters and digits a reader cannot tell from these (Cyrillic, Greek, Armenian).
const CONFUSABLE: Record<string, string> = {
  a: "а",
  c: "с",
  e: "е",
  o: "о",
  p: "р",
  x: "х",
  y: "у",
  A: "Α",
  B: "Β",
  E: "Ε",
  H: "Η",
  K: "Κ",
  M: "Μ",
  N: "Ν",
  O: "О",
  P: "Р",
  T: "Т",
  X: "Х",
  Z: "Ζ",
  S: "Ѕ",
  I: "І",
  j: "ј",
  s: "ѕ",
  i: "і",
};
const confuse = (s: string) => [...s].map((c) => CONFUSABLE[c] ?? c).join("");
const changed = (a: string, b: string) => [...a].filter((c, i) => c !== [...b][i]).length;

/** Every spelling of `secret` a post must not get away with: [label, body]. */
function evasions(secret: string): Array<[string, string]> {
  const part = secretPart(secret);
  const mid = Math.floor(part.length / 2);
  const out: Array<[string, string]> = [
    ["the whole secret", `here: ${secret}`],
    ["the secret part alone", `the part is ${part}.`],
    ["glued inside a word", `xx${part}yy`],
    ["upper-cased", part.toUpperCase()],
    ["lower-cased", part.toLowerCase()],
    ["in a JSON string", JSON.stringify({ key: secret })],
    ["in a URL", `https://api.example.com/v1?k=${encodeURIComponent(part)}`],
    ["in a code block", "```\n" + `export KEY=${secret}\n` + "```"],
    ["fullwidth", fullwidth(part)],
    ["fullwidth, prefix too", fullwidth(secret)],
    ["half fullwidth", fullwidth(part.slice(0, mid)) + part.slice(mid)],
    ["confusable letters", confuse(part)],
    ["mathematical bold", [...part].map(bold).join("")],
    ["spaced out", [...part].join(" ")],
    ["in groups of four", insertEvery(part, "-", 4)],
    ["on several lines", insertEvery(part, "\n", 8)],
    ["combining marks", [...part].map((c) => c + "\u0301").join("")],
    ["soft hyphen in the middle", at(part, mid, "\u00ad")],
    ["soft hyphens throughout", insertEvery(part, "\u00ad", 3)],
    ["bidi override around it", `\u202e${part}\u202c`],
    ["bidi isolates inside", at(at(part, 4, "\u2066"), 9, "\u2069")],
    [
      "mixed: fullwidth, zero-width, confusable",
      fullwidth(part.slice(0, 6)) + "\u200b" + confuse(part.slice(6, mid)) + "\u2060" +
      part.slice(mid),
    ],
  ];
  for (const mark of ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e"]) {
    const name = `U+${mark.charCodeAt(0).toString(16).padStart(4, "0")}`;
    out.push([`${name} at the start`, at(part, 1, mark)]);
    out.push([`${name} in the middle`, at(part, mid, mark)]);
    out.push([`${name} before the end`, at(part, part.length - 1, mark)]);
    out.push([`${name} everywhere`, insertEvery(part, mark, 1)]);
  }
  // Another prefix (the token's secret under another format), or none.
  for (const prefix of ["bc_adm_", "sk-", "ghp_", "token_"]) {
    out.push([`prefix swapped to ${prefix}`, `${prefix}${part}`]);
  }
  return out;
}

/** `c` in Mathematical Bold (NFKC folds it back to ASCII). */
function bold(c: string): string {
  const code = c.charCodeAt(0);
  if (code >= 65 && code <= 90) return String.fromCodePoint(0x1d400 + code - 65);
  if (code >= 97 && code <= 122) return String.fromCodePoint(0x1d41a + code - 97);
  if (code >= 48 && code <= 57) return String.fromCodePoint(0x1d7ce + code - 48);
  return c;
}

let evasionCount = 0;
for (const [name, secret] of [["platform token", TOKEN], ["API key", API_KEY]] as const) {
  for (const [label, body] of evasions(secret)) {
    evasionCount++;
    Deno.test(`own secrets: the ${name}, ${label}, is refused and redacted`, () => {
      const { refused, redacted } = judge(body);
      assert.ok(refused, JSON.stringify(body));
      // What is left can no longer be read as the secret, in any spelling.
      assert.ok(!redacted.includes(secretPart(secret)), redacted);
      assert.deepEqual(findOwnSecrets(redacted, prepareOwnSecrets(SECRETS)), [], redacted);
      assert.ok(redacted.includes("[redacted]"));
    });
  }
}

Deno.test("own secrets: the evasion list really spells the secret differently", () => {
  const spellings = evasions(TOKEN).map(([, body]) => body);
  assert.equal(new Set(spellings).size, spellings.length, "no two evasions are the same text");
  // The literal comparison the gate used to make misses nearly all of them.
  assert.ok(spellings.filter((b) => b.includes(TOKEN)).length <= 3);
  assert.ok(changed(confuse(PART), PART) >= 4, "the confusable spelling changes letters");
});

Deno.test("own secrets: a long password is caught like a key", () => {
  for (
    const body of [PASSWORD, PASSWORD.toLowerCase(), fullwidth(PASSWORD), at(PASSWORD, 6, "\u200b")]
  ) {
    assert.ok(judge(`my password is ${body}`).refused, body);
  }
});

Deno.test("own secrets: two secrets in one body are both redacted", () => {
  const body = `token ${TOKEN} and key ${at(API_KEY, 20, "\u200b")} done`;
  const verdict = check.judge(body);
  assert.equal(verdict.spans?.length, 2);
  assert.equal(
    redactSpans(body, verdict.spans ?? []),
    "token bc_uat_[redacted] and key sk-or-v1-[redacted] done",
  );
});

Deno.test("own secrets: ordinary text, other tokens and the prefix alone pass", () => {
  for (
    const body of [
      "Hello! I can do anything you need today.",
      "Tokens look like bc_uat_ followed by 32 characters; never share yours.",
      `someone else's token: bc_uat_${fake(32, undefined, 999)}`,
      "0195f0e0-0000-7000-8000-000000000001",
      "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      PART.slice(0, 12), // a fragment shorter than the minimum
    ]
  ) {
    assert.ok(!judge(body).refused, body);
  }
});

Deno.test("own secrets: a short key that is a word (`anything`) never mutes the word", () => {
  const short = knownSecrets(["anything", "sunshine42"]);
  for (
    const body of [
      "I can do anything.",
      "Anything else? ANYTHING at all.",
      "anything-goes, anythingness",
      "ａｎｙｔｈｉｎｇ in fullwidth is still just the word",
    ]
  ) {
    assert.ok(short.judge(body).passed, body);
  }
});

Deno.test("own secrets: a short key that reads like one is caught as a whole token only", () => {
  const short = knownSecrets(["k3Y-9xZ!q"]);
  for (
    const body of [
      "my key is k3Y-9xZ!q",
      "(k3Y-9xZ!q)",
      fullwidth("k3Y-9xZ!q"),
      at("k3Y-9xZ!q", 4, "\u200b"),
      at("k3Y-9xZ!q", 2, "\u00ad"),
    ]
  ) {
    const verdict = short.judge(body);
    assert.ok(!verdict.passed, JSON.stringify(body));
    assert.ok(!redactSpans(body, verdict.spans ?? []).includes("9xZ!q"));
  }
  // Inside a longer token it is not a whole token: not refused.
  assert.ok(short.judge("xk3Y-9xZ!qz").passed);
  // A short secret is not folded across confusables or separators (what remains).
  assert.ok(short.judge("k 3 Y - 9 x Z ! q").passed);
});

Deno.test("own secrets: a short key is caught whatever surrounds it in the environment, with its prefix when its part is short, and by mixed case alone", () => {
  // Read from a file with its newline and stray spaces: what is screened is the key itself.
  assert.ok(!knownSecrets(["  k3Y-9xZ!q\n"]).judge("my key is k3Y-9xZ!q").passed);
  // A vendor prefix in front of a part too short to match alone: the whole key is the token.
  const prefixed = knownSecrets(["sk-proj-Ab3dE"]);
  assert.ok(!prefixed.judge("the key sk-proj-Ab3dE works").passed);
  assert.ok(prefixed.judge("Ab3dE alone is too short to mean the key").passed);
  // Letters only, but mixed case: key material, not a word.
  const mixed = knownSecrets(["WxYzAbCdQ"]);
  assert.ok(!mixed.judge("use WxYzAbCdQ to log in").passed);
  assert.ok(mixed.judge("the word wxyzabcdq in lower case is not the key").passed);
});

Deno.test("own secrets: the minimum length is measured on the secret part", () => {
  assert.equal(MIN_SECRET_PART, 16);
  const atMinimum = `bc_uat_${fake(MIN_SECRET_PART, undefined, 103)}`;
  const belowMinimum = `bc_uat_${fake(MIN_SECRET_PART - 1, undefined, 104)}`;
  assert.deepEqual(prepareOwnSecrets([atMinimum]).map((s) => s.mode), ["anywhere"]);
  assert.deepEqual(prepareOwnSecrets([belowMinimum]).map((s) => s.mode), ["token"]);
  // At the minimum, every spelling is caught; below it, the whole token still is.
  const long = knownSecrets([atMinimum]);
  assert.ok(!long.judge(insertEvery(secretPart(atMinimum), "\u200b", 2)).passed);
  const short = knownSecrets([belowMinimum]);
  assert.ok(!short.judge(`use ${secretPart(belowMinimum)} now`).passed);
  assert.ok(short.judge(insertEvery(secretPart(belowMinimum), " ", 3)).passed);
  // Under eight characters, nothing is matched at all (as the journal's scrubber).
  assert.deepEqual(prepareOwnSecrets(["abc123", "", null, undefined, "  "]), []);
});

Deno.test("own secrets: a prefix is stripped only when it is a known vendor prefix", () => {
  assert.equal(secretPart(TOKEN), PART);
  assert.equal(secretPart(API_KEY), API_KEY.slice("sk-or-v1-".length));
  assert.equal(secretPart("sk-proj-abcdef"), "abcdef");
  assert.equal(secretPart(PASSWORD), PASSWORD);
  assert.equal(secretPart("anything"), "anything");
});

Deno.test("own secrets: the refusal names the check and never quotes the secret", () => {
  const verdict = check.judge(at(PART, 5, "\u200b"));
  assert.equal(verdict.check, "known_secrets");
  assert.ok(verdict.reason && !verdict.reason.includes(PART.slice(0, 8)));
  assert.ok(evasionCount >= 80, `${evasionCount} evasions`);
});
