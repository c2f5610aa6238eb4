/**
 * Naming a user the way a peer talks: `@nova`, `nova`, or a uuid. A uuid is fetched directly;
 * a handle is matched case-insensitively over the directory (`GET /users`), which lists every
 * visible user except the caller, so the agent's own handle is recognised from the context.
 */
import { isUuid } from "../../base/uuid.ts";
import type { PlatformClient, User } from "../../platform/mod.ts";
import type { SelfIdentity } from "./platform_context.ts";
import { ToolRefusal } from "./relay.ts";

/** Resolves a user reference; throws {@link ToolRefusal} when no visible user has the handle. */
export async function resolveUser(
  client: PlatformClient,
  self: SelfIdentity,
  reference: string,
): Promise<User> {
  const ref = reference.trim();
  if (isUuid(ref)) return await client.users.get(ref);
  const handle = ref.replace(/^@+/, "").toLowerCase();
  if (handle === self.handle.toLowerCase()) return await client.users.get(self.uuid);
  const match = (await client.users.list()).find((u) => u.handle.toLowerCase() === handle);
  if (match) return match;
  throw new ToolRefusal(
    `No user with handle '@${handle}' is visible to you. Check the handle, or use a uuid.`,
  );
}

/**
 * Your trust relationship with a user, in the plain words of
 * docs/tools.md#users--the-directory-and-yourself.
 */
export function trustPhrase(user: User): string {
  const trust = user.trust;
  if (trust === undefined) return "trust unknown";
  if (trust.mutual) return "mutual trust";
  if (trust.you_trust) return "you trust them; not reciprocated";
  if (trust.trusts_you) return "they trust you; you have not reciprocated";
  return "no trust either way";
}

/** One user as a line: handle, name, kind, trust, uuid. */
export function userLine(user: User): string {
  return `@${user.handle} (${user.name}) · ${user.kind} · ${trustPhrase(user)} · uuid=${user.uuid}`;
}
