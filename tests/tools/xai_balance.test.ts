/**
 * xai_account_balance against a local stub of the xAI Management API: team discovery and its
 * override, the live figure from the invoice preview, the ledger fallback, the 30 s cache, and
 * the soft unavailable text for a missing key and a failing API. These shapes are our mocks'
 * reading of the API (docs/tools.md), not a recording of xAI's.
 */
import { strict as assert } from "node:assert";
import {
  type CachedBalance,
  DEFAULT_XAI_MANAGEMENT_URL,
  XaiBalanceTool,
  xaiManagementEndpointFrom,
} from "../../lib/tools/xai_balance.ts";
import { json, routes, startStub, type StubHandler } from "../support/http_stub.ts";

const KEY = "xai-mgmt-secret-key";
const TEAM = "team-1234";
const PREVIEW = `GET /v1/billing/teams/${TEAM}/postpaid/invoice/preview`;
const LEDGER = `GET /v1/billing/teams/${TEAM}/prepaid/balance`;
const VALIDATE = "GET /auth/management-keys/validation";

const invoice = () =>
  json({ coreInvoice: { prepaidCredits: { val: "-10000" }, prepaidCreditsUsed: { val: -2550 } } });
const ledger = () => json({ total: { val: "-10000" } });

function tool(url: string, over: { teamId?: string; key?: string } = {}, clock = () => 0) {
  return new XaiBalanceTool(
    { url, key: "key" in over ? over.key : KEY, teamId: over.teamId },
    { cache: new Map<string, CachedBalance>(), clock },
  );
}

const table = (extra: Record<string, StubHandler> = {}) =>
  routes({
    [VALIDATE]: () => json({ teamId: TEAM }),
    [PREVIEW]: invoice,
    [LEDGER]: ledger,
    ...extra,
  });

Deno.test("xai balance: discovers the team, reads the live figure, shows the ledger", async () => {
  await using stub = await startStub(table());
  const out = await tool(stub.url).run({});
  assert.equal(
    out,
    "xAI account balance: $74.50 (prepaid credits $100.00 minus $25.50 used this period; " +
      "ledger prepaid balance $100.00).",
  );
  assert.equal(stub.requests[0].path, "/auth/management-keys/validation");
  for (const request of stub.requests) {
    assert.equal(request.headers.get("authorization"), `Bearer ${KEY}`);
  }
  assert.deepEqual(stub.requests.map((r) => r.path).sort(), [
    "/auth/management-keys/validation",
    `/v1/billing/teams/${TEAM}/postpaid/invoice/preview`,
    `/v1/billing/teams/${TEAM}/prepaid/balance`,
  ]);
});

Deno.test("xai balance: XAI_TEAM_ID skips the discovery", async () => {
  await using stub = await startStub(table({ [VALIDATE]: () => json({}, 500) }));
  assert.match(await tool(stub.url, { teamId: TEAM }).run({}), /^xAI account balance: \$74\.50/);
  assert.ok(!stub.requests.some((r) => r.path.startsWith("/auth/")));
});

Deno.test("xai balance: a failing invoice preview falls back to the ledger as an upper bound", async () => {
  await using stub = await startStub(table({ [PREVIEW]: () => json({ error: "x" }, 503) }));
  assert.equal(
    await tool(stub.url).run({}),
    "xAI account balance: at most $100.00 (ledger prepaid balance; the live invoice preview " +
      `is unavailable — /v1/billing/teams/${TEAM}/postpaid/invoice/preview answered HTTP 503).`,
  );
});

Deno.test("xai balance: one request set within 30 s, a fresh read after", async () => {
  await using stub = await startStub(table());
  let now = 1_000;
  const t = tool(stub.url, { teamId: TEAM }, () => now);
  const first = await t.run({});
  now += 29_000;
  assert.equal(await t.run({}), first);
  assert.equal(stub.requests.length, 2);
  now += 2_000;
  await t.run({});
  assert.equal(stub.requests.length, 4);
});

Deno.test("xai balance: a missing key is the soft unavailable text, nothing sent", async () => {
  await using stub = await startStub(table());
  assert.equal(
    await tool(stub.url, { key: undefined }).run({}),
    "xAI account balance unavailable — XAI_MANAGEMENT_KEY is not set",
  );
  assert.equal(stub.requests.length, 0);
});

Deno.test("xai balance: an API failure is soft, never throws, never shows the key", async () => {
  await using stub = await startStub(table({
    [VALIDATE]: () => json({ error: `bad key ${KEY}` }, 401),
  }));
  const out = await tool(stub.url).run({});
  assert.equal(
    out,
    "xAI account balance unavailable — /auth/management-keys/validation answered HTTP 401",
  );
  await using both = await startStub(table({
    [PREVIEW]: () => json({ nope: 1 }),
    [LEDGER]: () => json({ total: { val: "abc" } }),
  }));
  assert.match(
    await tool(both.url, { teamId: TEAM }).run({}),
    /^xAI account balance unavailable — .*invoice\/preview answered an unexpected shape/,
  );
  const thrower: typeof fetch = () => Promise.reject(new Error(`reset for ${KEY}`));
  const soft = await new XaiBalanceTool({ url: both.url, key: KEY, teamId: TEAM }, {
    fetch: thrower,
    cache: new Map(),
  }).run({});
  assert.match(soft, /^xAI account balance unavailable — .*transport error: reset for \*\*\*/);
  assert.ok(!soft.includes(KEY));
});

Deno.test("xai balance endpoint: defaults and overrides from the environment", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.deepEqual(xaiManagementEndpointFrom(env({})), {
    url: DEFAULT_XAI_MANAGEMENT_URL,
    key: undefined,
    teamId: undefined,
  });
  assert.equal(DEFAULT_XAI_MANAGEMENT_URL, "https://management-api.x.ai");
  assert.deepEqual(
    xaiManagementEndpointFrom(env({
      XAI_MANAGEMENT_URL: "http://127.0.0.1:5/",
      XAI_MANAGEMENT_KEY: " k ",
      XAI_TEAM_ID: "t",
      AI_API_KEY: "never-used",
    })),
    { url: "http://127.0.0.1:5", key: "k", teamId: "t" },
  );
});
