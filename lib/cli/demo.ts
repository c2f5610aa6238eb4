/**
 * `harness demo`: a guided tour of the offline platform. It starts an in-process sandbox, seats
 * a human (@ada) and an AI peer (@vega) on a shared timeline, has ada ask vega a question, and
 * prints what happened — including which wakes a router would run for the events recorded.
 * Needs no account, no network and no model key.
 */
import { type Command, integerFlag } from "./command.ts";

const options = {
  port: { type: "string" },
} as const;

const encoder = new TextEncoder();
const QUESTION = "@vega what can an AI peer do on a BaseCradle timeline?";

/** A user as the tour prints it. */
interface Person {
  readonly uuid: string;
  readonly handle: string;
  readonly name: string;
  readonly kind: string;
}

/**
 * Runs the tour against a fresh sandbox in a temporary data directory, writing readable lines
 * to `out`. The sandbox is closed and its directory removed before this resolves.
 */
export async function runDemo(port: number, out: (line: string) => void): Promise<void> {
  const { Sandbox, ACTIONABLE_EVENTS } = await import("../sandbox/mod.ts");
  const { PlatformClient } = await import("../platform/mod.ts");
  const dataDir = await Deno.makeTempDir({ prefix: "harness-demo-" });
  try {
    const sandbox = await Sandbox.start({ port, dataDir });
    try {
      // The admin surface (same as POST /_sandbox/users) seats the two peers with tokens.
      const seatAda = sandbox.createUser({ handle: "ada", name: "Ada Lovelace", kind: "human" });
      const seatVega = sandbox.createUser({ handle: "vega", name: "Vega", kind: "ai" });
      const ada = new PlatformClient({ baseUrl: sandbox.baseUrl, token: seatAda.token });
      const vega = new PlatformClient({ baseUrl: sandbox.baseUrl, token: seatVega.token });

      await ada.users.grantTrust(seatVega.user.uuid);
      const trust = await vega.users.grantTrust(seatAda.user.uuid);
      const created = await ada.timelines.create({ name: "Demo" });
      const timeline = created.timeline.uuid;
      await ada.timelines.addParticipant(timeline, seatVega.user.uuid);
      await ada.messages.create(timeline, { body: QUESTION });
      const { timeline: shown, items } = await ada.timelines.get(timeline);

      const people: Person[] = [seatAda.user, seatVega.user];
      const byUuid = new Map(people.map((p) => [p.uuid, p]));
      out("BaseCradle harness demo — an offline tour of the sandbox platform");
      out("");
      out(`Platform   ${sandbox.baseUrl}  (admin: ${sandbox.adminUrl})`);
      out("Users");
      for (const p of people) out(`  @${p.handle.padEnd(5)} ${p.name} (${p.kind})  ${p.uuid}`);
      out(`Trust      @ada and @vega trust each other (mutual: ${trust.trust?.mutual === true})`);
      out("");
      const participants = shown.participants.map((p) => `@${p.handle}`).join(", ") || "none";
      out(`Timeline   "${shown.name}"  ${shown.uuid}`);
      out(`  owner @${shown.owner.handle}, participants ${participants}`);
      for (const item of items) {
        // Webhook events come from outside and have no author.
        const author = (item as { user?: { handle?: string } }).user?.handle ?? "webhook";
        const body = item.type === "message" ? item.content.body : `(${item.type})`;
        out(`  [${item.created_at}] ${author}: ${body}`);
      }
      out("");

      // Who the router would wake: every AI viewer, except the event's own author.
      const viewers: Person[] = [shown.owner, ...shown.participants].map((v) =>
        byUuid.get(v.uuid) ?? { uuid: v.uuid, handle: v.handle ?? "?", name: "", kind: "" }
      );
      out("Router events (GET /_sandbox/events)");
      for (const event of sandbox.events()) {
        const actor = event.actor
          ? `@${byUuid.get(event.actor)?.handle ?? event.actor}`
          : "outside";
        out(`  ${event.event}  by ${actor}  at ${event.at}`);
        if (!ACTIONABLE_EVENTS.has(event.event) || event.timeline !== timeline) continue;
        const woken = viewers.filter((v) =>
          v.kind === "ai" && (v.uuid !== event.actor || event.event === "task.activated")
        );
        for (const agent of woken) {
          out(`    → wakes @${agent.handle}: harness wake --timeline ${event.timeline}`);
        }
        if (woken.length === 0) out("    → wakes no one");
      }
      out("");
      out("Try it yourself: deno task sandbox, then follow the curl walkthrough in the README.");
    } finally {
      await sandbox.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

export const demoCommand: Command<typeof options> = {
  name: "demo",
  usage: `Usage: harness demo [--port N]

A guided tour of the offline sandbox platform: starts a local BaseCradle-compatible platform
(in a temporary directory, removed at exit), creates a human @ada and an AI peer @vega with
mutual trust, has ada open a timeline "Demo", add vega and ask vega a question, then prints
the users, the timeline's items and the events the platform recorded, with the wake a router
would run for each. Needs no account, no network and no model key.

Options:
  --port N     port for the sandbox (default 0: any free port)
  -h, --help   show this help
`,
  options,
  async run({ values }) {
    const port = integerFlag("port", values.port, { min: 0, max: 65535 }) ?? 0;
    try {
      await runDemo(port, (line) => Deno.stdout.writeSync(encoder.encode(line + "\n")));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      Deno.stderr.writeSync(encoder.encode(`harness demo: ${reason}\n`));
      return 1;
    }
    return 0;
  },
};
