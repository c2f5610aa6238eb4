/**
 * The shapes the gate takes from gitleaks 8.30.1 beyond the secretlint preset
 * (lib/gate/gitleaks_shapes.ts): one sample per rule in the vendor's real format (synthetic values,
 * random-looking as real key material is), each refused, named and redacted, also when split by
 * an invisible character or written in fullwidth letters; and the look-alikes — prose, uuids,
 * hashes, placeholders, base64 — pass. Every sample here passed the gate before these shapes.
 */
import { strict as assert } from "node:assert";
import { findCredentials, findCredentialShape, redactSpans } from "../../lib/gate/mod.ts";
import { GITLEAKS_SHAPES, shannonEntropy } from "../../lib/gate/gitleaks_shapes.ts";
import { fake } from "./samples.ts";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz0123456789";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const HEX = "0123456789abcdef";
const B64 = ALNUM + "+/";
const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";

interface Sample {
  readonly shape: string;
  readonly before: string;
  readonly secret: string;
  readonly after: string;
}

let seed = 100;
const f = (n: number, alphabet = ALNUM) => fake(n, alphabet, seed++);
const s = (shape: string, before: string, secret: string, after = ""): Sample => ({
  shape,
  before,
  secret,
  after,
});

/** One sample per shape; the first fifteen are the formats named when the gap was found. */
const SAMPLES: readonly Sample[] = [
  s("a Slack token", "refresh with ", `xoxe-1-${f(146)}`),
  s("a Stripe secret key", "", `rk_prod_${f(24)}`, " is restricted"),
  s("a GitLab token", "deploy token ", `gldt-${f(20)}`),
  s("a GitLab token", "runner: ", `glrt-${f(20)}`),
  s("a GitLab token", "trigger ", `glptt-${f(40, HEX)}`),
  s(
    "an Azure connection string key",
    "DefaultEndpointsProtocol=https;AccountName=fleetstore;AccountKey=",
    `${f(86, B64)}==`,
    ";EndpointSuffix=core.windows.net",
  ),
  s(
    "an Azure connection string key",
    "Endpoint=sb://fleet.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=",
    `${f(43, B64)}=`,
  ),
  s("a Twilio API key", "twilio ", `SK${f(32, HEX)}`),
  s("a Mailgun API key", "MAILGUN_KEY=", `key-${f(32, HEX)}`),
  s("a Mailchimp API key", "", `${f(32, HEX)}-us14`, " (marketing)"),
  s("a PyPI token", "password = ", `pypi-AgEIcHlwaS5vcmc${f(120, ALNUM + "-_")}`),
  s("a DigitalOcean token", "", `dop_v1_${f(64, HEX)}`),
  s("a Square access token", "square: ", `sq0atp-${f(22, ALNUM + "-_")}`),
  s("a Sentry token", "SENTRY_AUTH_TOKEN=", `sntryu_${f(64, HEX)}`),
  s("a Postman API key", "", `PMAK-${f(24, HEX)}-${f(34, HEX)}`),
  s("a Telegram bot token", "bot ", `7312345678:AA${f(33, ALNUM + "_-")}`),
  // The rest of the set, one each.
  s(
    "a 1Password secret key",
    "",
    `A3-${f(6, UPPER)}-${f(11, UPPER)}-${f(5, UPPER)}-${f(5, UPPER)}-${f(5, UPPER)}`,
  ),
  s("an Adobe client secret", "", `p8e-${f(32)}`),
  s("an age secret key", "", `AGE-SECRET-KEY-1${f(58, BECH32)}`),
  s("an Airtable access token", "", `pat${f(14)}.${f(64, HEX)}`),
  s("an Alibaba Cloud access key id", "", `LTAI${f(20)}`),
  s("a JFrog Artifactory key", "", `AKCp${f(69)}`),
  s("an Amazon Bedrock API key", "", `ABSK${f(140, B64)}=`),
  s("an Azure AD client secret", "secret: ", `${f(3)}8Q~${f(34)}`),
  s("a ClickHouse Cloud secret key", "", `4b1d${f(38)}`),
  s("a Clojars token", "", `CLOJARS_${f(60, LOWER)}`),
  s("a Cloudflare Origin CA key", "", `v1.0-${f(24, HEX)}-${f(146, HEX)}`),
  s("a Doppler token", "", `dp.pt.${f(43)}`),
  s("a Duffel token", "", `duffel_live_${f(43)}`),
  s("a Dynatrace token", "", `dt0c01.${f(24, UPPER)}.${f(64)}`),
  s("an EasyPost key", "", `EZAK${f(54)}`),
  s("a Facebook access token", "", `EAAC${f(120)}`),
  s("a Flutterwave key", "", `FLWSECK_TEST-${f(32, "abcdefgh0123456789")}-X`),
  s("a Fly.io token", "", `fo1_${f(43)}`),
  s("a Frame.io token", "", `fio-u-${f(64)}`),
  s("a GitLab session cookie", "Cookie: _gitlab_session=", f(32, LOWER)),
  s("a Grafana token", "", `eyJrIjoi${f(80)}`),
  s("a Harness access token", "", `pat.${f(22)}.${f(24)}.${f(20)}`),
  s("a Terraform Cloud token", "", `${f(14, LOWER)}.atlasv1.${f(64, LOWER)}`),
  s("a Heroku API key", "", `HRKU-AA${f(58)}`),
  s("an Infracost token", "", `ico-${f(32)}`),
  s("a 42 Intra client secret", "", `s-s4t2ud-${f(64, HEX)}`),
  s("a MaxMind license key", "", `${f(6)}_${f(29)}_mmk`),
  s(
    "a Microsoft Teams webhook URL",
    "post to ",
    `https://fleet.webhook.office.com/webhookb2/${uuidish()}@${uuidish()}/IncomingWebhook/${
      f(32, LOWER)
    }/${uuidish()}`,
  ),
  s("an Octopus Deploy API key", "", `API-${f(26, UPPER)}`),
  s("an OpenShift token", "", `sha256~${f(43)}`),
  s("a Perplexity API key", "", `pplx-${f(48)}`),
  s("a PlanetScale token", "", `pscale_tkn_${f(43)}`),
  s("a Prefect API key", "", `pnu_${f(36)}`),
  s("a Pulumi token", "", `pul-${f(40, HEX)}`),
  s("a ReadMe API key", "", `rdme_${f(70, LOWER)}`),
  s("a RubyGems API key", "", `rubygems_${f(48, HEX)}`),
  s("a Scalingo token", "", `tk-us-${f(48)}`),
  s("a Brevo API key", "", `xkeysib-${f(64, HEX)}-${f(16)}`),
  s("a SettleMint token", "", `sm_pat_${f(16)}`),
  s("a Shippo token", "", `shippo_live_${f(40, HEX)}`),
  s("a Slack workflow webhook URL", "", `https://hooks.slack.com/workflows/${f(48)}`),
  s("a Sourcegraph token", "", `sgp_${f(16, HEX)}_${f(40, HEX)}`),
  s("a New Relic key", "", `NRAK-${f(27, UPPER)}`),
  s("a Typeform token", "", `tfp_${f(59)}`),
  s("a Yandex Cloud API key", "", `AQVN${f(36)}`),
];

function uuidish(): string {
  return `${f(8, HEX)}-${f(4, HEX)}-${f(4, HEX)}-${f(4, HEX)}-${f(12, HEX)}`;
}

const text = (sample: Sample) => `${sample.before}${sample.secret}${sample.after}`;

Deno.test("gitleaks shapes: every shape has a sample, and there are at least fifteen new formats", () => {
  const named = new Set(SAMPLES.map((sample) => sample.shape));
  for (const shape of GITLEAKS_SHAPES) {
    assert.ok(named.has(shape.name) || shape.name === "a Slack token", shape.name);
  }
  assert.ok(new Set(SAMPLES.map((sample) => sample.shape)).size >= 15);
});

for (const sample of SAMPLES) {
  Deno.test(`gitleaks shapes: ${sample.shape} — ${sample.secret.slice(0, 24)}…`, () => {
    const body = text(sample);
    const found = findCredentials(body);
    assert.ok(found.length > 0, "the gate must refuse it");
    assert.equal(findCredentialShape(body), sample.shape);
    const redacted = redactSpans(body, found.map((x) => [x.start, x.end] as const));
    assert.ok(!redacted.includes(sample.secret), redacted);
    assert.ok(redacted.includes("[redacted]"));
    // The credential is named, never quoted.
    for (const x of found) assert.ok(!x.shape.includes(sample.secret.slice(4, 16)));
  });
}

Deno.test("gitleaks shapes: a credential split by a zero-width space or in fullwidth letters is refused", () => {
  for (const sample of SAMPLES) {
    const cut = Math.max(5, Math.floor(sample.secret.length / 3));
    const split = sample.secret.slice(0, cut) + "\u200b" + sample.secret.slice(cut);
    assert.ok(findCredentials(text(sample).replace(sample.secret, split)).length > 0, sample.shape);
    const wide = sample.secret.replace(
      /[!-~]/g,
      (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0),
    );
    assert.ok(findCredentials(text(sample).replace(sample.secret, wide)).length > 0, sample.shape);
  }
});

/** Text that merely resembles a key: it must pass. */
const NEGATIVES: readonly string[] = [
  // Prose that names the formats.
  "GitLab deploy tokens start with gldt- and runner tokens with glrt-.",
  "Put the AccountKey= part of the connection string in the vault, not here.",
  "SharedAccessKey=<your key> goes in the settings file.",
  "AccountKey=YOUR_ACCOUNT_KEY_HERE;",
  "Twilio API keys begin with SK and Mailgun keys with key-.",
  "the key-value store and the key-frame animation",
  "Use the tk-us- prefix for the US region.",
  "pnu_ tokens belong to Prefect; pul- tokens to Pulumi.",
  "placeholders: gldt-xxxxxxxxxxxxxxxxxxxx and glrt-XXXXXXXXXXXXXXXXXXXX",
  "SKAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA is a made-up example",
  "meeting at 10:30, room API-B, ticket JIRA-1234",
  "the sha256~ prefix marks OpenShift tokens",
  // Identifiers, hashes and encodings.
  "0195f0e0-0000-7000-8000-000000000001",
  "550e8400-e29b-41d4-a716-446655440000",
  "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 on main",
  "md5 d41d8cd98f00b204e9800998ecf8427e",
  "sha1 da39a3ee5e6b4b0d3255bfef95601890afd80709",
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "call +1 555 0100 at 12345:Available",
  "https://hooks.slack.com/workflows is where workflow triggers live",
];

Deno.test("gitleaks shapes: look-alikes pass (prose, placeholders, ids, hashes, base64)", () => {
  for (const body of NEGATIVES) assert.deepEqual(findCredentials(body), [], body);
});

Deno.test("gitleaks shapes: entropy is gitleaks' Shannon measure", () => {
  assert.equal(shannonEntropy("aaaa"), 0);
  assert.equal(shannonEntropy("ab"), 1);
  assert.equal(shannonEntropy("abcd"), 2);
});
