/**
 * Where the page may be served. It has no login: whoever reaches it posts as the human and reads
 * every wake's journal. So it listens on loopback unless the operator says otherwise, explicitly.
 */

/** Whether `host` names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Why `host` is refused, or null when it may be served: a non-loopback host needs
 * `allowRemote`.
 */
export function hostRefusal(host: string, allowRemote: boolean): string | null {
  if (host.trim() === "") return "--host is empty";
  if (isLoopback(host) || allowRemote) return null;
  return `--host ${host} is not a loopback address, and the playground has no login: anyone ` +
    "who reaches it could post as the human and read the agents' journals. Add --allow-remote " +
    "to serve it there anyway";
}

/** The warning printed when the page is served beyond loopback. */
export function remoteWarning(host: string): string {
  return `playground warning: serving on ${host} beyond loopback; anyone who can reach this ` +
    "address can post as the human and read every wake's journal — there is no login.";
}
