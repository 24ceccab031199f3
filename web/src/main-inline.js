// The entry of the self-contained builds (dist/attention-playground.html and dist/site/): the
// SIMD128 and scalar .wasm builds travel inside the bundle as base64 text (esbuild's base64
// loader), and so do the KaTeX fonts the formulas use, so the page needs no request at all — from
// file://, in a sandboxed iframe, offline. Only the .wasm build the browser runs is decoded. The
// relaxed-SIMD build is not carried: a third base64 module would put the file over its 1.5 MB
// budget, and its fused multiply–add speeds up only the cost lab's timings, not the steps.
import simd from '../../build/wasm/attention_core.wasm';
import scalar from '../../build/wasm/attention_core_scalar.wasm';
import fonts from 'inline-fonts'; // [{ family, weight, style, base64 }], made by scripts/build-dist.mjs
import { start } from './app.js';

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

// Fonts from bytes: no URL, so nothing is fetched (and CSP's font-src does not apply).
for (const { family, weight, style, base64 } of fonts)
  document.fonts.add(new FontFace(family, decode(base64), { weight, style }));

start({ binaries: { simd: () => decode(simd), scalar: () => decode(scalar) } });
