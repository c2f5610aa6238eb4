/**
 * The canonical encoding: sorted keys, no whitespace, JSON's own spelling of strings and numbers,
 * refusal of what JSON cannot spell; and the record hash rule (everything but `record_hash`).
 */
import assert from "node:assert/strict";
import {
  canonicalHash,
  canonicalJson,
  recordHash,
  sha256Hex,
} from "../../../lib/home/records/canonical.ts";

Deno.test("canonical: keys sorted at every level, no whitespace, undefined keys left out", () => {
  const value = { b: [3, { z: 1, a: "x y" }], a: null, c: undefined, "é": true };
  assert.equal(canonicalJson(value), '{"a":null,"b":[3,{"a":"x y","z":1}],"é":true}');
});

Deno.test("canonical: numbers and strings are spelled as JSON spells them", () => {
  assert.equal(
    canonicalJson([1.5, -0, 1e21, 0.1, 'a"\n\u0001']),
    '[1.5,0,1e+21,0.1,"a\\"\\n\\u0001"]',
  );
  assert.equal(canonicalJson(new Date(0)), '"1970-01-01T00:00:00.000Z"');
});

Deno.test("canonical: what JSON cannot spell is refused, naming where", () => {
  assert.throws(() => canonicalJson({ a: [1, NaN] }), /\$\.a\[1\]: NaN/);
  assert.throws(() => canonicalJson({ a: Infinity }), /\$\.a: Infinity/);
  assert.throws(() => canonicalJson([undefined]), /\$\[0\]: a undefined/);
  assert.throws(() => canonicalJson({ n: 1n }), /a bigint/);
});

Deno.test("canonical: key order does not change the hash; content does", () => {
  assert.equal(canonicalHash({ a: 1, b: 2 }), canonicalHash({ b: 2, a: 1 }));
  assert.notEqual(canonicalHash({ a: 1, b: 2 }), canonicalHash({ a: 1, b: 3 }));
});

Deno.test("canonical: sha256 of UTF-8, checked against a known vector", () => {
  // printf '%s' '{"a":1}' | sha256sum
  assert.equal(
    sha256Hex('{"a":1}'),
    "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862",
  );
  assert.equal(sha256Hex("é"), sha256Hex(new Uint8Array([0xc3, 0xa9])));
});

Deno.test("canonical: record_hash covers every key but itself, including unknown ones", () => {
  const base = { seq: 1, prev_hash: "0".repeat(64) };
  assert.equal(recordHash({ ...base, record_hash: "anything" }), canonicalHash(base));
  assert.notEqual(recordHash({ ...base, extra: 1 }), canonicalHash(base));
});
