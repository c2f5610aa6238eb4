/**
 * Recall's optional hybrid rank: with an embeddings model configured, chunks and queries are
 * embedded through the real openai SDK (here against a local wire mock) and a memory sharing no
 * word with the question is found by meaning; a failing endpoint is a WARNING and lexical recall
 * carries on; the host rules decide where the embeddings, and the key with them, may go.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openaiEmbedder } from "../../lib/memory/recall_embeddings.ts";
import { RecallMemoryProvider } from "../../lib/memory/recall_provider.ts";
import { installFence } from "../../lib/net/host_fence.ts";
import { compileHostRules, hostFence, HostNotAllowedError } from "../../lib/net/host_rules.ts";
import { rawDb, recordingJournal, tempHome } from "./helpers.ts";

const ADA = "11111111-1111-4111-8111-111111111111";

/** Concept axes the mock embeds by: a text's vector counts the cue words of each. */
const AXES: readonly RegExp[] = [
  /allerg|eat|food|snack/gi,
  /car|drive|estate/gi,
  /puppy|dog/gi,
];

interface MockEmbeddings extends AsyncDisposable {
  readonly baseURL: string;
  readonly bodies: { model: string; input: string[] }[];
  failing: boolean;
}

/** An `/v1/embeddings` endpoint answering in the OpenAI wire format. */
function embeddingsMock(): MockEmbeddings {
  const bodies: { model: string; input: string[] }[] = [];
  const state = { failing: false };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.json() as { model: string; input: string[] };
    bodies.push(body);
    if (state.failing || !new URL(req.url).pathname.endsWith("/embeddings")) {
      return Response.json({ error: { message: "embeddings are down", type: "server_error" } }, {
        status: 400,
      });
    }
    const data = body.input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: [...AXES.map((axis) => (text.match(axis) ?? []).length), 0.01],
    }));
    return Response.json({
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
  });
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    bodies,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("embeddings: a fact sharing no word with the question is recalled by meaning", async () => {
  await using mock = embeddingsMock();
  using dir = tempHome();
  const embeddings = { model: "mock-embed-1", apiKey: "sk-test", baseURL: mock.baseURL };
  const lexicalOnly = new RecallMemoryProvider({ home: dir.home });
  const hybrid = new RecallMemoryProvider({ home: join(dir.home, "h"), embeddings });
  for (const provider of [lexicalOnly, hybrid]) {
    await provider.observe({
      user: "nadia: I'm allergic to sesame, so none in the team snacks please",
      assistant: "",
      scope: { agent: ADA },
    });
    await provider.observe({
      user: "nadia: I bought a teal volvo estate",
      assistant: "",
      scope: { agent: ADA },
    });
  }
  const question = "what can't nadia eat?";
  // Lexically only the name matches, and both facts carry it equally.
  const lexical = await lexicalOnly.search(question, 1);
  const semantic = await hybrid.search(question, 1);
  assert.equal(semantic.length, 1);
  assert.match(semantic[0], /allergic to sesame/);
  // Lexical recall alone ranks the shorter fact first: nothing in the question points at sesame.
  assert.match(lexical[0], /volvo/);
  // Every chunk and the query went over the wire, to the configured model.
  assert.ok(mock.bodies.every((body) => body.model === "mock-embed-1"));
  assert.deepEqual(mock.bodies.at(-1)?.input, [question]);
  const db = rawDb(join(dir.home, "h", "recall.db"));
  const stored = db.prepare("SELECT count(*) AS n FROM recall_vectors WHERE model = ?").get(
    "mock-embed-1",
  ) as { n: number };
  db.close();
  assert.equal(stored.n, 2);
  lexicalOnly.close();
  hybrid.close();
});

Deno.test("embeddings: a failing endpoint is a WARNING; the exchange is kept and recalled by its words", async () => {
  await using mock = embeddingsMock();
  mock.failing = true;
  using dir = tempHome();
  const journal = recordingJournal();
  const provider = new RecallMemoryProvider({
    home: dir.home,
    journal,
    embeddings: { model: "mock-embed-1", apiKey: "sk-test", baseURL: mock.baseURL },
  });
  await provider.observe({
    user: "the release checklist lives in the ops wiki",
    assistant: "",
    scope: { agent: ADA },
  });
  const recalled = await provider.context({ agent: ADA, query: "where is the release checklist?" });
  assert.ok(recalled?.includes("ops wiki"), recalled ?? "");
  const warnings = journal.lines.filter((l) => l.level === "WARNING").map((l) => l.text);
  assert.equal(warnings.length, 2, warnings.join("\n"));
  assert.match(
    warnings[0],
    /^memory op=embed during=observe result=failed reason=.*embeddings are down/,
  );
  assert.match(warnings[1], /^memory op=embed during=recall result=failed /);
  provider.close();
});

/** Runs `fn` under host rules of `entries`; the refusals the fence reported, by host. */
async function underRules(entries: string[], fn: () => Promise<void>): Promise<string[]> {
  const refused: string[] = [];
  installFence(hostFence(compileHostRules(entries, "/cfg/host_rules.json"), (r) => {
    refused.push(`${r.host} via=${r.via}`);
  }));
  try {
    await fn();
  } finally {
    installFence(null);
  }
  return refused;
}

Deno.test("embeddings obey host_rules.json: a host outside them gets no request and no key", async () => {
  await using mock = embeddingsMock();
  using dir = tempHome();
  const journal = recordingJournal();
  const provider = new RecallMemoryProvider({
    home: dir.home,
    journal,
    embeddings: { model: "mock-embed-1", apiKey: "sk-embed-secret", baseURL: mock.baseURL },
  });
  // The mock listens on 127.0.0.1; "localhost" names the same machine, so only the rules stop it.
  const refused = await underRules(["localhost"], async () => {
    await provider.observe({
      user: "the release checklist lives in the ops wiki",
      assistant: "",
      scope: { agent: ADA },
    });
    const recalled = await provider.context({ agent: ADA, query: "release checklist?" });
    assert.ok(recalled?.includes("ops wiki"), "lexical recall carries on");
  });
  assert.equal(mock.bodies.length, 0, "nothing, and so no key, reached the embeddings host");
  // One refusal per attempt (the embedder's SDK retries once); each names the host and path.
  assert.ok(refused.length >= 2, refused.join("\n"));
  assert.ok(refused.every((r) => r === "127.0.0.1 via=embeddings"), refused.join("\n"));
  const warnings = journal.lines.filter((l) => l.level === "WARNING").map((l) => l.text);
  assert.match(warnings[0], /memory op=embed during=observe result=failed .*host rules/);
  // The control: allowed, the same provider reaches the mock.
  await underRules(["127.0.0.1"], async () => {
    await provider.observe({ user: "a second fact", assistant: "", scope: { agent: ADA } });
  });
  assert.ok(mock.bodies.length > 0, "allowed, the embeddings went out");
  provider.close();
});

Deno.test("embeddings obey host_rules.json on a redirect: the key never follows it off the list", async () => {
  // An allowed endpoint that redirects to a host outside the rules.
  await using outside = embeddingsMock();
  const target = outside.baseURL.replace("127.0.0.1", "localhost");
  const redirector = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) =>
      new Response(null, {
        status: 307,
        headers: { location: `${target}${new URL(req.url).pathname.replace(/^\/v1/, "")}` },
      }),
  );
  try {
    const embedder = openaiEmbedder({
      model: "mock-embed-1",
      apiKey: "sk-embed-secret",
      baseURL: `http://127.0.0.1:${redirector.addr.port}/v1`,
    });
    const refused = await underRules(["127.0.0.1"], async () => {
      await assert.rejects(embedder.embed(["hello"]), (error) => {
        for (let link: unknown = error; link instanceof Error; link = link.cause) {
          if (link instanceof HostNotAllowedError) return link.hop === 1;
        }
        return false;
      });
    });
    assert.ok(refused.length >= 1 && refused.every((r) => r === "localhost via=embeddings"));
    assert.equal(outside.bodies.length, 0, "the redirect's target was never sent the key");
  } finally {
    await redirector.shutdown();
  }
});
