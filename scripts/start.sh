#!/usr/bin/env bash
# `npm start`: install what is missing, build what the page needs (the wasm modules, the page and
# dist/, whose hosted site the embed snippet points at; not the native, sanitizer, fuzz or wasm
# test builds, which `npm test` adds), serve the playground on localhost and print its URL.
# PORT=9000 npm start picks another port.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh page
exec node scripts/serve.mjs build/web --port "${PORT:-8080}"
