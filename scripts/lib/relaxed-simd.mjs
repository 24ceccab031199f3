// relaxed-simd.mjs — turns the relaxed-SIMD module that Emscripten 3.1.6 links into one that
// today's engines accept (docs/toolchain.md, "Relaxed SIMD").
//
// Debian's Emscripten 3.1.6 (clang 14, binaryen 108) knows fused multiply–add only as the
// relaxed-SIMD *prototype* `f32x4.qfma`, opcode 0xfd 0xaf 0x01, which engines have refused since
// the proposal was finalised as `f32x4.relaxed_madd`, opcode 0xfd 0x85 0x02. The two take three
// f32x4 operands from the stack and differ in which two they multiply: qfma(a, b, c) = a + b·c,
// relaxed_madd(a, b, c) = a·b + c. The core's one call site (`madd` in core/madd.hpp)
// therefore passes its operands in relaxed_madd's order, and this pass renames each qfma
// instruction to relaxed_madd, so that the module computes a·b + c.
//
// It renames instructions, never byte patterns: every function body is decoded instruction by
// instruction, so an immediate, a constant or a data segment that happens to hold the bytes
// fd af 01 is left alone. The two encodings have the same length, so no offset, size or branch
// target moves. An instruction it does not know stops the build; so does, afterwards, a module
// that an engine with relaxed SIMD does not validate (scripts/relax-module.mjs), which is how any
// other prototype instruction would show.

const PROTOTYPE_QFMA_F32X4 = 0xaf; // after the 0xfd prefix: f32x4.qfma (prototype, a + b·c)
const RELAXED_MADD_F32X4 = [0x85, 0x02]; // f32x4.relaxed_madd (final, a·b + c), LEB128 of 0x105
// MVP instructions without immediates: control (unreachable, nop, else, end, return), drop,
// select, every numeric instruction (with sign extension, 0xc0–0xc4) and ref.is_null.
const NO_IMMEDIATES = (op) =>
  [0x00, 0x01, 0x05, 0x0b, 0x0f, 0x1a, 0x1b, 0xd1].includes(op) || (op >= 0x45 && op <= 0xc4);

class Reader {
  constructor(bytes, pos = 0) {
    this.bytes = bytes;
    this.pos = pos;
  }
  byte() {
    if (this.pos >= this.bytes.length) throw new Error('relaxed-simd: unexpected end of module');
    return this.bytes[this.pos++];
  }
  skip(n) {
    this.pos += n;
  }
  // Unsigned and signed LEB128; only their length matters here, and the unsigned value.
  u32() {
    let result = 0,
      shift = 0,
      b;
    do {
      b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return result;
  }
  sleb() {
    let b;
    do b = this.byte();
    while (b & 0x80);
  }
}

// Immediates after the 0xfd prefix, by opcode (the SIMD proposal's instruction table).
function skipSimdImmediates(r, op) {
  const memarg = () => (r.u32(), r.u32());
  if (op <= 11 || op === 92 || op === 93)
    memarg(); // loads, load-splat/extend, store, load-zero
  else if (op === 12 || op === 13)
    r.skip(16); // v128.const, i8x16.shuffle
  else if (op >= 21 && op <= 34)
    r.skip(1); // extract_lane / replace_lane
  else if (op >= 84 && op <= 91) (memarg(), r.skip(1)); // load/store lane
  // every other SIMD instruction has no immediate
}

// Immediates after the 0xfc prefix (saturating truncation, bulk memory, tables).
function skipMiscImmediates(r, op) {
  if (op <= 7) return;
  if (op === 8) (r.u32(), r.skip(1));
  else if (op === 10) r.skip(2);
  else if (op === 11) r.skip(1);
  else if (op === 9 || op === 13 || op === 15 || op === 16 || op === 17) r.u32();
  else if (op === 12 || op === 14) (r.u32(), r.u32());
  else throw new Error(`relaxed-simd: unknown 0xfc instruction ${op}`);
}

// Skips the immediates of MVP opcode `op` (and of reference types' ref.null and ref.func).
function skipImmediates(r, op) {
  if (NO_IMMEDIATES(op)) return;
  if (op === 0x02 || op === 0x03 || op === 0x04) {
    const t = r.bytes[r.pos];
    if (t === 0x40 || (t >= 0x6f && t <= 0x7f)) r.skip(1);
    else r.sleb(); // a type index (multi-value block)
  } else if (op === 0x0c || op === 0x0d || op === 0x10 || op === 0xd2 || (op >= 0x20 && op <= 0x26)) r.u32();
  else if (op === 0x0e) {
    const n = r.u32();
    for (let i = 0; i <= n; ++i) r.u32();
  } else if (op === 0x11) (r.u32(), r.u32());
  else if (op === 0x1c) {
    const n = r.u32();
    r.skip(n);
  } else if (op >= 0x28 && op <= 0x3e) (r.u32(), r.u32());
  else if (op === 0x3f || op === 0x40 || op === 0xd0) r.skip(1);
  else if (op === 0x41 || op === 0x42) r.sleb();
  else if (op === 0x43) r.skip(4);
  else if (op === 0x44) r.skip(8);
  else throw new Error(`relaxed-simd: unknown opcode 0x${op.toString(16)}`);
}

// Renames the qfma instructions of one function body [start, end) in `out`; returns how many.
function renameInBody(out, start, end) {
  const r = new Reader(out, start);
  const groups = r.u32();
  for (let i = 0; i < groups; ++i) (r.u32(), r.skip(1)); // locals: count, type
  let renamed = 0;
  while (r.pos < end) {
    const op = r.byte();
    if (op === 0xfd) {
      const at = r.pos;
      const sub = r.u32();
      if (sub === PROTOTYPE_QFMA_F32X4) {
        if (r.pos - at !== 2) throw new Error('relaxed-simd: qfma with a non-minimal opcode encoding');
        out.set(RELAXED_MADD_F32X4, at);
        ++renamed;
      } else skipSimdImmediates(r, sub);
    } else if (op === 0xfc) skipMiscImmediates(r, r.u32());
    else skipImmediates(r, op);
  }
  if (r.pos !== end) throw new Error('relaxed-simd: a function body did not decode to its end');
  return renamed;
}

/**
 * The module with every prototype `f32x4.qfma` renamed to `f32x4.relaxed_madd`.
 * @param {Uint8Array} bytes a linked .wasm module
 * @returns {{ bytes: Uint8Array, renamed: number }} a new array, and how many instructions changed
 */
export function renameQfmaToRelaxedMadd(bytes) {
  const out = new Uint8Array(bytes);
  const r = new Reader(out, 8);
  if (out[0] !== 0 || out[1] !== 0x61 || out[2] !== 0x73 || out[3] !== 0x6d)
    throw new Error('relaxed-simd: not a wasm module');
  let renamed = 0;
  while (r.pos < out.length) {
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    if (id === 10) {
      const count = r.u32();
      for (let f = 0; f < count; ++f) {
        const bodySize = r.u32();
        const bodyEnd = r.pos + bodySize;
        renamed += renameInBody(out, r.pos, bodyEnd);
        r.pos = bodyEnd;
      }
      if (r.pos !== end) throw new Error('relaxed-simd: the code section did not decode to its end');
    }
    r.pos = end;
  }
  return { bytes: out, renamed };
}
