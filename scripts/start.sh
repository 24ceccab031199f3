#!/usr/bin/env bash
# `npm start`: install what is missing, build what changed, serve the playground on localhost and
# print its URL. PORT=9000 npm start picks another port.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/build.sh
exec node scripts/serve.mjs build/web --port "${PORT:-8080}"
