// node --experimental-wasm-relaxed-simd scripts/relax-module.mjs FILE…
// The last step of every relaxed-SIMD link (CMakeLists.txt, bench/run.sh): renames each prototype
// f32x4.qfma to f32x4.relaxed_madd (scripts/lib/relaxed-simd.mjs says why) in a .wasm file, or in
// the module that a -sSINGLE_FILE program (.cjs/.mjs) carries as a base64 data: URI, in place.
// Then it checks what it wrote: at least one instruction renamed (a relaxed build without a fused
// multiply–add would be the SIMD128 build under another name), and a module that this Node, run
// with the flag above, validates. A module that fails either check is removed, so that the build
// fails and stays failed rather than leaving a file no engine accepts.
import fs from 'node:fs';
import { renameQfmaToRelaxedMadd } from './lib/relaxed-simd.mjs';

const DATA_URI = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/;

function relax(bytes, file) {
  const { bytes: out, renamed } = renameQfmaToRelaxedMadd(bytes);
  if (renamed === 0) throw new Error(`${file}: no f32x4.qfma to rename; was it compiled with ATTN_RELAXED_SIMD?`);
  if (!WebAssembly.validate(out))
    throw new Error(
      `${file}: not valid relaxed-SIMD wasm after renaming (run this with --experimental-wasm-relaxed-simd)`,
    );
  return { out, renamed };
}

for (const file of process.argv.slice(2)) {
  try {
    let renamed;
    if (file.endsWith('.wasm')) {
      const r = relax(fs.readFileSync(file), file);
      fs.writeFileSync(file, r.out);
      renamed = r.renamed;
    } else {
      const text = fs.readFileSync(file, 'utf8');
      const match = text.match(DATA_URI);
      if (!match) throw new Error(`${file}: no embedded module (link it with -sSINGLE_FILE=1)`);
      const r = relax(Buffer.from(match[1], 'base64'), file);
      fs.writeFileSync(file, text.replace(match[1], Buffer.from(r.out).toString('base64')));
      renamed = r.renamed;
    }
    console.log(`relaxed SIMD: ${file}: ${renamed} f32x4.qfma renamed to f32x4.relaxed_madd`);
  } catch (error) {
    fs.rmSync(file, { force: true });
    console.error(error.message);
    process.exit(1);
  }
}
