#!/bin/sh
# Builds the single binary dist/harness: the CLI with its defaults embedded and the production
# permission set ("harness" in deno.json) baked in, passed as explicit --allow-*/--deny-* flags
# (deploy/permissions.ts), not -P, which Deno 2.9 still calls experimental. Deno needs its small
# `denort` runtime to do this: it downloads it once on a machine with internet access, or uses
# DENORT_BIN when set.
# Extra arguments go to `deno compile` (e.g. --target aarch64-unknown-linux-gnu).
set -u
cd "$(dirname "$0")/.." || exit 1

if [ -n "${DENORT_BIN:-}" ] && [ ! -x "$DENORT_BIN" ]; then
  echo "compile: DENORT_BIN is set to '$DENORT_BIN', which is not an executable file." >&2
  echo "compile: point it at an unpacked denort for Deno $(deno --version | head -1 | cut -d' ' -f2)," >&2
  echo "compile: or unset it to let Deno download the runtime." >&2
  exit 1
fi

# The binary is compiled from the bundle (deploy/bundle.ts): main.js, one entry per lazily
# imported module and the chunks they share, with npm packages inlined. Deno cannot see the lazy
# imports ahead of time, so every .js file of the bundle is named with --include.
deno run -A deploy/bundle.ts --outdir dist/bundle || exit 1
includes=""
for module in $(cd dist && find bundle -name '*.js' | sort); do includes="$includes --include dist/$module"; done

# One flag per line; `set -f` because an IPv6 deny entry such as [::1] is a glob pattern to sh.
permissions=$(deno run -A deploy/permissions.ts --print | tr '\n' ' ') || exit 1
[ -n "$permissions" ] || { echo "compile: deno.json has no harness permission set." >&2; exit 1; }
set -f

mkdir -p dist
log=$(mktemp)
# shellcheck disable=SC2086 # $permissions and $includes are lists of flags
if deno compile $permissions --config dist/bundle/deno.json $includes -o dist/harness "$@" \
  dist/bundle/main.js 2>"$log"; then
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
