/**
 * The vendor credential shapes the gate refuses beyond the journal's own (secret_shapes.ts adds
 * those). Most mirror the rules of the secretlint recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend`, pinned in deno.json for the tests only): the
 * package itself is not loaded at run time because it boots Deno's Node layer and costs tens of
 * milliseconds on the first post (docs/security.md#where-the-shapes-come-from), so its rules are
 * kept here as plain expressions and tests/gate/rule_set.test.ts runs the real package over the
 * same samples: every shape it flags, the gate must refuse.
 *
 * Where the gate departs from the preset it is broader, never narrower: a vendor prefix is proof
 * enough, so a truncated or odd-length token (a fragment of a key is still a leak) is refused too,
 * and a password in any URL's userinfo counts, not only in one with a dotted host and a
 * `[-\w]` password. Each pattern is global; `secret` names the capture group that holds the
 * credential when it is not the whole match (the span a refusal redacts).
 */

/** One credential shape. */
export interface Shape {
  /** What the refusal calls it ("an npm access token"); never the credential. */
  readonly name: string;
  /** Global; anchored so it does not start inside a word. */
  readonly pattern: RegExp;
  /** The capture group holding the credential, when the match carries context around it. */
  readonly secret?: number;
  /** A last look at a match (the credential), for shapes prose can also take. */
  readonly accept?: (credential: string) => boolean;
}

/** Whether a token reads like key material: a digit, or both cases. */
function hasDigitOrMixedCase(token: string): boolean {
  return /\d/.test(token) || (/[a-z]/.test(token) && /[A-Z]/.test(token));
}

// Placeholders written where a URL's password goes: never a real one, so never refused.
const PASSWORD_PLACEHOLDER =
  /^(?:\*+|x+|\.+|…|<[^>]*>|\{\{?[^}]*\}\}?|\$\{[^}]*\}|\$\(?[A-Za-z_]+\)?|%[A-Za-z_]+%|pass(?:word|wd)?|pwd|secret)$/i;

/** The table, in the order the refusal reports a first match. */
export const SHAPES: readonly Shape[] = [
  // AWS (preset: aws; the preset scans key ids only when asked, a post always is).
  {
    name: "an AWS access key id",
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b/g,
  },
  {
    name: "an AWS secret access key",
    pattern:
      /(?:aws_?)?secret_?access_?key["']?\s*(?::|=>|=)\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
    secret: 1,
  },
  // GitHub (preset: github; npm's x-oauth-basic URL is a userinfo password, below).
  {
    name: "a GitHub token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9_]{36,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  {
    name: "a GitHub token",
    pattern: /(?<!\p{L})ghs_\d{1,20}_[\w-]{1,1000}\.[\w-]{1,10000}\.[\w-]{1,1000}(?![\w-])/gu,
  },
  // Slack (preset: slack): tokens and incoming webhooks.
  { name: "a Slack token", pattern: /\b(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}/g },
  {
    name: "a Slack incoming webhook URL",
    pattern:
      /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9]{1,40}\/B[A-Za-z0-9]{1,40}\/[A-Za-z0-9]{1,40}/gi,
  },
  // Not in the preset: Discord's webhook URLs carry their token in the path.
  {
    name: "a Discord webhook URL",
    pattern:
      /https:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,}/gi,
  },
  // Not in the preset (its gcp rule reads key files, not text).
  { name: "a Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  // Stripe (preset: stripe; test-mode keys still open an account's test data; gitleaks adds `prod`).
  { name: "a Stripe secret key", pattern: /\b[rs]k_(?:live|test|prod)_[A-Za-z0-9]{16,}/g },
  // Not in the preset.
  {
    name: "a JSON Web Token",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  // npm (preset: npm): access tokens, and an .npmrc auth token that is not a ${VARIABLE}.
  {
    name: "an npm access token",
    pattern: /(?<!\p{L})npm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])/gu,
    // `npm_package_dependencies_typescript_` is a variable name, not a token.
    accept: (token) => hasDigitOrMixedCase(token.slice(4)),
  },
  { name: "an npm auth token", pattern: /_authToken\s*=\s*(?!\$)(\S{8,})/g, secret: 1 },
  // A password in any URL's userinfo (preset: basicauth and database-connection-string, which
  // cover http(s), ftp(s), MongoDB, MySQL and PostgreSQL URLs with a dotted host; npm's
  // `<token>:x-oauth-basic@github.com`). The user may be empty (`redis://:pass@host`); a
  // placeholder password (`***`, `<password>`, `${PASS}`) is an example, not a credential. The
  // whole `user:password` is the credential: in `<token>:x-oauth-basic@` the user is the token.
  {
    name: "a password in a URL",
    pattern:
      /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/([^\s/?#@:]{0,256}:[^\s/?#]{1,256})@(?=[^\s/?#@]*[A-Za-z0-9])/g,
    secret: 1,
    accept: (userinfo) => !PASSWORD_PLACEHOLDER.test(userinfo.slice(userinfo.indexOf(":") + 1)),
  },
  // The rest of the preset, one rule each.
  {
    name: "a SendGrid API key",
    pattern: /(?<!\p{L})SG\.[\w-]{16,32}\.[\w-]{16,64}(?![\w-])/gu,
  },
  {
    name: "a Shopify access token",
    pattern: /(?<!\p{L})(?:shppa|shpca|shpat|shpss)_[a-zA-Z0-9]{32,64}(?![a-zA-Z0-9])/gu,
  },
  {
    name: "a GitLab access token",
    pattern: /(?<!\p{L})glpat-[A-Za-z0-9_-]{20,128}(?![A-Za-z0-9_-])/gu,
  },
  {
    name: "a Grafana token",
    pattern:
      /(?<!\p{L})(?:glc_[A-Za-z0-9+/]{32,400}={0,2}(?![A-Za-z0-9+/=])|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Fa-f0-9]))/gu,
  },
  { name: "a Groq API key", pattern: /(?<!\p{L})gsk_[a-zA-Z0-9]{52}(?![a-zA-Z0-9])/gu },
  {
    name: "a Hugging Face token",
    pattern: /(?<!\p{L})(?:hf_|api_org_)[A-Za-z0-9]{34}(?![A-Za-z0-9])/gu,
    accept: hasDigitOrMixedCase,
  },
  {
    name: "a Linear API key",
    pattern: /(?<!\p{L})lin_api_[a-zA-Z0-9_]{32,128}(?![a-zA-Z0-9_])/gu,
  },
  {
    name: "a Notion integration token",
    pattern: /(?<!\p{L})ntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])/gu,
  },
  {
    name: "a 1Password service account token",
    pattern: /(?<!\p{L})ops_eyJ[A-Za-z0-9+/=]{100,}/gu,
  },
  {
    name: "a HashiCorp Vault token",
    pattern: /(?<!\p{L})hv[sbr]\.[A-Za-z0-9_-]{90,300}(?![A-Za-z0-9_-])/gu,
  },
  {
    name: "a Vercel token",
    pattern: /(?<!\p{L})(?:vcp|vci|vca|vcr|vck)_[A-Za-z0-9]{20,60}(?![A-Za-z0-9])/gu,
  },
  {
    name: "a Databricks token",
    pattern: /(?<!\p{L})dapi[A-Fa-f0-9]{32}(?:-[0-9])?(?![A-Fa-f0-9])/gu,
  },
  {
    name: "a Docker personal access token",
    pattern: /(?<!\p{L})dckr_pat_[a-zA-Z0-9_-]{27,}(?![a-zA-Z0-9_-])/gu,
  },
  {
    name: "a Figma token",
    pattern: /(?<!\p{L})figd_[A-Za-z0-9_-]{40,200}(?![A-Za-z0-9_-])/gu,
  },
  {
    name: "a Cloudflare token",
    pattern: /(?<!\p{L})(?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8}(?![A-Za-z0-9])/gu,
  },
  {
    name: "a Tailscale key",
    pattern: /(?<!\p{L})tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}(?![0-9A-Za-z_])/gu,
  },
];
