/**
 * The orphan guard for stdio servers. A server must not outlive its wake — not even when the
 * wake is SIGKILLed and runs no cleanup at all. Deno cannot set `PR_SET_PDEATHSIG` itself, and
 * a server is free to ignore stdin EOF (server-everything keeps timers alive) or to fork
 * helpers of its own, so neither is enough. Instead every stdio server starts as:
 *
 * ```
 * Deno.Command("/bin/sh", { args: ["-c", SUPERVISOR, "harness-mcp", command, ...args],
 *                           detached: true })        // detached = setsid(): a fresh group
 * ```
 *
 * The shell forks one tiny watchdog into the background and then `exec`s the server in its own
 * place, so the server keeps the shell's pid, stdin and stdout, and it, the watchdog and every
 * helper the server forks share one process group the harness does not belong to (a signal
 * aimed at the wake's group cannot take the watchdog down with it). The watchdog polls the
 * server's parent pid in `/proc` (builtins only; one `sleep` per tick): the kernel reparents the
 * server the moment the harness dies, zombie or not, and then the watchdog sends SIGTERM to the
 * whole group, waits a second and sends SIGKILL, itself included. Without `/proc` it falls back
 * to `kill -0` on the harness's pid. A normal close kills the group from the harness side.
 *
 * Only `/bin/sh` (POSIX) is needed: it works the same from source, from the compiled binary and
 * in CI, and the server itself is never run through a shell (its argv is passed as `"$@"`).
 */

/** Seconds between the watchdog's checks: the worst-case delay before an orphan is killed. */
export const WATCHDOG_TICK_SECONDS = 0.2;

/** The supervisor program, run by `/bin/sh -c`. `$0` is a label, `"$@"` the server's argv. */
export const SUPERVISOR = `
parent=$PPID
(
  trap '' TERM HUP INT
  while :; do
    if [ -r /proc/$$/stat ]; then
      read -r stat < /proc/$$/stat || break
      set -- \${stat##*) }
      [ "$2" = "$parent" ] || break
    elif [ -d /proc/self ]; then
      break
    else
      kill -0 "$parent" 2>/dev/null || break
    fi
    sleep ${WATCHDOG_TICK_SECONDS}
  done
  kill -TERM 0 2>/dev/null
  sleep 1
  kill -KILL 0 2>/dev/null
) </dev/null >/dev/null 2>&1 &
exec "$@"
`;

/** The `$0` label the supervisor runs under (visible in `ps` before the exec). */
export const SUPERVISOR_LABEL = "harness-mcp-supervisor";
