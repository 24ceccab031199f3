// onnx.mjs — the ONNX models for onnxruntime-web, built in code (no download, no protobuf
// library): a ~60-line protobuf writer and the few messages of onnx.proto that the graphs need.
//
//   attentionGraph(n_q, n_k, d, d_v, form):
//     'matmul'   Q·Transpose(K) → Mul(1/√d) → Softmax → ·V   (the MatMul/Softmax/MatMul)
//     'qscaled'  Mul(Q, 1/√d)·Transpose(K) → Softmax → ·V    (the scale on n·d values, not n²)
//     'gemm'     Gemm(Q, K, alpha = 1/√d, transB = 1) → Softmax → MatMul(·, V)
//                (the same math with ORT's best kernel for Q·Kᵀ: no explicit transpose)
//   mhaGraph(n_q, n_k, d, d_v): the fused com.microsoft.MultiHeadAttention, 1 head, batch 1.
//   attention23Graph(n_q, n_k, d, d_v): the standard ONNX Attention op (opset 23), 1 head.
// Field numbers are from onnx/onnx.proto (IR version 8; 11 for the opset-23 graph).

// --- a minimal protobuf writer --------------------------------------------------------------
const enc = new TextEncoder();

function varint(n) {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n; // two's complement for negative int64 (e.g. axis = -1)
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}
const key = (field, wire) => varint((field << 3) | wire);
const concat = (parts) => {
  const bytes = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    bytes.set(p, o);
    o += p.length;
  }
  return bytes;
};
// One field: int (varint), string, bytes or sub-message (length-delimited), float (fixed32).
const int = (field, n) => Uint8Array.from([...key(field, 0), ...varint(n)]);
const bytes = (field, b) => concat([Uint8Array.from([...key(field, 2), ...varint(b.length)]), b]);
const str = (field, s) => bytes(field, enc.encode(s));
const msg = (field, ...parts) => bytes(field, concat(parts));
const f32 = (field, x) => {
  const b = new Uint8Array(5);
  b.set(key(field, 5));
  new DataView(b.buffer).setFloat32(1, x, true);
  return b.subarray(0, 5);
};

// --- onnx.proto messages --------------------------------------------------------------------
const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR = { FLOAT: 1, INT: 2, INTS: 7 };

// AttributeProto: name = 1, f = 2, i = 3, ints = 8, type = 20
function attr(name, type, value) {
  const parts = [str(1, name)];
  if (type === ATTR.FLOAT) parts.push(f32(2, value));
  else if (type === ATTR.INT) parts.push(int(3, value));
  else if (type === ATTR.INTS) for (const v of value) parts.push(int(8, v));
  parts.push(int(20, type));
  return parts;
}
// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5, domain = 7
function node(opType, inputs, outputs, attributes = [], domain = '') {
  return msg(
    1,
    ...inputs.map((x) => str(1, x)),
    ...outputs.map((x) => str(2, x)),
    str(3, `${opType}_${outputs[0]}`),
    str(4, opType),
    ...attributes.map((a) => msg(5, ...attr(...a))),
    ...(domain ? [str(7, domain)] : []),
  );
}
// ValueInfoProto { name = 1, type = 2: TypeProto { tensor_type = 1: { elem_type = 1, shape = 2:
// TensorShapeProto { dim = 1: { dim_value = 1 } } } } }
function tensorInfo(field, name, dims) {
  return msg(field, str(1, name), msg(2, msg(1, int(1, FLOAT), msg(2, ...dims.map((dv) => msg(1, int(1, dv)))))));
}
// ModelProto: ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 { domain = 1, version = 2 }
function model(graphParts, opsets, irVersion = 8) {
  return concat([
    int(1, irVersion),
    str(2, 'attention-playground-bench'),
    msg(7, ...graphParts),
    ...opsets.map(([domain, version]) => msg(8, ...(domain ? [str(1, domain)] : []), int(2, version))),
  ]);
}

// --- the graphs -----------------------------------------------------------------------------
export function attentionGraph(nQ, nK, d, dV, form = 'matmul') {
  const scale = 1 / Math.sqrt(d);
  const nodes =
    form === 'gemm'
      ? [
          node(
            'Gemm',
            ['Q', 'K'],
            ['S'],
            [
              ['alpha', ATTR.FLOAT, scale],
              ['transB', ATTR.INT, 1],
            ],
          ),
          node('Softmax', ['S'], ['P'], [['axis', ATTR.INT, -1]]),
          node('MatMul', ['P', 'V'], ['O']),
        ]
      : form === 'qscaled'
        ? [
            node('Mul', ['Q', 'scale'], ['Qs']),
            node('Transpose', ['K'], ['Kt'], [['perm', ATTR.INTS, [1, 0]]]),
            node('MatMul', ['Qs', 'Kt'], ['S']),
            node('Softmax', ['S'], ['P'], [['axis', ATTR.INT, -1]]),
            node('MatMul', ['P', 'V'], ['O']),
          ]
        : [
            node('Transpose', ['K'], ['Kt'], [['perm', ATTR.INTS, [1, 0]]]),
            node('MatMul', ['Q', 'Kt'], ['S']),
            node('Mul', ['S', 'scale'], ['Ss']),
            node('Softmax', ['Ss'], ['P'], [['axis', ATTR.INT, -1]]),
            node('MatMul', ['P', 'V'], ['O']),
          ];
  // the scale as an initializer: TensorProto { dims = 1 (none: a scalar), data_type = 2,
  // float_data = 4, name = 8 }
  const init = form === 'gemm' ? [] : [msg(5, int(2, FLOAT), f32(4, scale), str(8, 'scale'))];
  return model(
    [
      ...nodes,
      str(2, `attention_${form}`),
      ...init,
      tensorInfo(11, 'Q', [nQ, d]),
      tensorInfo(11, 'K', [nK, d]),
      tensorInfo(11, 'V', [nK, dV]),
      tensorInfo(12, 'O', [nQ, dV]),
    ],
    [['', 17]],
  );
}

export function mhaGraph(nQ, nK, d, dV) {
  return model(
    [
      node('MultiHeadAttention', ['Q', 'K', 'V'], ['O'], [['num_heads', ATTR.INT, 1]], 'com.microsoft'),
      str(2, 'attention_mha'),
      tensorInfo(11, 'Q', [1, nQ, d]),
      tensorInfo(11, 'K', [1, nK, d]),
      tensorInfo(11, 'V', [1, nK, dV]),
      tensorInfo(12, 'O', [1, nQ, dV]),
    ],
    [
      ['', 17],
      ['com.microsoft', 1],
    ],
  );
}

// Attention-23 with 4-D inputs (batch, heads, sequence, head size); its default scale is 1/√d.
export function attention23Graph(nQ, nK, d, dV) {
  return model(
    [
      node('Attention', ['Q', 'K', 'V'], ['O']),
      str(2, 'attention_onnx23'),
      tensorInfo(11, 'Q', [1, 1, nQ, d]),
      tensorInfo(11, 'K', [1, 1, nK, d]),
      tensorInfo(11, 'V', [1, 1, nK, dV]),
      tensorInfo(12, 'O', [1, 1, nQ, dV]),
    ],
    [['', 23]],
    11,
  ); // opset 23 needs IR version 11
}
