#!/usr/bin/env bash
# bench/run.sh — the benchmark (`npm run bench` runs it after scripts/bootstrap.sh and
# scripts/build.sh). Writes bench/results.md and bench/results.json.
#   bench/run.sh [--node | --browser] [--runs N] [--quick] [--break=ID]
#     default     both environments, 3 full runs each (alternating Node and Chromium, so that a
#                 noisy spell on this shared machine hits both), reported as medians across runs
#     --node      only Node;  --browser  only Debian's Chromium (with page latency)
#     --runs N    N full runs per environment (the report's medians need ≥ 3)
#     --quick     a short smoke run (1 run, 5 samples per size, no n = 16384)
#     --break=ID  a check of the correctness gate: implementation ID gets a wrong Q and must be
#                 reported as failed (best with --quick)
#   A quick or --break run writes its report to build/bench/check/, never over the committed
#   bench/results.md.
# Steps:
#   1. installs the peers (TensorFlow.js, onnxruntime-web) from bench/package.json into
#      bench/node_modules on first run — npm start / npm test never download them;
#   2. builds the wasm mul+add peak for Node and for the page (build/bench/peak.cjs,
#      peak-web.mjs) and runs the native bench (build/native/bench_native, CMake Release:
#      -O3 -march=native) → build/bench/native.json;
#   3. the runs: bench/harness.mjs (Node, one process per run) and bench/browser/run.mjs (one
#      fresh Chromium per run) → build/bench/runs/{node,browser}-<i>.json;
#   4. bench/report.mjs → results.md, results.json (medians across the runs, each run's ratio);
#      with Node, bench/efficiency-paths.mjs → efficiency-paths.md (issue 30: attentionTiled
#      against attentionStreaming, attentionDecode per token, attentionWindow against causal);
#      with the Node part, linear attention's crossover n* at d = 16 and 64 over the same number
#      of runs (bench/linear-crossover.mjs → linear-crossover.md, .json);
#   5. a full run's training part (issue 17, item 7): TensorFlow.js with its gradients and the labs'
#      Worker bundled (bench/training-bundle.mjs), training steps per second in Node
#      (bench/training.mjs) and in Chromium's labs' Worker (bench/browser/training-run.mjs, with the
#      time to learn reverse and the page answering while it trains), against TensorFlow.js
#      → bench/training.md (bench/training-report.mjs); about 4 min on an idle machine;
#   6. with the browser part of a full run: the page's edit → re-render latency
#      (bench/ui-latency.mjs → bench/ui-latency.md), and how fast the page answers during a
#      cost-lab run, how steady the lab's slopes are and the soak's slowest click
#      (bench/responsiveness.mjs → bench/responsiveness.md).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emscripten 3.1.6 needs acorn, which Debian installs in /usr/share/nodejs, outside
# Node's default search path.
export NODE_PATH=/usr/share/nodejs
NODE_RUNS=1 BROWSER_RUNS=1 RUNS=3 QUICK="" BREAK=""
while [ $# -gt 0 ]; do
  case "$1" in
    --node) BROWSER_RUNS=0 ;;
    --browser) NODE_RUNS=0 ;;
    --quick) QUICK="--quick" ;;
    --runs) RUNS="$2"; shift ;;
    --break=*) BREAK="$1" ;;
    *) echo "bench/run.sh: unknown option $1 (--node, --browser, --runs N, --quick, --break=ID)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$QUICK" ] && [ "$RUNS" = 3 ] && RUNS=1
step() { printf '[bench] %s\n' "$*" >&2; }
started=$(date +%s)

if [ ! -d bench/node_modules/onnxruntime-web ] || [ ! -d bench/node_modules/@tensorflow/tfjs-backend-wasm ] ||
  [ ! -d bench/node_modules/@tensorflow/tfjs-backend-cpu ]; then
  step "installing the peers into bench/node_modules (once)"
  npm ci --prefix bench --no-audit --no-fund >&2
fi

mkdir -p build/bench
peak_flags=(-O3 -msimd128 bench/wasm/peak.cpp -sMODULARIZE=1 -sEXPORT_NAME=createPeak -sSINGLE_FILE=1
  -sEXPORTED_FUNCTIONS=_peak_gflops)
if [ ! -f build/bench/peak.cjs ] || [ bench/wasm/peak.cpp -nt build/bench/peak.cjs ]; then
  step "wasm mul+add peak for Node (em++ -O3 -msimd128) → build/bench/peak.cjs"
  em++ "${peak_flags[@]}" -o build/bench/peak.cjs -sENVIRONMENT=node
fi
if [ ! -f build/bench/peak-web.mjs ] || [ bench/wasm/peak.cpp -nt build/bench/peak-web.mjs ]; then
  # an ES module for the page; Emscripten 3.1.6 cannot build one module for both Node and the web
  step "wasm mul+add peak for the page → build/bench/peak-web.mjs"
  em++ "${peak_flags[@]}" -o build/bench/peak-web.mjs -sENVIRONMENT=web -sEXPORT_ES6=1
fi
# The relaxed-SIMD peak: the same chains with one f32x4.relaxed_madd each (bench/wasm/peak.cpp).
relax=(node --experimental-wasm-relaxed-simd scripts/relax-module.mjs)
if [ ! -f build/bench/peak-relaxed.cjs ] || [ bench/wasm/peak.cpp -nt build/bench/peak-relaxed.cjs ]; then
  step "wasm relaxed-SIMD madd peak for Node → build/bench/peak-relaxed.cjs"
  em++ "${peak_flags[@]}" -mrelaxed-simd -o build/bench/peak-relaxed.cjs -sENVIRONMENT=node
  "${relax[@]}" build/bench/peak-relaxed.cjs >&2
fi
if [ ! -f build/bench/peak-relaxed-web.mjs ] || [ bench/wasm/peak.cpp -nt build/bench/peak-relaxed-web.mjs ]; then
  step "wasm relaxed-SIMD madd peak for the page → build/bench/peak-relaxed-web.mjs"
  em++ "${peak_flags[@]}" -mrelaxed-simd -o build/bench/peak-relaxed-web.mjs -sENVIRONMENT=web -sEXPORT_ES6=1
  "${relax[@]}" build/bench/peak-relaxed-web.mjs >&2
fi

if [ ! -x build/native/bench_native ]; then
  # bench/native/*.cpp is globbed at configure time: a build dir configured before it existed
  # needs one more configure
  cmake -S . -B build/native > /dev/null
  cmake --build build/native --target bench_native -j "$(nproc 2>/dev/null || echo 2)" >&2
fi

if [ -n "$QUICK$BREAK" ]; then OUT=build/bench/check DIR=build/bench/runs-check; else OUT=bench DIR=build/bench/runs; fi
rm -rf "$DIR" && mkdir -p "$DIR"
step "native core (build/native/bench_native) → $DIR/native.json"
./build/native/bench_native $QUICK > "$DIR/native.json"

for i in $(seq 1 "$RUNS"); do
  if [ "$NODE_RUNS" = 1 ]; then
    step "run $i/$RUNS: Node (bench/harness.mjs), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    extra=""
    [ "$i" = 1 ] && [ -z "$QUICK$BREAK" ] && extra="--streaming-large"
    # Node 20 runs the relaxed-SIMD build and peak only with this V8 flag
    node --expose-gc --experimental-wasm-relaxed-simd bench/harness.mjs --out "$DIR/node-$i.json" $QUICK $BREAK $extra
  fi
  if [ "$BROWSER_RUNS" = 1 ]; then
    step "run $i/$RUNS: Chromium (bench/browser/run.mjs), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    node bench/browser/run.mjs --out "$DIR/browser-$i.json" $QUICK $BREAK
  fi
done

step "report (bench/report.mjs) → $OUT/results.md"
node bench/report.mjs --runs "$DIR" --out "$OUT" > /dev/null

if [ "$NODE_RUNS" = 1 ]; then
  step "efficiency paths (issue 30): tiles, decoding, a window, $RUNS runs (bench/efficiency-paths.mjs) → $OUT/efficiency-paths.md"
  node bench/efficiency-paths.mjs --runs "$RUNS" --out "$OUT" $QUICK > /dev/null
fi

if [ "$NODE_RUNS" = 1 ] && [ -z "$BREAK" ]; then
  step "linear attention's crossover n* at d = 16, 64, $RUNS runs (bench/linear-crossover.mjs) → $OUT/linear-crossover.md"
  node bench/linear-crossover.mjs --runs "$RUNS" --out "$OUT" $QUICK > /dev/null
fi

if [ -z "$QUICK$BREAK" ]; then
  step "training: TensorFlow.js with its gradients and the labs' Worker, bundled (bench/training-bundle.mjs)"
  node bench/training-bundle.mjs
  rm -rf build/bench/training
  if [ "$NODE_RUNS" = 1 ]; then
    step "training in Node, $RUNS runs (bench/training.mjs), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    node bench/training.mjs --runs "$RUNS"
  fi
  if [ "$BROWSER_RUNS" = 1 ]; then
    step "training in Chromium's labs' Worker, $RUNS runs (bench/browser/training-run.mjs), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    node bench/browser/training-run.mjs --runs "$RUNS"
  fi
  step "training report (bench/training-report.mjs) → bench/training.md"
  node bench/training-report.mjs > /dev/null
fi

if [ "$BROWSER_RUNS" = 1 ] && [ -z "$QUICK$BREAK" ]; then
  step "page latency in Debian's chromium (bench/ui-latency.mjs) → bench/ui-latency.md"
  node bench/ui-latency.mjs
  step "responsiveness during a cost-lab run, its slopes, the soak's clicks (bench/responsiveness.mjs) → bench/responsiveness.md"
  node bench/responsiveness.mjs > /dev/null
fi
step "done in $(( $(date +%s) - started )) s: $OUT/results.md"
