#!/usr/bin/env bash
# Builds the playground in stages, each incremental (a second run only rebuilds what changed):
#   native      the native core, its doctest suite and the native benchmark (build/native)
#   sanitize    the same with ASan + UBSan, and the libFuzzer targets (clang-14, build/sanitize)
#   wasm        the three wasm modules the page loads, relaxed SIMD, SIMD128 and scalar (build/wasm-cmake → build/wasm/)
#   wasm-tests  the doctest suite compiled to wasm, SIMD128, scalar and relaxed SIMD (build/wasm-cmake)
#   web         the development page (build/web/, what `npm start` serves)
#   dist        what ships (dist/: the offline file and the hosted site)
# `bash scripts/build.sh` builds every stage (npm run build); naming stages builds only
# those, in the order above: `bash scripts/build.sh page` (= wasm web dist) is what `npm start`
# builds. Run scripts/bootstrap.sh first (npm start / npm test do).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten finds acorn there (docs/toolchain.md, pitfall 1)
JOBS=$(nproc 2>/dev/null || echo 2)

STAGES=(native sanitize wasm wasm-tests web dist)
declare -A ALIASES=([all]="${STAGES[*]}" [page]="wasm web dist")
declare -A wanted=()
[ $# -gt 0 ] || set -- all
for arg in "$@"; do
  for s in ${ALIASES[$arg]:-$arg}; do
    if [[ " ${STAGES[*]} " != *" $s "* ]]; then
      echo "scripts/build.sh: unknown stage '$s' (stages: ${STAGES[*]}; or all, page)" >&2
      exit 2
    fi
    wanted[$s]=1
  done
done
want() { [ -n "${wanted[$1]:-}" ]; }

step() { printf '[build] %s\n' "$*"; }
# Runs a build step with its output in a log, and shows how it goes: CMake's own progress lines
# ("[ 40%] Building CXX object …") as they come, and a line every 20 s while nothing new has come
# (one compile or link can take a minute on a busy machine). On failure shows the log and stops.
watched() {
  local log=$1; shift
  local started=$SECONDS last=$SECONDS shown=0 lines pid
  # In a process group of its own, so that Ctrl+C (or npm stopping us) ends the whole build: a
  # background job of a script ignores SIGINT, and so would the compilers it starts.
  setsid "$@" > "$log" 2>&1 &
  pid=$!
  trap 'kill -TERM -- "-$pid" 2>/dev/null; exit 130' INT TERM
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    lines=$(wc -l < "$log")
    if [ "$lines" -gt "$shown" ]; then
      if sed -n "$((shown + 1)),${lines}p" "$log" | grep -E '^\[ *[0-9]+%\] (Building|Linking)' \
        | sed -E 's#CMakeFiles/##; s#\.dir/#: #; s#^#[build]   #'; then
        last=$SECONDS
      fi
      shown=$lines
    fi
    if [ $((SECONDS - last)) -ge 20 ]; then
      step "  still working ($((SECONDS - started)) s so far; log: $log)"
      last=$SECONDS
    fi
  done
  trap - INT TERM
  wait "$pid" || { cat "$log"; step "failed: $*"; exit 1; }
}
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
# configure DIR LOG ARGS…: configures a CMake build folder once.
configure() {
  local dir=$1 log=$2; shift 2
  fresh_if_moved "$dir"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    step "  configuring $dir"
    watched "$log" "$@"
  else
    # Regenerate now if CMakeLists.txt changed: a build of one named target (wasm_modules) would
    # otherwise stop at "no rule to make target" before CMake looks at a new target.
    cmake "$dir" > "$log" 2>&1 || { cat "$log"; echo "[build] failed: cmake $dir"; exit 1; }
  fi
}

if want native; then
  step "native core and tests (build/native)"
  configure build/native build/native-configure.log cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release
  watched build/native-build.log cmake --build build/native -j "$JOBS"
fi

if want sanitize; then
  step "core and tests with ASan + UBSan, fuzz targets (clang-14, build/sanitize)"
  # RelWithDebInfo: optimised like what ships, with line numbers in the sanitizers' reports.
  configure build/sanitize build/sanitize-configure.log \
    cmake -S . -B build/sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DATTN_SANITIZE=ON \
    -DCMAKE_CXX_COMPILER=clang++-14
  watched build/sanitize-build.log cmake --build build/sanitize -j "$JOBS"
fi

if want wasm || want wasm-tests; then
  # emcmake's default test emulator passes a flag Node 20 rejects (docs/toolchain.md, pitfall 4).
  configure build/wasm-cmake build/wasm-configure.log \
    emcmake cmake -S . -B build/wasm-cmake -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)"
fi
if want wasm; then
  step "wasm modules, relaxed SIMD, SIMD128 and scalar (build/wasm)"
  watched build/wasm-build.log cmake --build build/wasm-cmake -j "$JOBS" --target wasm_modules
fi
if want wasm-tests; then
  step "doctest suite compiled to wasm, SIMD128, scalar and relaxed SIMD (build/wasm-cmake)"
  watched build/wasm-tests-build.log cmake --build build/wasm-cmake -j "$JOBS"
fi

if want web; then
  step "development page (build/web)"
  node scripts/build-web.mjs
fi
if want dist; then
  step "offline file and hosted site (dist)"
  node scripts/build-dist.mjs
fi
step "done: $*"
