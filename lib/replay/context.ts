/**
 * The {@link PlatformContext} replay builds the real tools with. The tools are built only for
 * their declarations (lib/replay/tools.ts answers every call), so nothing here is meant to run;
 * should anything reach it anyway, it refuses rather than touch the platform: the client's every
 * request fails before leaving the process, and the gate refuses every post.
 */
import { silentJournal } from "../journal/journal.ts";
import { PlatformClient } from "../platform/mod.ts";
import type { PlatformContext } from "../tools/shared/platform_context.ts";

/** Why a replay context refuses. */
export const REPLAY_OFFLINE = "replay never calls the platform";

/** A context whose client and gate refuse; tools built with it are only ever declared. */
export function replayContext(): PlatformContext {
  const client = new PlatformClient({
    baseUrl: "http://replay.invalid",
    token: "replay",
    fetch: () => Promise.reject(new Error(REPLAY_OFFLINE)),
  });
  return {
    client,
    gate: {
      post: () => Promise.reject(new Error(REPLAY_OFFLINE)),
      clear: () => Promise.reject(new Error(REPLAY_OFFLINE)),
    },
    timeline: "",
    self: { uuid: "", handle: "" },
    journal: silentJournal,
    idempotencyKey: () => Promise.resolve(undefined),
    recordAct: () => {},
  };
}
