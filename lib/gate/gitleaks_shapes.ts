/**
 * The vendor credential shapes beyond the secretlint preset (docs/security.md#where-the-shapes-come-from),
 * taken from gitleaks' default rule set, version 8.30.1 (`config/gitleaks.toml`, MIT): every rule
 * of it whose pattern is anchored on a fixed vendor prefix or structure and that neither the preset
 * nor the journal's own shapes already cover, rewritten as JavaScript expressions. gitleaks' Go
 * syntax (`(?i)` mid-pattern, `[[:alnum:]]`, its trailing `(?:[\x60'"\s;]|\\[nr]|$)`) becomes
 * explicit character classes and look-arounds, and each rule keeps gitleaks' entropy floor, so a
 * placeholder of one repeated letter (`glpat-xxxxxxxxxxxxxxxxxxxx`) is an example, not a key.
 *
 * Left out, on purpose: gitleaks' keyword-context rules (a key counts only beside its vendor's
 * name), the half of the set whose values are plain hex or alphanumerics that ordinary text
 * takes, since a gate that over-refuses silences the agent — except the few whose values carry a
 * vendor mark of their own (Mailgun's `key-`, Mailchimp's `-us<n>`, New Relic's `NRAK-`,
 * Telegram's `<bot id>:A…`, Typeform's `tfp_`, Yandex's `AQVN`), which are taken anywhere; the rules whose shape a hash or a number takes on its own (a
 * bare 40-hex Sourcegraph token is a SHA-1, Facebook's `<digits>|<token>` is a URL-encoded
 * pair, Vault's legacy `s.` tokens are any 24 letters); and the file-shaped ones (PKCS#12, a
 * Kubernetes Secret manifest, a NuGet config) a post is not.
 *
 * gitleaks has no rule for Azure's connection strings; that shape follows the Azure storage-key
 * rule of Yelp's detect-secrets 1.5.0 (Apache-2.0), widened to the `SharedAccessKey` of Service
 * Bus, Event Hubs and IoT Hub strings.
 */
import type { Shape } from "./shape_table.ts";

/** Shannon entropy of `text`, in bits per character (gitleaks' measure). */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** One rule: its shape, and the entropy floor gitleaks gives it (none: the shape is proof). */
interface Rule {
  readonly name: string;
  readonly pattern: RegExp;
  readonly secret?: number;
  readonly entropy?: number;
}

// The look-arounds every rule opens and closes with: a key does not start or end inside a word.
const B = "(?<![A-Za-z0-9_])";
const E = "(?![A-Za-z0-9_])";

function rx(source: string, flags = "g"): RegExp {
  return new RegExp(source, flags);
}

const RULES: readonly Rule[] = [
  {
    name: "a 1Password secret key",
    pattern: rx(
      `${B}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${E}`,
    ),
    entropy: 3.8,
  },
  { name: "an Adobe client secret", pattern: rx(`${B}p8e-[A-Za-z0-9]{32}${E}`), entropy: 2 },
  {
    name: "an age secret key",
    pattern: rx(`${B}AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${E}`),
  },
  { name: "an Airtable access token", pattern: rx(`${B}pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}${E}`) },
  {
    name: "an Alibaba Cloud access key id",
    pattern: rx(`${B}LTAI[A-Za-z0-9]{20}${E}`),
    entropy: 2,
  },
  {
    name: "a JFrog Artifactory key",
    pattern: rx(`${B}(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})${E}`),
    entropy: 4.5,
  },
  {
    name: "an Amazon Bedrock API key",
    pattern: rx(`${B}ABSK[A-Za-z0-9+/]{109,269}={0,2}(?![A-Za-z0-9+/=])`),
    entropy: 3,
  },
  {
    name: "an Azure AD client secret",
    pattern: rx(
      `(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
    ),
    entropy: 3,
  },
  {
    name: "an Azure connection string key",
    pattern: rx(
      `(?<![A-Za-z])(?:AccountKey|SharedAccessKey|SharedSecretValue)\\s*=\\s*([A-Za-z0-9+/]{20,100}={0,3})(?![A-Za-z0-9+/=])`,
      "gi",
    ),
    secret: 1,
    entropy: 3,
  },
  {
    name: "a ClickHouse Cloud secret key",
    pattern: rx(`${B}4b1d[A-Za-z0-9]{38}${E}`),
    entropy: 3,
  },
  { name: "a Clojars token", pattern: rx(`${B}CLOJARS_[A-Za-z0-9]{60}${E}`, "gi"), entropy: 2 },
  {
    name: "a Cloudflare Origin CA key",
    pattern: rx(`${B}v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}${E}`),
    entropy: 2,
  },
  { name: "a DigitalOcean token", pattern: rx(`${B}do[opr]_v1_[a-f0-9]{64}${E}`), entropy: 3 },
  { name: "a Doppler token", pattern: rx(`${B}dp\\.pt\\.[A-Za-z0-9]{43}${E}`), entropy: 2 },
  {
    name: "a Duffel token",
    pattern: rx(`${B}duffel_(?:test|live)_[A-Za-z0-9_=-]{43}(?![A-Za-z0-9_=-])`),
    entropy: 2,
  },
  {
    name: "a Dynatrace token",
    pattern: rx(`${B}dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${E}`),
    entropy: 4,
  },
  { name: "an EasyPost key", pattern: rx(`${B}EZ[AT]K[A-Za-z0-9]{54}${E}`), entropy: 2 },
  { name: "a Facebook access token", pattern: rx(`${B}EAA[MC][A-Za-z0-9]{100,}${E}`), entropy: 4 },
  {
    name: "a Flutterwave key",
    pattern: rx(
      `${B}FLW(?:SECK|PUBK)_TEST-[a-hA-H0-9]{32}-X${E}|${B}FLWSECK_TEST-[a-hA-H0-9]{12}${E}`,
    ),
    entropy: 2,
  },
  {
    name: "a Fly.io token",
    pattern: rx(
      `${B}(?:fo1_[\\w-]{43}(?![\\w-])|fm1[ar]_[A-Za-z0-9+/]{100,}={0,3}(?![A-Za-z0-9+/=])|fm2_[A-Za-z0-9+/]{100,}={0,3}(?![A-Za-z0-9+/=]))`,
    ),
    entropy: 4,
  },
  { name: "a Frame.io token", pattern: rx(`${B}fio-u-[A-Za-z0-9_=-]{64}(?![A-Za-z0-9_=-])`) },
  {
    name: "a GitLab token",
    pattern: rx(
      `${B}(?:glcbt-[0-9A-Za-z]{1,5}_[0-9A-Za-z_-]{20}|gldt-[0-9A-Za-z_-]{20}|glffct-[0-9A-Za-z_-]{20}|glft-[0-9A-Za-z_-]{20}|glimt-[0-9A-Za-z_-]{25}|glagent-[0-9A-Za-z_-]{50}|gloas-[0-9A-Za-z_-]{64}|glptt-[0-9a-f]{40}|glrt-[0-9A-Za-z_-]{20,300}|glsoat-[0-9A-Za-z_-]{20}|GR1348941[\\w-]{20})`,
    ),
    entropy: 3,
  },
  {
    name: "a GitLab session cookie",
    pattern: rx(`_gitlab_session=([0-9a-z]{32})${E}`),
    secret: 1,
    entropy: 3,
  },
  {
    name: "a Grafana token",
    pattern: rx(`${B}eyJrIjoi[A-Za-z0-9]{70,400}={0,3}(?![A-Za-z0-9=])`),
    entropy: 3,
  },
  {
    name: "a Harness access token",
    pattern: rx(`${B}(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}${E}`),
  },
  {
    name: "a Terraform Cloud token",
    pattern: rx(`${B}[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])`),
    entropy: 3.5,
  },
  { name: "a Heroku API key", pattern: rx(`${B}HRKU-AA[0-9A-Za-z_-]{58}(?![\\w-])`), entropy: 4 },
  { name: "an Infracost token", pattern: rx(`${B}ico-[A-Za-z0-9]{32}${E}`), entropy: 3 },
  {
    name: "a 42 Intra client secret",
    pattern: rx(`${B}s-s4t2(?:ud|af)-[a-fA-F0-9]{64}${E}`),
    entropy: 3,
  },
  {
    name: "a MaxMind license key",
    pattern: rx(`${B}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${E}`),
    entropy: 4,
  },
  {
    name: "a Microsoft Teams webhook URL",
    pattern: rx(
      "https://[a-z0-9]+\\.webhook\\.office\\.com/webhookb2/[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}@[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9]{8}-(?:[a-z0-9]{4}-){3}[a-z0-9]{12}",
      "gi",
    ),
  },
  { name: "an Octopus Deploy API key", pattern: rx(`${B}API-[A-Z0-9]{26}${E}`), entropy: 3 },
  { name: "an OpenShift token", pattern: rx(`${B}sha256~[\\w-]{43}(?![\\w-])`), entropy: 3.5 },
  { name: "a Perplexity API key", pattern: rx(`${B}pplx-[A-Za-z0-9]{48}${E}`), entropy: 4 },
  {
    name: "a PlanetScale token",
    pattern: rx(`${B}pscale_(?:tkn|oauth|pw)_[\\w=.-]{32,64}(?![\\w=.-])`),
    entropy: 3,
  },
  {
    name: "a Postman API key",
    pattern: rx(`${B}PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}${E}`),
    entropy: 3,
  },
  { name: "a Prefect API key", pattern: rx(`${B}pnu_[A-Za-z0-9]{36}${E}`), entropy: 2 },
  { name: "a Pulumi token", pattern: rx(`${B}pul-[a-f0-9]{40}${E}`), entropy: 2 },
  {
    name: "a PyPI token",
    pattern: rx(`${B}pypi-AgEIcHlwaS5vcmc[\\w-]{50,1000}(?![\\w-])`),
    entropy: 3,
  },
  { name: "a ReadMe API key", pattern: rx(`${B}rdme_[a-z0-9]{70}${E}`), entropy: 2 },
  { name: "a RubyGems API key", pattern: rx(`${B}rubygems_[a-f0-9]{48}${E}`), entropy: 2 },
  { name: "a Scalingo token", pattern: rx(`${B}tk-us-[\\w-]{48}(?![\\w-])`), entropy: 2 },
  {
    name: "a Brevo API key",
    pattern: rx(`${B}xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}${E}`),
    entropy: 2,
  },
  {
    name: "a Sentry token",
    pattern: rx(
      `${B}(?:sntrys_eyJ[A-Za-z0-9+/]{30,400}={0,2}_[A-Za-z0-9+/]{43}(?![A-Za-z0-9+/])|sntryu_[a-f0-9]{64}${E})`,
    ),
    entropy: 3.5,
  },
  {
    name: "a SettleMint token",
    pattern: rx(`${B}sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}${E}`),
    entropy: 3,
  },
  {
    name: "a Shippo token",
    pattern: rx(`${B}shippo_(?:live|test)_[a-fA-F0-9]{40}${E}`),
    entropy: 2,
  },
  {
    name: "a Slack token",
    // Configuration and refresh tokens (`xoxe-1-…`); the preset's prefixes do not include them.
    pattern: rx(`${B}xoxe-\\d-[A-Za-z0-9]{100,}${E}`),
    entropy: 2,
  },
  {
    name: "a Slack workflow webhook URL",
    pattern: rx("https://hooks\\.slack\\.com/(?:workflows|triggers)/[A-Za-z0-9+/]{43,56}", "gi"),
  },
  {
    name: "a Sourcegraph token",
    pattern: rx(`${B}sgp_(?:(?:[a-fA-F0-9]{16}|local)_)?[a-fA-F0-9]{40}${E}`),
    entropy: 3,
  },
  {
    name: "a Square access token",
    pattern: rx(`${B}(?:EAAA|sq0atp-)[\\w-]{22,60}(?![\\w-])`),
    entropy: 2,
  },
  { name: "a Twilio API key", pattern: rx(`${B}SK[0-9a-fA-F]{32}${E}`), entropy: 3 },
  // gitleaks counts these only beside their vendor's name; their values carry a vendor mark of
  // their own (a prefix, a fixed suffix), so the gate takes them anywhere.
  { name: "a Mailgun API key", pattern: rx(`${B}key-[a-f0-9]{32}${E}`), entropy: 3 },
  { name: "a Mailchimp API key", pattern: rx(`${B}[a-f0-9]{32}-us\\d{1,2}${E}`), entropy: 3 },
  {
    name: "a New Relic key",
    pattern: rx(`${B}(?:NRAK-[A-Za-z0-9]{27}|NRII-[A-Za-z0-9-]{32}|NRJS-[a-f0-9]{19})${E}`),
    entropy: 3,
  },
  {
    name: "a Telegram bot token",
    pattern: rx(`${B}\\d{5,16}:A[A-Za-z0-9_-]{34}(?![\\w-])`),
    entropy: 3,
  },
  {
    name: "a Typeform token",
    pattern: rx(`${B}tfp_[A-Za-z0-9_.=-]{59}(?![A-Za-z0-9_.=-])`),
    entropy: 3,
  },
  {
    name: "a Yandex Cloud API key",
    pattern: rx(`${B}AQVN[A-Za-z0-9_-]{35,38}(?![\\w-])`),
    entropy: 3,
  },
];

/** The rules as the gate's table takes them: the entropy floor becomes the last look. */
export const GITLEAKS_SHAPES: readonly Shape[] = RULES.map((
  { name, pattern, secret, entropy },
) => ({
  name,
  pattern,
  ...(secret === undefined ? {} : { secret }),
  ...(entropy === undefined
    ? {}
    : { accept: (credential: string) => shannonEntropy(credential) >= entropy }),
}));
