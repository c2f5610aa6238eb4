import { strictEqual } from "node:assert/strict";
import {
  clearRegisteredSecrets,
  registerSecret,
  renderValue,
  scrubSecrets,
} from "../../lib/journal/mod.ts";

Deno.test("vendor key prefixes: sk-or-, sk-, xai-, bc_xxx_ with 8+ key characters", () => {
  strictEqual(scrubSecrets("key sk-or-v1-abcdef0123456789 end"), "key [redacted] end");
  strictEqual(scrubSecrets("sk-proj_ABCDEFGH"), "[redacted]");
  strictEqual(scrubSecrets("xai-12345678"), "[redacted]");
  strictEqual(scrubSecrets("token bc_uat_0123456789abcdef."), "token [redacted].");
  strictEqual(scrubSecrets("bc_adm_abcdefgh"), "[redacted]");
  // Too short to be a key, or the wrong shape: left alone.
  strictEqual(
    scrubSecrets("sk-1234567 xai-abc bc_UAT_abcdefghij"),
    "sk-1234567 xai-abc bc_UAT_abcdefghij",
  );
  strictEqual(scrubSecrets("task-abcdefghij"), "ta[redacted]");
});

Deno.test("bearer tokens, any case, the word included", () => {
  strictEqual(scrubSecrets("Authorization: Bearer abc.def-ghi"), "Authorization: [redacted]");
  strictEqual(scrubSecrets("BEARER\tabcdefgh/+~"), "[redacted]");
  strictEqual(scrubSecrets("bearer short"), "bearer short");
});

Deno.test("keys in a query string: ?api_key=, &access-token=, ?token=, ?key= (value to & or space)", () => {
  strictEqual(
    scrubSecrets("GET https://x.test/v1?api_key=s3cr3t&page=2 failed"),
    "GET https://x.test/v1[redacted]&page=2 failed",
  );
  strictEqual(scrubSecrets("u?a=1&Access-Token=zz y"), "u?a=1[redacted] y");
  strictEqual(scrubSecrets("u?APIKEY=1"), "u[redacted]");
  strictEqual(scrubSecrets("u?token=abc&key=def"), "u[redacted][redacted]");
  // No leading ? or &: not a query parameter.
  strictEqual(scrubSecrets("api_key=abc"), "api_key=abc");
});

Deno.test("PEM private key blocks, terminated or cut off", () => {
  const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK=\n-----END RSA PRIVATE KEY-----";
  strictEqual(scrubSecrets(`before ${pem} after`), "before [redacted] after");
  strictEqual(scrubSecrets("x -----BEGIN PRIVATE KEY----- MIIEvQ"), "x [redacted]");
  strictEqual(scrubSecrets("-----BEGIN CERTIFICATE----- MIIB"), "-----BEGIN CERTIFICATE----- MIIB");
  // Through the field renderer the newlines are collapsed first; the block still goes.
  strictEqual(renderValue(`err: ${pem}`), '"err: [redacted]"');
});

Deno.test("Authorization header values in other schemes", () => {
  strictEqual(scrubSecrets("Authorization: Basic dXNlcjpwYXNz"), "Authorization: [redacted]");
  strictEqual(
    scrubSecrets('{"authorization": "Token abcdefghij"}'),
    '{"authorization": "[redacted]"}',
  );
  strictEqual(scrubSecrets("authorization=opaque, next"), "authorization=[redacted], next");
});

Deno.test("registered literal secrets are redacted wherever they appear", () => {
  try {
    registerSecret("hunter2-is-my-token");
    registerSecret("short"); // ignored: too short to redact safely
    registerSecret("   ");
    strictEqual(
      scrubSecrets("sent hunter2-is-my-token to xhunter2-is-my-tokenx short"),
      "sent [redacted] to x[redacted]x short",
    );
    // A literal wins over a shape match that would only cover part of it.
    registerSecret("pre.sk-abcdefghijkl");
    strictEqual(scrubSecrets("k=pre.sk-abcdefghijkl"), "k=[redacted]");
  } finally {
    clearRegisteredSecrets();
  }
  strictEqual(scrubSecrets("hunter2-is-my-token"), "hunter2-is-my-token");
});

Deno.test("scrubbing happens in every field value, quoted or not", () => {
  strictEqual(renderValue("sk-or-v1abcdefgh"), "[redacted]");
  strictEqual(renderValue("call failed: Bearer abcdefghij"), '"call failed: [redacted]"');
});
