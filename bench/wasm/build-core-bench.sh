#!/usr/bin/env bash
# bench/wasm/build-core-bench.sh LABEL — core_bench.cpp (the core timed inside wasm) built as the
# relaxed-SIMD core is (-msimd128 -mrelaxed-simd, ATTN_RELAXED_SIMD=1, then
# scripts/relax-module.mjs) into one ES module for the page: build/bench/core-bench-relaxed-LABEL.mjs.
# The objects are kept (bench/wasm/core-bench.mk): a kernel change recompiles only what includes it.
# Build it once per kernel variant of the working tree (e.g. "old" on the last commit, "new" with
# the change), then compare the variants in Chromium with bench/kernel-ab.mjs.
set -euo pipefail
cd "$(dirname "$0")/../.."
label="${1:?usage: bash bench/wasm/build-core-bench.sh LABEL}"
[[ "$label" =~ ^[A-Za-z0-9_-]+$ ]] || { echo "LABEL: letters, digits, - and _ only" >&2; exit 2; }
export NODE_PATH=/usr/share/nodejs # Debian's emscripten 3.1.6 needs acorn from there
out="build/bench/core-bench-relaxed-$label.mjs"
mkdir -p build/bench
obj=build/bench/core-bench-obj
make -s -f bench/wasm/core-bench.mk -j "$(nproc 2>/dev/null || echo 2)" OBJ="$obj"
em++ -O3 -msimd128 -mrelaxed-simd "$obj"/*.o -o "$out" -sMODULARIZE=1 -sEXPORT_NAME=createCoreBench \
  -sEXPORT_ES6=1 -sENVIRONMENT=web -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2147483648 \
  -sEXPORTED_FUNCTIONS=_time_attention,_time_attention_min,_time_attention_batches
node --experimental-wasm-relaxed-simd scripts/relax-module.mjs "$out"
