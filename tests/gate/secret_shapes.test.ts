/** The credential shapes the gate refuses, and the prose it must let through. */
import { strict as assert } from "node:assert";
import { findCredentialShape } from "../../lib/gate/mod.ts";

const POSITIVES: Array<[string, string]> = [
  ["my key is sk-proj-Ab3dEf5gH7jK9mN1pQ3r ok", "an OpenAI-style API key"],
  ["sk-or-v1-0123456789abcdef0123", "an OpenRouter API key"],
  ["(xai-Zq8Lm2Np4Rt6Vx8Bz0Cd)", "an xAI API key"],
  ["use bc_uat_abcdefghijklmnopqrstuvwxyzABCDEF", "a BaseCradle API token"],
  ["Authorization: Bearer eyJhbGciOi.x9", "a bearer token"],
  ["GET https://api.test/v1?api_key=Zx81kLmN0pQr&page=2", "a credential in a URL query string"],
  [
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----",
    "a PEM private key",
  ],
  ["cut: -----BEGIN RSA PRIVATE KEY----- MIIEow", "a PEM private key"],
  ["Authorization: Basic dXNlcjpwYXNzd29yZA==", "an Authorization header value"],
  ["aws id AKIAIOSFODNN7EXAMPLE here", "an AWS access key id"],
  ["aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "an AWS secret access key"],
  ["ghp_0123456789abcdefghijABCDEFGHIJ012345", "a GitHub token"],
  ["github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "a GitHub token"],
  ["xoxb-123456789012-abcdefghij", "a Slack token"],
  ["AIzaSyA1234567890abcdefghijklmnopqrstuv", "a Google API key"],
  ["sk_live_0123456789abcdefghij", "a Stripe secret key"],
  ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk", "a JSON Web Token"],
  // A rejected prose match must not hide a real key that starts inside it.
  ["task-sk-Ab3dEf5gH7jK9mN1pQ3r", "an OpenAI-style API key"],
];

const NEGATIVES = [
  "Our task-management and risk-assessment notes are ready.",
  "sk-learning-rate is a hyperparameter",
  "the bearer instrument was signed",
  "Authorization: pending until Friday",
  "see https://example.com/search?key=value&token=abc",
  "-----BEGIN CERTIFICATE----- MIIB",
  "xai-powered tools",
  "A normal message about keys, tokens and passwords in general.",
];

for (const [text, shape] of POSITIVES) {
  Deno.test(`secret shapes: refuses ${shape} (${text.slice(0, 24)}…)`, () => {
    assert.equal(findCredentialShape(text), shape);
  });
}

Deno.test("secret shapes: ordinary prose that resembles a shape passes", () => {
  for (const text of NEGATIVES) assert.equal(findCredentialShape(text), undefined, text);
});

Deno.test("secret shapes: the journal's shared global pattern is not left mid-scan", () => {
  // Two scans in a row must agree: a leaked lastIndex would make the second miss.
  const text = "x sk-proj-Ab3dEf5gH7jK9mN1pQ3r";
  assert.equal(findCredentialShape(text), findCredentialShape(text));
  assert.equal(findCredentialShape(text), "an OpenAI-style API key");
});
