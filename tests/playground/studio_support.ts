/** Helpers for the studio's API tests: writes with the page's token, and waits on the state. */
import { pageToken, type PlaygroundProcess } from "./support.ts";

/** A wake as `/api/state` summarises it. */
export interface WakeSummary {
  id: string;
  n: number;
  finishedAt: string | null;
  outcome: string;
  posted: number;
  results: string[];
  cost: { usd: number | null; source: string | null };
  chain: { verified: boolean; records: number } | null;
  journalLines: number;
  startedAt: string;
  trigger: { actor: string | null };
}

/** The parts of `/api/state` these tests read. */
export interface State {
  humans: { handle: string }[];
  prices: { file: string; priced: boolean; problem: string | null };
  timelines: { uuid: string; items: { author: string | null; body?: string }[] }[];
  wakes: WakeSummary[];
}

/** Reads and writes the studio of `playground` as its page does. */
export async function studioClient(playground: PlaygroundProcess) {
  const token = await pageToken(playground.url);
  const url = playground.url;
  const state = async (): Promise<State> => await (await fetch(`${url}api/state`)).json();
  const timeline = (await state()).timelines[0].uuid;
  return {
    timeline,
    /** This run's page token. */
    token,
    state,
    /** GET `path` (without the leading `/`): status and JSON. */
    async get<T = Record<string, unknown>>(path: string): Promise<{ status: number; body: T }> {
      const reply = await fetch(`${url}${path}`);
      return { status: reply.status, body: await reply.json() };
    },
    /** POST JSON with the page's token. */
    async post<T = Record<string, unknown>>(
      path: string,
      body: unknown,
    ): Promise<{ status: number; body: T }> {
      const reply = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "playground-token": token },
        body: JSON.stringify(body),
      });
      return { status: reply.status, body: await reply.json() };
    },
    /**
     * Posts `body` as the human and resolves once every wake so far has finished and one more
     * turn has spoken (the agent's reply, delivered back to it, may cost an idle wake too).
     */
    async ask(body: string, as?: string): Promise<State> {
      const now = await state();
      const before = now.wakes.filter((w) => w.results.includes("spoke")).length;
      // The router twin coalesces an event into a wake started in the same whole second
      // (docs/sandbox.md#the-router-twin): post once the clock is past the last start's second.
      const last = Math.max(0, ...now.wakes.map((w) => Date.parse(w.startedAt)));
      while (Math.floor(Date.now() / 1000) <= Math.floor(last / 1000)) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const reply = await fetch(`${url}api/post`, {
        method: "POST",
        headers: { "content-type": "application/json", "playground-token": token },
        body: JSON.stringify({ timeline, body, as }),
      });
      if (reply.status !== 201) throw new Error(`post answered ${reply.status}`);
      await reply.body?.cancel();
      return await waitFor(
        state,
        (s) =>
          s.wakes.filter((w) => w.results.includes("spoke")).length > before &&
          s.wakes.every((w) => w.finishedAt !== null),
      );
    },
  };
}

/** Polls `read` until `ready` holds (generous: the machine may be loaded), then one more read. */
export async function waitFor<T>(
  read: () => Promise<T>,
  ready: (value: T) => boolean,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
