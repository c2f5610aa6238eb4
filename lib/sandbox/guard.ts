/**
 * The checks every request to the sandbox passes before it is routed (docs/sandbox.md#who-may-call-it):
 * its `Host` names the sandbox, a state-changing request does not come from another site, and a
 * `/_sandbox/*` admin request carries this run's admin token. The demo model's two surfaces,
 * `/_sandbox/model/v1` (OpenAI) and `/_sandbox/model/anthropic`, are not admin: they stand in for a
 * vendor, take any key, and keep no state a caller could abuse.
 */
import { ANTHROPIC_MODEL_PATH, MODEL_PATH } from "./model/routes.ts";
import { ADMIN_TOKEN_HEADER, carriesAdminToken } from "./shared/admin_token.ts";
import { crossSiteRefusal, hostRefusal, type ServedHosts } from "./shared/local_origin.ts";
import { Problem } from "./shared/problem.ts";

/** What a sandbox's requests are checked against. */
export interface SandboxGuard {
  /** The `Host` values this sandbox answers to. */
  readonly hosts: ServedHosts;
  /** This run's admin token. */
  readonly adminToken: string;
}

/** Why the request is refused, as the problem the client gets, or null when it may proceed. */
export function guardRequest(req: Request, path: string, guard: SandboxGuard): Problem | null {
  const wrongHost = hostRefusal(req, guard.hosts);
  if (wrongHost) return new Problem(403, "host_not_allowed", wrongHost);
  const crossSite = crossSiteRefusal(req);
  if (crossSite) return new Problem(403, "cross_site_request", crossSite);
  if (isAdminPath(path) && !carriesAdminToken(req, guard.adminToken)) {
    return new Problem(
      401,
      "admin_token_required",
      `The /_sandbox admin routes need this run's admin token in the ${ADMIN_TOKEN_HEADER} ` +
        "header (harness sandbox prints it as admin_token; Sandbox.adminToken in code).",
    );
  }
  return null;
}

function isAdminPath(path: string): boolean {
  for (const model of [MODEL_PATH, ANTHROPIC_MODEL_PATH]) {
    if (path === model || path.startsWith(`${model}/`)) return false;
  }
  return path === "/_sandbox" || path.startsWith("/_sandbox/");
}
