/**
 * The budget guard under concurrency (docs/operating.md#the-budget-guard): six `harness wake`
 * processes on six timelines of one agent, started together on one HARNESS_HOME against the
 * sandbox and a scripted model that reports usage. The model holds every first reply until each
 * wake has either reached it or said it waits for the budget, so the turns really overlap.
 * Afterwards the day's spend passes `tokens_per_day` by less than one turn's estimate, exactly one
 * wake logs the EXHAUSTED transition, exactly one notice reaches ntfy, and the items the budget
 * refused stay unclaimed for the wake after the reset.
 */
import assert from "node:assert/strict";
import { chatCompletion, type RecordedRequest } from "../support/model_mock.ts";
import { startStub } from "../support/http_stub.ts";
import { DENO_DIR, REPO_ROOT } from "../support/run_cli.ts";
import { world } from "./wake_support.ts";
import { asUser } from "../support/cleared.ts";

const WAKES = 6;
const LIMIT = 2500;
/** Each model call reports 400 + 100 tokens; a reply turn is two calls. */
const PER_CALL = { prompt: 400, completion: 100, cost: 0.01 };
const TURN_TOKENS = 2 * (PER_CALL.prompt + PER_CALL.completion);

const today = () => new Date().toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** A wake process whose stderr is read as it is written. */
interface LiveWake {
  readonly timeline: string;
  readonly stderr: () => string;
  readonly done: Promise<number>;
}

function spawnWake(
  timeline: string,
  env: Record<string, string>,
  onOutput: () => void,
): LiveWake {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-P=harness", "--quiet", `${REPO_ROOT}main.ts`, "wake", "--timeline", timeline],
    cwd: REPO_ROOT,
    env: { NO_COLOR: "1", DENO_DIR, ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const read = (async () => {
    for await (const chunk of child.stderr) {
      text += decoder.decode(chunk, { stream: true });
      onOutput();
    }
  })();
  const done = (async () => {
    const { code } = await child.status;
    await read;
    onOutput();
    return code;
  })();
  return { timeline, stderr: () => text, done };
}

Deno.test("six concurrent wakes spend less than one turn's estimate past the daily limit, and notify once", async () => {
  await using ntfy = await startStub(() => new Response('{"id":"n1"}'));
  await using w = await world();
  const config = `${w.home}/config`;
  await Deno.mkdir(config, { recursive: true });
  await Deno.writeTextFile(`${config}/budget.json`, JSON.stringify({ tokens_per_day: LIMIT }));
  await Deno.writeTextFile(
    `${config}/escalation.json`,
    JSON.stringify({ enabled: true, on: ["budget_exhausted"] }),
  );
  // Yesterday's ledger holds one turn of the size today's turns will have: the estimate.
  await Deno.mkdir(`${w.home}/budget`, { recursive: true });
  await Deno.writeTextFile(
    `${w.home}/budget/${yesterday()}.jsonl`,
    `${JSON.stringify({ timeline: "earlier", tokens: TURN_TOKENS, usd: 0.02 })}\n`,
  );

  const timelines = [w.timeline];
  while (timelines.length < WAKES) {
    const { timeline } = await w.peer.client.timelines.create({ name: `chat ${timelines.length}` });
    await w.peer.client.timelines.addParticipant(timeline.uuid, w.agent.uuid);
    timelines.push(timeline.uuid);
  }
  const asked = new Map<string, string>();
  for (const [i, timeline] of timelines.entries()) {
    const message = await w.peer.client.messages.create(
      timeline,
      asUser("message", { body: `@ada question ${i}` }),
    );
    asked.set(timeline, message.content.uuid);
  }

  // The barrier: first replies wait until every wake reached the model, said it waits for the
  // budget, or exited.
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  let firstCalls = 0;
  const wakes: LiveWake[] = [];
  const exited = new Set<string>();
  const arrivals = () =>
    firstCalls + exited.size +
    wakes.filter((x) => !exited.has(x.timeline) && /Budget guard WAITING/.test(x.stderr())).length;
  const check = () => {
    if (arrivals() >= WAKES) release();
  };
  w.model.always("chat", async (request: RecordedRequest) => {
    const messages = (request.body as { messages: { role: string }[] }).messages;
    // Each timeline is fresh: a tool result in the request means its create already ran.
    const afterTool = messages.some((m) => m.role === "tool");
    if (!afterTool) {
      firstCalls++;
      check();
      await released;
      return {
        json: chatCompletion({
          toolCalls: [{
            id: "call_0",
            name: "messages",
            arguments: { action: "create", body: "Hi." },
          }],
          usage: PER_CALL,
        }),
      };
    }
    return { json: chatCompletion({ content: "Answered.", usage: PER_CALL }) };
  });

  const env = { ...w.env, NTFY_DM_TOKEN: "tk_budget_notice", NTFY_DM_URL: `${ntfy.url}/alerts` };
  for (const timeline of timelines) wakes.push(spawnWake(timeline, env, check));
  const codes = await Promise.all(wakes.map(async (x) => {
    const code = await x.done;
    exited.add(x.timeline);
    check();
    return code;
  }));
  for (const [i, code] of codes.entries()) assert.equal(code, 0, wakes[i].stderr());
  const stderr = wakes.map((x) => x.stderr()).join("\n");

  // The spend: below the limit plus one turn's estimate (the largest turn on record).
  const ledger = (await Deno.readTextFile(`${w.home}/budget/${today()}.jsonl`)).trim().split("\n")
    .map((line) => JSON.parse(line) as { tokens: number });
  const spent = ledger.reduce((sum, line) => sum + line.tokens, 0);
  assert.ok(spent < LIMIT + TURN_TOKENS, `spent ${spent} tokens against ${LIMIT}:\n${stderr}`);
  assert.ok(ledger.every((line) => line.tokens === TURN_TOKENS), JSON.stringify(ledger));

  // One transition, one notice.
  assert.equal((stderr.match(/WARNING Budget guard EXHAUSTED/g) ?? []).length, 1, stderr);
  assert.equal(ntfy.requests.length, 1, stderr);
  const notice = ntfy.requests[0].text();
  assert.match(notice, /^Escalation: budget_exhausted\n/);
  assert.ok(notice.includes(`Item: budget-tokens_per_day-${today()}\n`), notice);

  // Every wake either answered its item or left it unclaimed for after the reset.
  let answered = 0;
  for (const timeline of timelines) {
    const uuid = asked.get(timeline)!;
    const claim = await Deno.stat(`${w.home}/claims/messages/${timeline}/${uuid}.claim`).then(
      () => true,
      () => false,
    );
    const posts = (await w.peer.client.messages.list({ timeline }).toArray())
      .filter((m) => m.user.uuid === w.agent.uuid);
    assert.equal(claim, posts.length === 1, `${timeline}: claim ${claim}, ${posts.length} post(s)`);
    if (claim) answered++;
  }
  assert.equal(answered, ledger.length);
  assert.ok(answered < WAKES, "the budget stopped some wakes");
  // No lease outlives its wake.
  const leases = [];
  for await (const entry of Deno.readDir(`${w.home}/budget/leases`)) leases.push(entry.name);
  assert.deepEqual(leases, []);
});
