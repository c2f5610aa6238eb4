import assert from "node:assert/strict";
import { constantTimeEqual, probeAck, signProbe, verifiedProbe } from "../../lib/wake/probe.ts";

Deno.test("a signed marker anywhere in the text verifies and yields its nonce", async () => {
  const marker = await signProbe("s3cret", "n-1");
  assert.equal(await verifiedProbe(`ping ${marker} please`, "s3cret"), "n-1");
  assert.equal(probeAck("n-1"), "BCNOC1-ACK n-1");
});

Deno.test("a forged HMAC, a missing secret or a glued marker is an ordinary item", async () => {
  const marker = await signProbe("s3cret", "n-1");
  assert.equal(await verifiedProbe(marker, "other"), undefined);
  assert.equal(await verifiedProbe(marker, undefined), undefined);
  assert.equal(await verifiedProbe(`X${marker}`, "s3cret"), undefined);
  assert.equal(await verifiedProbe(`${marker}0`, "s3cret"), undefined);
  assert.equal(await verifiedProbe(`BCNOC1 n-1 ${"0".repeat(64)}`, "s3cret"), undefined);
});

Deno.test("the constant-time compare agrees with equality", () => {
  assert.equal(constantTimeEqual("abc", "abc"), true);
  assert.equal(constantTimeEqual("abc", "abd"), false);
  assert.equal(constantTimeEqual("abc", "abcd"), false);
});
