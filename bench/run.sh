#!/usr/bin/env bash
# bench/run.sh — the benchmark (`npm run bench` runs it after scripts/bootstrap.sh and
# scripts/build.sh). Writes bench/results.md and bench/results.json.
#   1. installs the peers (TensorFlow.js, onnxruntime-web) from bench/package.json into
#      bench/node_modules on first run — npm start / npm test never download them;
#   2. builds the wasm mul+add peak and runs the native bench (build/native/bench_native,
#      CMake Release: -O3 -march=native) → build/bench/;
#   3. runs the Node harness (bench/harness.mjs), one process;
#   4. measures the page: edit → re-rendered, in Debian's chromium (bench/ui-latency.mjs).
# Pass --quick for a short smoke run (fewer samples, no n = 16384).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there (TOOLCHAIN.md, pitfall 1)
QUICK=""
[ "${1:-}" = "--quick" ] && QUICK="--quick"
step() { printf '[bench] %s\n' "$*" >&2; }

if [ ! -d bench/node_modules/onnxruntime-web ] || [ ! -d bench/node_modules/@tensorflow/tfjs-backend-wasm ]; then
  step "installing the peers into bench/node_modules (once)"
  if [ -f bench/package-lock.json ]; then
    npm ci --prefix bench --no-audit --no-fund >&2
  else
    npm install --prefix bench --no-audit --no-fund >&2
  fi
fi

mkdir -p build/bench
if [ ! -f build/bench/peak.cjs ] || [ bench/wasm/peak.cpp -nt build/bench/peak.cjs ]; then
  step "wasm mul+add peak (em++ -O3 -msimd128) → build/bench/peak.cjs"
  em++ -O3 -msimd128 bench/wasm/peak.cpp -o build/bench/peak.cjs -sMODULARIZE=1 -sEXPORT_NAME=createPeak \
    -sENVIRONMENT=node -sSINGLE_FILE=1 -sEXPORTED_FUNCTIONS=_peak_gflops
fi

if [ ! -x build/native/bench_native ]; then
  # bench/native/*.cpp is globbed at configure time: a build dir configured before it existed
  # needs one more configure
  cmake -S . -B build/native > /dev/null
  cmake --build build/native --target bench_native -j "$(nproc 2>/dev/null || echo 2)" >&2
fi
step "native core (build/native/bench_native) → build/bench/native.json"
./build/native/bench_native $QUICK > build/bench/native.json

step "Node harness (bench/harness.mjs)"
node --expose-gc bench/harness.mjs $QUICK

step "page latency in Debian's chromium (bench/ui-latency.mjs) → bench/ui-latency.md"
node bench/ui-latency.mjs
