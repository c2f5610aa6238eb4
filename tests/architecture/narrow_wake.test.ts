/**
 * The turn's steps take only the part of the wake they use (docs/architecture.md#the-turn-step-by-step):
 * in lib/wake/engaged/, the turn loop (turn.ts) is the one module that holds the whole `Wake`;
 * every step file names what it reads with `Pick<Wake, …>` or its own small type.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const FOLDER = fileURLToPath(new URL("../../lib/wake/engaged/", import.meta.url));
/** The loop composes the steps, so it alone passes the whole wake on. */
const WHOLE_WAKE_ALLOWED = new Set(["turn.ts"]);
/** The whole wake as a parameter, field or type argument (`: Wake)`, `WeakMap<Wake, …>`), not a `Pick`. */
const WHOLE_WAKE = /:\s*Wake\s*[,);=>]|(?<!Pick)<Wake\s*,/g;

/** The files of the folder, with the lines that take the whole wake. */
async function wholeWakeUses(): Promise<Map<string, string[]>> {
  const uses = new Map<string, string[]>();
  for await (const entry of Deno.readDir(FOLDER)) {
    if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(FOLDER + entry.name);
    const lines = text.split("\n").filter((line) => line.match(WHOLE_WAKE));
    uses.set(entry.name, lines.map((line) => line.trim()));
  }
  return uses;
}

Deno.test("only the turn loop takes the whole Wake; every step names what it reads", async () => {
  const uses = await wholeWakeUses();
  const offenders = [...uses].filter(([name, lines]) =>
    lines.length > 0 && !WHOLE_WAKE_ALLOWED.has(name)
  );
  assert.deepEqual(offenders, [], "a step file takes the whole Wake: use Pick<Wake, …>");
});

Deno.test("the check sees the loop's own whole-Wake parameters (it would see a step's)", async () => {
  const uses = await wholeWakeUses();
  assert((uses.get("turn.ts") ?? []).some((line) => line.startsWith("wake: Wake,")));
  assert(uses.size >= 10, `only ${uses.size} files were read`);
  assert(!'wake: Pick<Wake, "brief">,'.match(WHOLE_WAKE));
  assert("readonly #wake: Wake;".match(WHOLE_WAKE));
  assert("new WeakMap<Wake, State>()".match(WHOLE_WAKE));
});
