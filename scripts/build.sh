#!/usr/bin/env bash
# Builds everything: the native core + tests (build/native), the wasm modules + wasm tests
# (build/wasm-cmake → build/wasm/), the development page (build/web/, what `npm start` serves),
# then what ships (dist/: the offline file and the hosted site). Incremental: a second run only
# rebuilds what changed. Run scripts/bootstrap.sh first (npm start / npm test do).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there (docs/toolchain.md, pitfall 1)
JOBS=$(nproc 2>/dev/null || echo 2)

step() { printf '[build] %s\n' "$*"; }
# Runs a build quietly into a log; on failure shows the log and stops.
quiet() { local log=$1; shift; "$@" > "$log" 2>&1 || { cat "$log"; echo "[build] failed: $*"; exit 1; }; }
mkdir -p build

# A build folder that came with a moved or copied checkout still names the old source folder in its
# cache: CMake would refuse it, or quietly build the old checkout's sources. Start such a folder afresh.
fresh_if_moved() {
  local cache="$1/CMakeCache.txt"
  if [ -f "$cache" ] && ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$PWD" "$cache"; then
    step "$1 was configured for another checkout: configuring it afresh"
    rm -rf "$1"
  fi
}

step "native core and tests (build/native)"
fresh_if_moved build/native
[ -f build/native/CMakeCache.txt ] || quiet build/native-configure.log \
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
quiet build/native-build.log cmake --build build/native -j "$JOBS"

step "wasm modules, SIMD128 and scalar (build/wasm)"
fresh_if_moved build/wasm-cmake
# emcmake's default test emulator passes a flag Node 20 rejects (docs/toolchain.md, pitfall 4).
[ -f build/wasm-cmake/CMakeCache.txt ] || quiet build/wasm-configure.log \
  emcmake cmake -S . -B build/wasm-cmake -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)"
quiet build/wasm-build.log cmake --build build/wasm-cmake -j "$JOBS"

step "development page (build/web)"
node scripts/build-web.mjs
step "offline file and hosted site (dist)"
node scripts/build-dist.mjs
step "done"
