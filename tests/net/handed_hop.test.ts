/**
 * How one hop of a handed URL tells its failures apart, by their type: the fence's verdict on the
 * host is a typed refusal the process listener hears; a name that resolves to nothing is a network
 * failure (`TypeError`, as `fetch` reports one), heard by no one; an aborted hop stays an abort.
 * No case reaches the transport, which would throw if it were called.
 */
import assert from "node:assert/strict";
import { pinnedHop } from "../../lib/net/handed_hop.ts";
import { ResolveError } from "../../lib/net/dns.ts";
import { onUrlRefused, UrlRefusedError } from "../../lib/net/refusal.ts";
import type { Resolver } from "../../lib/net/dns.ts";

const neverDialled = () => Promise.reject(new Error("the transport must not be called"));

/** Runs one hop against `resolver`; returns what it threw and every refusal the listener heard. */
async function hop(
  url: string,
  resolver: Resolver,
  signal?: AbortSignal,
): Promise<{ error: unknown; heard: UrlRefusedError[] }> {
  const heard: UrlRefusedError[] = [];
  onUrlRefused((refusal) => heard.push(refusal));
  try {
    await pinnedHop(
      "platform",
      new URL(url),
      { method: "GET", headers: new Headers(), signal },
      2,
      {
        resolver,
        transport: neverDialled,
      },
    );
  } catch (error) {
    return { error, heard };
  } finally {
    onUrlRefused(null);
  }
  assert.fail("the hop did not fail");
}

const resolvesTo = (...addresses: string[]): Resolver => () => Promise.resolve(addresses);

Deno.test("handed hop: the fence's verdicts are typed refusals, heard, naming the hop", async () => {
  const cases: [string, Resolver, string][] = [
    [
      "https://blobs.example.com/x",
      resolvesTo("127.0.0.1"),
      "blobs.example.com resolves to 127.0.0.1, which is a loopback address",
    ],
    [
      "https://blobs.example.com/x",
      resolvesTo("not-an-address"),
      "blobs.example.com resolved to 'not-an-address', which is not a plain IP address",
    ],
    ["https://10.0.0.1/x", resolvesTo(), "10.0.0.1 is a private address"],
    [
      "https://printer.local/x",
      resolvesTo(),
      "printer.local is not a public host (.local names are local)",
    ],
    ["https://intranet/x", resolvesTo(), "'intranet' is a single-label name, not a public host"],
  ];
  for (const [url, resolver, reason] of cases) {
    const { error, heard } = await hop(url, resolver);
    assert.ok(error instanceof UrlRefusedError, `${url}: ${error}`);
    assert.equal(error.reason, reason);
    assert.equal(error.hop, 2);
    assert.deepEqual(heard, [error]);
  }
});

Deno.test("handed hop: a name that resolves to nothing is a network failure, heard by no one", async () => {
  const cases: [Resolver, string][] = [
    [resolvesTo(), "could not resolve host 'blobs.example.com'"],
    [
      () =>
        Promise.reject(new ResolveError("could not resolve host 'blobs.example.com': NXDOMAIN")),
      "could not resolve host 'blobs.example.com': NXDOMAIN",
    ],
    [
      () => Promise.reject(new Error("no nameserver answered")),
      "could not resolve host 'blobs.example.com': no nameserver answered",
    ],
    // A resolver's own words never decide the kind, even when they read like the fence's.
    [
      () => Promise.reject(new ResolveError("refused: the upstream server said so")),
      "refused: the upstream server said so",
    ],
  ];
  for (const [resolver, message] of cases) {
    const { error, heard } = await hop("https://blobs.example.com/x", resolver);
    assert.ok(error instanceof TypeError && !(error instanceof UrlRefusedError), String(error));
    assert.equal(error.message, message);
    assert.deepEqual(heard, []);
  }
});

Deno.test("handed hop: an aborted hop is an abort, neither a refusal nor a network failure", async () => {
  const controller = new AbortController();
  controller.abort(new DOMException("the wake ended", "AbortError"));
  const { error, heard } = await hop(
    "https://blobs.example.com/x",
    () => Promise.reject(new Error("cancelled")),
    controller.signal,
  );
  assert.ok(error instanceof DOMException && error.name === "AbortError", String(error));
  assert.deepEqual(heard, []);
});
