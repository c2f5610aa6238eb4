import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { sha256Hex, sha256HexAsync } from "../../lib/base/sha256.ts";

const reference = (input: string | Uint8Array) => createHash("sha256").update(input).digest("hex");

Deno.test("sha256: the FIPS 180-4 vectors", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(
    sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
  assert.equal(
    sha256Hex("a".repeat(1_000_000)),
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
  );
});

Deno.test("sha256: a string is hashed as its UTF-8 bytes", () => {
  for (const text of ["日本語のテキスト", "emoji 🧪 and \u0000 nul", "\ud800 lone surrogate"]) {
    assert.equal(sha256Hex(text), reference(text));
    assert.equal(sha256Hex(new TextEncoder().encode(text)), reference(text));
  }
});

Deno.test("sha256: equals node:crypto at every length across several block boundaries", () => {
  // Lengths 0..300 cross the 55/56/64-byte padding edges of five blocks; bytes are random.
  for (let length = 0; length <= 300; length++) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    assert.equal(sha256Hex(bytes), reference(bytes), `length ${length}`);
  }
  const large = crypto.getRandomValues(new Uint8Array(65_536));
  assert.equal(sha256Hex(large), reference(large));
});

Deno.test("sha256HexAsync: WebCrypto's digest, the same hex as node:crypto", async () => {
  assert.equal(
    await sha256HexAsync("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  for (const length of [0, 55, 56, 64, 1000, 30_000]) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    assert.equal(await sha256HexAsync(bytes), reference(bytes), `length ${length}`);
  }
  assert.equal(await sha256HexAsync("日本語"), reference("日本語"));
});
