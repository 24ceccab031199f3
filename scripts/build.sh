#!/usr/bin/env bash
# Builds everything: the native core + tests (build/native), the wasm modules + wasm tests
# (build/wasm-cmake → build/wasm/), then the page (build/web/). Incremental: a second run only
# rebuilds what changed. Run scripts/bootstrap.sh first (npm start / npm test do).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there (TOOLCHAIN.md, pitfall 1)
JOBS=$(nproc 2>/dev/null || echo 2)

step() { printf '[build] %s\n' "$*"; }

step "native core and tests (build/native)"
if [ ! -f build/native/CMakeCache.txt ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release > build/native-configure.log 2>&1 \
    || { cat build/native-configure.log; exit 1; }
fi
cmake --build build/native -j "$JOBS" 2>&1 | grep -Ev '^\[ *[0-9]+%\]|^-- |Consolidate compiler' || true
test "${PIPESTATUS[0]}" -eq 0

step "wasm modules, SIMD128 and scalar (build/wasm)"
if [ ! -f build/wasm-cmake/CMakeCache.txt ]; then
  # emcmake's default test emulator passes a flag Node 20 rejects (TOOLCHAIN.md, pitfall 4).
  emcmake cmake -S . -B build/wasm-cmake -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" > build/wasm-configure.log 2>&1 \
    || { cat build/wasm-configure.log; exit 1; }
fi
cmake --build build/wasm-cmake -j "$JOBS" 2>&1 | grep -Ev '^\[ *[0-9]+%\]|^-- |Consolidate compiler' || true
test "${PIPESTATUS[0]}" -eq 0

if [ -f scripts/build-web.mjs ]; then
  step "page (build/web)"
  node scripts/build-web.mjs
fi
step "done"
