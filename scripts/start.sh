#!/usr/bin/env bash
# `npm start`: install what is missing, build what the page needs — the wasm modules, the page and
# dist/ (the embed snippet points at its hosted site); not the native, sanitizer, fuzz or wasm test
# builds, which `npm test` adds — then serve the playground on localhost and print its URL.
# PORT=9000 npm start picks another port.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
bash scripts/bootstrap.sh system
# The npm packages download while the wasm modules compile: the one waits on the network, the
# other on the processor, and only the page's build needs the packages.
setsid bash scripts/bootstrap.sh npm &
npm_pid=$!
# A background job ignores Ctrl+C: end it (its process group: npm too) with the build, whichever
# way the build ends.
trap 'kill -TERM -- "-$npm_pid" 2>/dev/null || true' EXIT
bash scripts/build.sh wasm
wait "$npm_pid"
trap - EXIT
bash scripts/build.sh web dist
echo "[start] built in $((SECONDS - started)) s"
exec node scripts/serve.mjs build/web --port "${PORT:-8080}"
