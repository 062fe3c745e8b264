// onnx-head.mjs: the peer's graph, one causal attention head as a standard ONNX model (opset 17),
// written out as protobuf bytes here so that the graph is readable in the repository:
//
//   Q = X·Wq   K = X·Wk   V = X·Wv          X [n, d], Wq Wk [d, dk], Wv [d, dv]
//   S = (Q·Kᵀ)·scale + mask                 mask [n, n]: 0 or -Infinity, scale [] (a scalar)
//   A = Softmax(S, axis = -1)   O = A·V     output O [n, dv]
//
// n, d, dk and dv are symbolic, so one session runs every size. Only the fields onnxruntime
// reads are written (onnx.proto: ModelProto, GraphProto, NodeProto, AttributeProto,
// ValueInfoProto, TypeProto, TensorShapeProto).

// ---------------------------------------------------------------- protobuf, the little we need

const varint = (x) => {
  let v = BigInt.asUintN(64, BigInt(x)); // negative int64 values take ten bytes
  const out = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? byte | 0x80 : byte);
  } while (v);
  return out;
};
const utf8 = (s) => [...new TextEncoder().encode(s)];
const tag = (field, wire) => varint((field << 3) | wire);
const int = (field, x) => [...tag(field, 0), ...varint(x)];
const bytes = (field, b) => [...tag(field, 2), ...varint(b.length), ...b];
const str = (field, s) => bytes(field, utf8(s));

// ---------------------------------------------------------------- onnx.proto messages

const FLOAT = 1; // TensorProto.DataType
const ATTR_INT = 2, ATTR_INTS = 7; // AttributeProto.AttributeType

/** A float tensor input or output with symbolic dims (names) or a scalar (no dims). */
function valueInfo(name, dims) {
  const shape = dims.flatMap((p) => bytes(1, str(2, p))); // Dimension { dim_param }
  const tensor = [...int(1, FLOAT), ...bytes(2, shape)]; // TypeProto.Tensor { elem_type, shape }
  return [...str(1, name), ...bytes(2, bytes(1, tensor))]; // ValueInfoProto { name, type { tensor_type } }
}

function node(op, inputs, output, attrs = []) {
  return [...inputs.flatMap((x) => str(1, x)), ...str(2, output), ...str(3, `${op}_${output}`), ...str(4, op), ...attrs.flatMap((a) => bytes(5, a))];
}
const intAttr = (name, x) => [...str(1, name), ...int(3, x), ...int(20, ATTR_INT)];
const intsAttr = (name, xs) => [...str(1, name), ...xs.flatMap((x) => int(8, x)), ...int(20, ATTR_INTS)];

/** The model as bytes for ort.InferenceSession.create. */
export function attentionHeadOnnx() {
  const nodes = [
    node('MatMul', ['X', 'Wq'], 'Q'),
    node('MatMul', ['X', 'Wk'], 'K'),
    node('MatMul', ['X', 'Wv'], 'V'),
    node('Transpose', ['K'], 'Kt', [intsAttr('perm', [1, 0])]),
    node('MatMul', ['Q', 'Kt'], 'S0'),
    node('Mul', ['S0', 'scale'], 'S'),
    node('Add', ['S', 'mask'], 'Sm'),
    node('Softmax', ['Sm'], 'A', [intAttr('axis', -1)]),
    node('MatMul', ['A', 'V'], 'O'),
  ];
  const inputs = [['X', ['n', 'd']], ['Wq', ['d', 'dk']], ['Wk', ['d', 'dk']], ['Wv', ['d', 'dv']], ['mask', ['n', 'n']], ['scale', []]];
  const graph = [
    ...nodes.flatMap((n) => bytes(1, n)),
    ...str(2, 'attention-head'),
    ...inputs.flatMap(([name, dims]) => bytes(11, valueInfo(name, dims))),
    ...bytes(12, valueInfo('O', ['n', 'dv'])),
  ];
  const opset = [...str(1, ''), ...int(2, 17)]; // OperatorSetIdProto { domain: '' (ai.onnx), version }
  return new Uint8Array([...int(1, 8), ...str(2, 'attention-explorer bench'), ...bytes(7, graph), ...bytes(8, opset)]);
}
