#!/usr/bin/env bash
# Installs everything the playground needs on a fresh Debian bookworm machine, and skips what is
# already there. Called by `npm start` and `npm test` (and so by .ci/run); safe to run again.
#   - apt packages: curl (for the download below), compilers (g++; clang-14 with its sanitizer and libFuzzer runtimes), Emscripten,
#     doctest, clang-format (the C++ format check); Chromium and Firefox ESR + a CJK font for the
#     browser tests; Python 3 with NumPy (Debian's /usr/bin/python3) to run the NumPy export in the tests
#   - xsimd 13.2 headers from Debian trixie, unpacked into build/deps (never installed system-wide:
#     bookworm's xsimd 8.1 has no wasm backend)
#   - npm packages of package.json
# `bash scripts/bootstrap.sh system` does the first two only (what the C++ and wasm builds need),
# `bash scripts/bootstrap.sh npm` the last (what the page's build and the tests need): npm start
# installs the npm packages while the wasm modules compile.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DEPS="$ROOT/build/deps"
PART=${1:-all}
case "$PART" in
  all | system | npm) ;;
  *) echo "scripts/bootstrap.sh: unknown part '$PART' (all, system, npm)" >&2; exit 2 ;;
esac

say() { printf '[bootstrap] %s\n' "$*"; }

# --- Node ---------------------------------------------------------------------------------------
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 18 ]; then
  say "Node.js >= 18 is needed (found: $(node --version 2>/dev/null || echo none))."
  say "On Debian bookworm: install Node 20 from your usual source, then run this again."
  exit 1
fi

if [ "$PART" != npm ]; then
# --- apt packages -------------------------------------------------------------------------------
APT_PACKAGES=(curl g++ cmake make emscripten doctest-dev chromium firefox-esr fonts-noto-cjk python3 python3-numpy clang-14 libclang-rt-14-dev clang-format)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""
  elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"
  else
    say "Missing Debian packages: ${missing[*]}"
    say "Run as root:  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
    exit 1
  fi
  say "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- xsimd 13 from trixie (header-only) into build/deps/xsimd -----------------------------------
# Pinned: this exact package, checked by its sha256, so that every machine builds against the same
# headers (docs/toolchain.md says why trixie's). A new Debian revision of it means updating both
# lines below after checking the new headers build and pass the tests.
XSIMD_VERSION=13.2.0-1
declare -A XSIMD_SHA256=([amd64]=60878acfc02bfca76e8c31d53a1b9fdff490c319e53f620f4327c9786eaf631f)
XSIMD_STAMP="$DEPS/xsimd/VERSION"
if [ ! -f "$DEPS/xsimd/include/xsimd/xsimd.hpp" ] || [ "$(cat "$XSIMD_STAMP" 2>/dev/null)" != "$XSIMD_VERSION" ]; then
  arch=$(dpkg --print-architecture)
  want=${XSIMD_SHA256[$arch]:-}
  if [ -z "$want" ]; then
    say "no pinned sha256 of libxsimd-dev $XSIMD_VERSION for $arch; add it to scripts/bootstrap.sh"
    exit 1
  fi
  say "fetching xsimd $XSIMD_VERSION headers (Debian trixie libxsimd-dev) into build/deps/xsimd"
  # Straight from the pool of the system's own Debian mirror: the pinned sha256 above is what
  # vouches for the file, so no trixie package list is needed (fetching one took ~20 s).
  uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '/^deb / && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list)
  D="$DEPS/xsimd-download"; rm -rf "$D"; mkdir -p "$D"
  deb="$D/libxsimd-dev_${XSIMD_VERSION}_$arch.deb"
  url="${uri%/}/pool/main/x/xsimd/$(basename "$deb")"
  curl -fsSL --retry 2 -o "$deb" "$url" || { say "could not download $url"; exit 1; }
  got=$(sha256sum "$deb" | cut -d' ' -f1)
  if [ "$got" != "$want" ]; then
    say "libxsimd-dev $XSIMD_VERSION has sha256 $got, expected $want: refusing it"
    exit 1
  fi
  rm -rf "$D/root"; dpkg -x "$deb" "$D/root"
  mkdir -p "$DEPS/xsimd"; rm -rf "$DEPS/xsimd/include"
  cp -r "$D/root/usr/include" "$DEPS/xsimd/include"
  rm -rf "$D"
  grep -q wasm "$DEPS/xsimd/include/xsimd/config/xsimd_arch.hpp" || { say "xsimd without wasm backend"; exit 1; }
  echo "$XSIMD_VERSION" > "$XSIMD_STAMP"
fi

fi

if [ "$PART" != system ]; then
# --- npm ----------------------------------------------------------------------------------------
if [ ! -d node_modules ] || [ package.json -nt node_modules/.bootstrap-stamp ] || { [ -f package-lock.json ] && [ package-lock.json -nt node_modules/.bootstrap-stamp ]; }; then
  say "installing npm packages"
  if [ -f package-lock.json ]; then npm ci --prefer-offline --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
  touch node_modules/.bootstrap-stamp
fi
fi
say "ready ($PART)"
