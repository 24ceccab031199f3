// The entry of the self-contained builds (dist/attention-playground.html and dist/site/): the three
// .wasm builds travel inside the bundle as base64 text (the SIMD ones gzipped), and so do the
// KaTeX fonts the formulas use, so the page needs no request at all — from file://, in a
// sandboxed iframe, offline. Only the .wasm build the browser runs is decoded.
import wasm from 'inline-wasm'; // { relaxed, simd, scalar: { gzip, base64 } }, made by scripts/build-dist.mjs
import fonts from 'inline-fonts'; // [{ family, weight, style, base64 }], made by scripts/build-dist.mjs
import { start } from './app.js';

const decode = (base64) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
const gunzip = async (bytes) =>
  new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer(),
  );
// A browser without DecompressionStream is offered the scalar build alone (engine.js picks among
// the builds it is given).
const canInflate = typeof DecompressionStream === 'function';
const binaries = Object.fromEntries(
  Object.entries(wasm)
    .filter(([, { gzip }]) => canInflate || !gzip)
    .map(([build, { gzip, base64 }]) => [build, () => (gzip ? gunzip(decode(base64)) : decode(base64))]),
);

// Fonts from bytes: no URL, so nothing is fetched (and CSP's font-src does not apply).
for (const { family, weight, style, base64 } of fonts)
  document.fonts.add(new FontFace(family, decode(base64), { weight, style }));

start({ binaries });
