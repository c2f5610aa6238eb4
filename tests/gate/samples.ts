/**
 * The credential corpus the gate's shape tests share: one realistic (made-up) sample per shape,
 * each tagged with what the gate calls it and, when the secretlint recommended preset has a rule
 * for it, that rule's id; and the prose, URLs and identifiers that must pass.
 */

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * `n` characters of `alphabet`, the same every run (a linear congruential sequence from `seed`):
 * random-looking, as real key material is, but reproducible.
 */
export function fake(n: number, alphabet = ALNUM, seed = 7): string {
  let state = seed >>> 0;
  let out = "";
  for (let i = 0; i < n; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out;
}

/** One credential sample. */
export interface Sample {
  /** A body holding exactly one credential. */
  readonly text: string;
  /** What the gate must call it. */
  readonly shape: string;
  /** The preset rule that flags it too (short id), when one does. */
  readonly rule?: string;
  /** The credential itself, which a redaction must remove. */
  readonly secret: string;
}

function sample(
  before: string,
  secret: string,
  after: string,
  shape: string,
  rule?: string,
): Sample {
  return { text: `${before}${secret}${after}`, shape, rule, secret };
}

const PEM_BODY = `MIIEow${fake(150, ALNUM + "+/", 3)}`;

/** A 1Password service account token: `ops_` + the base64 of its JSON (ending `fQ==`). */
function opsToken(): string {
  let pad = "";
  let json = "";
  do {
    json = JSON.stringify({
      email: "agent@1passwordserviceaccounts.lcl",
      secretKey: `A3-${fake(30, "ABCDEFGHJKLMNPQRSTVWXYZ23456789", 61)}${pad}`,
      srpX: fake(64, HEX, 62),
    });
    pad += "X";
  } while (json.length % 3 !== 1); // a lone final `}` encodes as `fQ==`
  return `ops_${btoa(json)}`;
}

/** One sample per shape, covering every rule of the preset the gate mirrors. */
export const SAMPLES: readonly Sample[] = [
  // The journal's shapes.
  sample("my key is ", `sk-proj-${fake(40, ALNUM, 11)}`, " ok", "an OpenAI-style API key"),
  sample(
    "openai: ",
    `sk-proj-${fake(58, ALNUM, 12)}T3BlbkFJ${fake(58, ALNUM, 13)}`,
    "",
    "an OpenAI-style API key",
    "openai",
  ),
  sample(
    "",
    `sk-ant-api03-${fake(95, ALNUM, 14)}AA`,
    " is the key",
    "an Anthropic API key",
    "anthropic",
  ),
  sample("", `sk-or-v1-${fake(64, HEX, 15)}`, "", "an OpenRouter API key"),
  sample("(", `xai-${fake(40, ALNUM, 16)}`, ")", "an xAI API key"),
  sample("use ", `bc_uat_${fake(32, ALNUM, 17)}`, "", "a BaseCradle API token"),
  sample("Authorization: Bearer ", fake(40, ALNUM, 18), "", "a bearer token"),
  sample(
    "GET https://api.test/v1",
    `?api_key=${fake(24, ALNUM, 19)}`,
    "&page=2",
    "a credential in a URL query string",
  ),
  sample("Authorization: Basic ", "dXNlcjpwYXNzd29yZA==", "", "an Authorization header value"),
  sample(
    "",
    `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
    "",
    "a PEM private key",
    "privatekey",
  ),
  // The table's shapes.
  sample(
    "aws id ",
    `AKIA${fake(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 20)}`,
    " here",
    "an AWS access key id",
    "aws",
  ),
  sample(
    'aws_secret_access_key = "',
    fake(40, ALNUM + "/+", 21),
    '"',
    "an AWS secret access key",
    "aws",
  ),
  sample("", `ghp_${fake(36, ALNUM, 22)}`, "", "a GitHub token", "github"),
  sample("token ", `github_pat_${fake(82, ALNUM + "_", 23)}`, "", "a GitHub token", "github"),
  sample(
    "",
    `ghs_1234567_${fake(20, ALNUM, 24)}.${fake(30, ALNUM, 25)}.${fake(20, ALNUM, 26)}`,
    "",
    "a GitHub token",
    "github",
  ),
  sample(
    "",
    `xoxb-123456789012-1234567890123-${fake(24, ALNUM, 27)}`,
    "",
    "a Slack token",
    "slack",
  ),
  sample(
    "app token ",
    `xapp-1-A0123456789-1234567890123-${fake(32, HEX, 28)}`,
    "",
    "a Slack token",
    "slack",
  ),
  sample(
    "post to ",
    `https://hooks.slack.com/services/T${fake(10, ALNUM, 29)}/B${fake(10, ALNUM, 30)}/${
      fake(24, ALNUM, 31)
    }`,
    " please",
    "a Slack incoming webhook URL",
    "slack",
  ),
  sample(
    "hook: ",
    `https://discord.com/api/webhooks/123456789012345678/${fake(68, ALNUM + "_-", 32)}`,
    "",
    "a Discord webhook URL",
  ),
  sample("", `AIza${fake(35, ALNUM + "_-", 33)}`, "", "a Google API key"),
  sample("", `sk_live_${fake(24, ALNUM, 34)}`, "", "a Stripe secret key", "stripe"),
  sample("restricted ", `rk_test_${fake(30, ALNUM, 35)}`, "", "a Stripe secret key", "stripe"),
  sample(
    "",
    `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.${fake(43, ALNUM + "_-", 36)}`,
    "",
    "a JSON Web Token",
  ),
  sample("publish with ", `npm_${fake(36, ALNUM, 37)}`, "", "an npm access token", "npm"),
  sample(
    "//registry.npmjs.org/:_authToken=",
    "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
    "",
    "an npm auth token",
  ),
  // URL userinfo: every scheme, dotted host or not; the preset sees only some of them.
  sample(
    "clone https://",
    "deploy:Tr0ub4dor3",
    "@git.example.com/repo.git",
    "a password in a URL",
    "basicauth",
  ),
  sample("https://", "admin:s3cret", "@host/", "a password in a URL"),
  sample("http://", "bob:hunter22x", "@intranet.example.org/", "a password in a URL", "basicauth"),
  sample(
    "ftp://",
    "ftpuser:Pa55w0rd9",
    "@files.example.com/pub",
    "a password in a URL",
    "basicauth",
  ),
  sample(
    "postgres://",
    "app:Zq9xW2vBn7",
    "@db.internal:5432/prod",
    "a password in a URL",
    "database-connection-string",
  ),
  sample(
    "mongodb+srv://",
    "root:S3cr3tPass",
    "@cluster0.abcde.mongodb.net/test",
    "a password in a URL",
    "database-connection-string",
  ),
  sample("redis://", ":p4ssw0rdXYZ", "@cache:6379", "a password in a URL"),
  sample(
    "https://",
    `${fake(40, HEX, 38)}:x-oauth-basic`,
    "@github.com/org/repo.git",
    "a password in a URL",
    "npm",
  ),
  // The rest of the preset.
  sample(
    "",
    `SG.${fake(22, ALNUM, 39)}.${fake(43, ALNUM, 40)}`,
    "",
    "a SendGrid API key",
    "sendgrid",
  ),
  sample("", `shpat_${fake(32, HEX, 41)}`, "", "a Shopify access token", "shopify"),
  sample("", `glpat-${fake(20, ALNUM, 42)}`, "", "a GitLab access token", "gitlab"),
  sample("", `glc_${fake(60, ALNUM, 43)}=`, "", "a Grafana token", "grafana"),
  sample("", `glsa_${fake(32, ALNUM, 44)}_${fake(8, HEX, 45)}`, "", "a Grafana token", "grafana"),
  sample("", `gsk_${fake(52, ALNUM, 46)}`, "", "a Groq API key", "groq"),
  sample("", `hf_${fake(34, LETTERS, 47)}`, "", "a Hugging Face token", "huggingface"),
  sample("", `lin_api_${fake(40, ALNUM, 48)}`, "", "a Linear API key", "linear"),
  sample(
    "",
    `ntn_${fake(11, "0123456789", 49)}${fake(35, ALNUM, 50)}`,
    "",
    "a Notion integration token",
    "notion",
  ),
  sample(
    "",
    opsToken(),
    "",
    "a 1Password service account token",
    "1password",
  ),
  sample("", `hvs.${fake(95, ALNUM, 52)}`, "", "a HashiCorp Vault token", "hashicorp-vault"),
  sample("", `vcp_${fake(24, ALNUM, 53)}`, "", "a Vercel token", "vercel"),
  sample("", `dapi${fake(32, HEX, 54)}`, "", "a Databricks token", "databricks"),
  sample("", `dckr_pat_${fake(27, ALNUM, 55)}`, "", "a Docker personal access token", "docker"),
  sample("", `figd_${fake(40, ALNUM, 56)}`, "", "a Figma token", "figma"),
  sample(
    "",
    `cfut_${fake(40, ALNUM, 57)}${fake(8, HEX, 58)}`,
    "",
    "a Cloudflare token",
    "cloudflare",
  ),
  sample(
    "",
    `tskey-auth-${fake(12, ALNUM, 59)}-${fake(30, ALNUM, 60)}`,
    "",
    "a Tailscale key",
    "tailscale",
  ),
];

/** Text that resembles a credential shape and must pass. */
export const NEGATIVES: readonly string[] = [
  // Prose.
  "Our task-management and risk-assessment notes are ready.",
  "sk-learning-rate is a hyperparameter",
  "the bearer instrument was signed",
  "Authorization: pending until Friday",
  "xai-powered tools",
  "A normal message about keys, tokens and passwords in general.",
  "I can do anything you ask, and I will post the summary tomorrow morning.",
  "The API key goes in AI_API_KEY; tokens start with bc_uat_ and never expire.",
  // `npm_`, `hf_` and friends in a sentence.
  "tokens start with npm_ followed by 36 characters",
  "set the npm_config_registry variable before you publish",
  "npm_package_dependencies_typescript_vers is an environment variable",
  "Hugging Face tokens start with hf_ and GitLab ones with glpat-",
  "the sk_live_ and rk_test_ prefixes mean different modes",
  // URLs without credentials, and placeholders where a password goes.
  "see https://example.com/search?key=value&token=abc",
  "https://example.com/docs?page=2&sort=asc",
  "https://user@example.com/ is a login without a password",
  "ssh://git@github.com/org/repo.git",
  "http://[::1]:8080/health and https://example.com:8443/api/v2",
  "https://user:***@example.com/",
  "postgres://app:<password>@db.internal/prod",
  "redis://:${REDIS_PASSWORD}@cache:6379",
  "https://user:password@example.com/",
  "mailto:ada@example.com",
  "https://hooks.slack.com/ is where webhooks live",
  "https://discord.com/api/webhooks/ is the endpoint",
  // Identifiers and hashes.
  "0195f0e0-0000-7000-8000-000000000001",
  "550e8400-e29b-41d4-a716-446655440000",
  "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
  "md5 d41d8cd98f00b204e9800998ecf8427e",
  "-----BEGIN CERTIFICATE----- MIIB",
  "SG.Foo.Bar is a namespace",
];
