/**
 * What the page server's routes work with (./page_routes.ts, ./studio_routes.ts): the hosts and
 * token its checks use, the seated world, each human seat's gate, the live feed, the sandbox and
 * the studio.
 */
import type { Gate } from "../gate/mod.ts";
import type { Sandbox, ServedHosts } from "../sandbox/mod.ts";
import type { Hub } from "./hub.ts";
import type { Studio } from "./studio.ts";
import type { PlaygroundWorld } from "./world.ts";

/** What the routes work with. */
export interface PageContext {
  /** The `Host` values the page answers to. */
  readonly hosts: ServedHosts;
  /** This run's page token, written into the page and required on every write. */
  readonly pageToken: string;
  readonly world: PlaygroundWorld;
  /** The outbound gate of the human seat `handle`; undefined for a handle not seated. */
  readonly gate: (handle: string) => Gate | undefined;
  readonly hub: Hub;
  readonly sandbox: Sandbox;
  readonly studio: Studio;
}
