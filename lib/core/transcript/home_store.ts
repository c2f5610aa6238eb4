/**
 * The store behind `Harness({ home })`: transcripts under `<home>/sessions/`, in the reference's
 * file format. Imported lazily so a Harness without `home` never loads the file store's code
 * (the literal specifier keeps it visible to `deno check` and `deno compile`).
 */
import type { Journal } from "../../journal/journal.ts";
import type { SessionStore } from "./session_store.ts";

/** Opens the durable session store rooted at `<home>/sessions/`. */
export async function openHomeStore(home: string, journal: Journal): Promise<SessionStore> {
  const [{ join }, { FileSessionStore }] = await Promise.all([
    import("../../base/paths.ts"),
    import("./session.ts"),
  ]);
  return new FileSessionStore(join(home, "sessions"), { journal });
}
