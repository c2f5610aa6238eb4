#!/bin/sh
# Builds the single binary dist/harness: the CLI with its defaults embedded and the production
# permission set ("harness" in deno.json) baked in. Deno needs its small `denort` runtime to do
# this: it downloads it once on a machine with internet access, or uses DENORT_BIN when set.
# Extra arguments go to `deno compile` (e.g. --target aarch64-unknown-linux-gnu).
set -u
cd "$(dirname "$0")/.." || exit 1

if [ -n "${DENORT_BIN:-}" ] && [ ! -x "$DENORT_BIN" ]; then
  echo "compile: DENORT_BIN is set to '$DENORT_BIN', which is not an executable file." >&2
  echo "compile: point it at an unpacked denort for Deno $(deno --version | head -1 | cut -d' ' -f2)," >&2
  echo "compile: or unset it to let Deno download the runtime." >&2
  exit 1
fi

# Modules the CLI imports with lazyImport (lib/core/lazy_import.ts): Deno cannot see those
# imports ahead of time, so `deno compile` embeds them only when named here. Every subcommand of
# lib/cli/registry.ts and every other lazyImport target must be listed; a test keeps it complete
# (tests/cli/registry_compile.test.ts).
LAZY_MODULES="
lib/cli/wake.ts
lib/cli/poll.ts
lib/cli/version.ts
lib/cli/install.ts
lib/cli/resolved_config.ts
lib/cli/resolve.ts
lib/cli/cleanup.ts
lib/cli/records.ts
lib/cli/mcp.ts
lib/cli/sandbox.ts
lib/cli/demo.ts
lib/wake/wake.ts
lib/wake/engaged.ts
lib/gate/gate.ts
lib/gate/guardrails.ts
lib/config/installer.ts
lib/tools/shell.ts
lib/poll/mod.ts
lib/mcp/client.ts
"
includes=""
for module in $LAZY_MODULES; do includes="$includes --include $module"; done

mkdir -p dist
log=$(mktemp)
# shellcheck disable=SC2086 # $includes is a list of flags
if deno compile -P=harness --frozen $includes -o dist/harness "$@" main.ts 2>"$log"; then
  rm -f "$log"
  echo "compile: wrote dist/harness"
  exit 0
fi
cat "$log" >&2
if grep -q -e "dl.deno.land" -e "denort" -e "base binary" "$log"; then
  version=$(deno --version | head -1 | cut -d' ' -f2)
  cat >&2 <<MSG

compile: Deno could not get its denort runtime, which every compiled binary is built on.
compile: Either run this once on a machine that can reach dl.deno.land (Deno caches
compile: denort-<target>.zip under \$DENO_DIR/dl/release/v$version/), or download
compile: denort-<target>.zip for Deno $version elsewhere, unzip it, and run:
compile:   DENORT_BIN=/path/to/denort deno task compile
MSG
fi
rm -f "$log"
exit 1
