// The entry of the self-contained builds (dist/attention-playground.html and dist/site/): the
// SIMD128 and scalar .wasm builds travel inside the bundle as base64 text (esbuild's base64
// loader), and so do the KaTeX fonts the formulas use, so the page needs no request at all — from
// file://, in a sandboxed iframe, offline. Only the .wasm build the browser runs is decoded.
// Both builds travel gzipped (scripts/build-dist.mjs writes them; about a third of their size) and
// the one the browser runs is inflated by the browser's own DecompressionStream, or, where there is
// none (Firefox 89–112, Safari < 16.4), by fflate's inflate in JS (a few kB of the bundle; carried
// as they are, the two builds would not fit the file's budget). The relaxed-SIMD build is not
// carried: its fused multiply–add speeds up only the cost lab's timings, not the steps.
import simdGzip from '../../build/wasm/attention_core.wasm.gz';
import scalarGzip from '../../build/wasm/attention_core_scalar.wasm.gz';
import { gunzipSync } from 'fflate';
import fonts from 'inline-fonts'; // [{ family, weight, style, base64 }], made by scripts/build-dist.mjs
import { start } from './app.js';

// base64 → bytes, one charCodeAt per byte in a plain loop: Uint8Array.from(text, mapFn) calls a
// function per byte, 1.5–4× slower in Chromium on the fonts and the .wasm (≈ 0.26 MB of text at start-up).
function decode(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

// Fonts from bytes: no URL, so nothing is fetched (and CSP's font-src does not apply).
for (const { family, weight, style, base64 } of fonts)
  document.fonts.add(new FontFace(family, decode(base64), { weight, style }));

/** gzip's bytes inflated, in the browser (no request: the stream is made from the bytes). */
async function gunzip(bytes) {
  if (typeof DecompressionStream !== 'function') return gunzipSync(bytes);
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

const binaries = { simd: () => gunzip(decode(simdGzip)), scalar: () => gunzip(decode(scalarGzip)) };
start({ binaries });
