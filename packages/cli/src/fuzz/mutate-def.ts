import {
  BUILTIN_OPTIONS_MAX,
  BuiltinOperator,
  TensorType,
  defaultBuiltinOptions,
  elementSize,
  isParsedOptionsType,
  type BufferDef,
  type BuiltinOptions,
  type BuiltinOptions2,
  type ModelDef,
  type OperatorDef,
  type SubgraphDef,
  type TensorDef,
} from '@micrort/core';
import type { Rng } from './rng.js';

/**
 * Structure-aware mutations of a {@link ModelDef}: each changes one thing a hostile or corrupted file can
 * say (a shape, a type, an index, a quantization array, an options field, a constant's contents, the
 * operator order, ...) and returns a one-line description, or null when it does not apply to this model.
 * The mutated def is then written with `writeModel`, so the loader's verifier sees a well-formed
 * FlatBuffer that says something wrong: these cases reach the allocator and the kernels' prepare, where
 * raw byte mutations mostly stop at the verifier.
 */
export type DefMutator = (def: ModelDef, rng: Rng) => string | null;

/** Integers that find off-by-one, sign and overflow bugs. */
const INTERESTING_INTS = [
  0,
  1,
  -1,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  16,
  127,
  128,
  -128,
  255,
  256,
  1023,
  65535,
  65536,
  1 << 24,
  0x3fffffff,
  0x7fffffff,
  -0x80000000,
  -2,
];
/** Dimensions: small, boundary and huge (the arena limit must stop the huge ones). */
const INTERESTING_DIMS = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 64, 255, 1000, 4096, 65536, 1 << 20, 0x7fffffff];
/** Scales: degenerate, denormal, huge and non-finite values. */
const INTERESTING_SCALES = [
  0,
  -0.5,
  -1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1e-45,
  1e-30,
  2 ** -31,
  1e-6,
  1,
  256,
  65536,
  1e30,
  3.4e38,
];
/** Zero points: at and beyond the int8/uint8/int16/int32 ranges. */
const INTERESTING_ZERO_POINTS = [0, -128, 127, -129, 128, 255, 256, -32768, 32767, 65535, 0x7fffffff, -0x80000000];
/** Element types a mutation switches to (element sizes 1, 2, 4 and 8 and types with no fixed size). */
const TYPES = [
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.UINT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.BOOL,
  TensorType.FLOAT16,
  TensorType.STRING,
  TensorType.INT4,
  TensorType.COMPLEX64,
  TensorType.FLOAT64,
  TensorType.UINT32,
  TensorType.UINT16,
  TensorType.RESOURCE,
];
/** Ops micrort implements: swapping an operator's code among these reaches another kernel's prepare. */
const IMPLEMENTED_OPS = [
  BuiltinOperator.ADD,
  BuiltinOperator.AVERAGE_POOL_2D,
  BuiltinOperator.CONCATENATION,
  BuiltinOperator.CONV_2D,
  BuiltinOperator.DEPTHWISE_CONV_2D,
  BuiltinOperator.DEQUANTIZE,
  BuiltinOperator.FULLY_CONNECTED,
  BuiltinOperator.LOGISTIC,
  BuiltinOperator.MAX_POOL_2D,
  BuiltinOperator.MUL,
  BuiltinOperator.RELU,
  BuiltinOperator.RELU6,
  BuiltinOperator.RESHAPE,
  BuiltinOperator.SOFTMAX,
  BuiltinOperator.TANH,
  BuiltinOperator.PAD,
  BuiltinOperator.TRANSPOSE,
  BuiltinOperator.MEAN,
  BuiltinOperator.SUB,
  BuiltinOperator.DIV,
  BuiltinOperator.STRIDED_SLICE,
  BuiltinOperator.SVDF,
  BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
  BuiltinOperator.QUANTIZE,
  BuiltinOperator.TRANSPOSE_CONV,
  BuiltinOperator.MAXIMUM,
  BuiltinOperator.MINIMUM,
  BuiltinOperator.ABS,
  BuiltinOperator.SIN,
  BuiltinOperator.COS,
  BuiltinOperator.LEAKY_RELU,
  BuiltinOperator.CAST,
  BuiltinOperator.PADV2,
];
/** Builtin codes at or above this are stored as 127 in `deprecated_builtin_code`. */
const PLACEHOLDER_FOR_GREATER_OP_CODES = 127;

/**
 * A copy of `def` that mutations may change freely: every array and table is copied, except constant
 * buffer bytes, which mutations replace instead of editing (they may be views into the corpus file).
 */
export function cloneDef(def: ModelDef): ModelDef {
  const out: ModelDef = {
    version: def.version,
    description: def.description,
    operatorCodes: def.operatorCodes.map((c) => ({ ...c })),
    subgraphs: def.subgraphs.map(cloneSubgraph),
    buffers: def.buffers.map((b): BufferDef => ({ data: b.data })),
    metadata: def.metadata.map((m) => ({ ...m })),
    signatureDefs: def.signatureDefs.map((s) => ({
      ...s,
      inputs: s.inputs.map((t) => ({ ...t })),
      outputs: s.outputs.map((t) => ({ ...t })),
    })),
  };
  if (def.metadataBuffer) out.metadataBuffer = def.metadataBuffer.slice();
  return out;
}

function cloneSubgraph(sg: SubgraphDef): SubgraphDef {
  return {
    name: sg.name,
    tensors: sg.tensors.map(cloneTensor),
    inputs: sg.inputs.slice(),
    outputs: sg.outputs.slice(),
    operators: sg.operators.map(cloneOperator),
  };
}

function cloneTensor(t: TensorDef): TensorDef {
  const c: TensorDef = {
    name: t.name,
    type: t.type,
    shape: t.shape.slice(),
    buffer: t.buffer,
    quantization: t.quantization
      ? {
          scale: t.quantization.scale.slice(),
          zeroPoint: t.quantization.zeroPoint.slice(),
          quantizedDimension: t.quantization.quantizedDimension,
          ...(t.quantization.min ? { min: t.quantization.min.slice() } : {}),
          ...(t.quantization.max ? { max: t.quantization.max.slice() } : {}),
          ...(t.quantization.details ? { details: { ...t.quantization.details } } : {}),
        }
      : null,
    isVariable: t.isVariable,
  };
  if (t.shapeSignature) c.shapeSignature = t.shapeSignature.slice();
  return c;
}

function cloneOperator(op: OperatorDef): OperatorDef {
  const c: OperatorDef = {
    opcodeIndex: op.opcodeIndex,
    inputs: op.inputs.slice(),
    outputs: op.outputs.slice(),
    intermediates: op.intermediates.slice(),
    builtinOptionsType: op.builtinOptionsType,
    builtinOptions: op.builtinOptions ? cloneOptions(op.builtinOptions) : null,
    customOptions: op.customOptions,
  };
  if (op.mutatingVariableInputs) c.mutatingVariableInputs = op.mutatingVariableInputs.slice();
  if (op.builtinOptions2Type !== undefined) c.builtinOptions2Type = op.builtinOptions2Type;
  if (op.builtinOptions2) c.builtinOptions2 = cloneOptions(op.builtinOptions2 as unknown as BuiltinOptions) as unknown as BuiltinOptions2;
  return c;
}

function cloneOptions(o: BuiltinOptions): BuiltinOptions {
  const c: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) c[k] = v instanceof Int32Array ? v.slice() : v;
  return c as unknown as BuiltinOptions;
}

// --- helpers ---------------------------------------------------------------------------------------------

function subgraphOf(def: ModelDef, rng: Rng): [SubgraphDef, number] {
  const s = def.subgraphs.length > 1 && rng.chance(0.2) ? rng.int(def.subgraphs.length) : 0;
  return [def.subgraphs[s]!, s];
}

function isConstant(def: ModelDef, t: TensorDef): boolean {
  return (def.buffers[t.buffer]?.data.byteLength ?? 0) > 0;
}

function numElements(shape: ArrayLike<number>): number {
  let n = 1;
  for (let i = 0; i < shape.length; i++) n *= shape[i]!;
  return n;
}

/** A tensor index for an index list: usually valid, sometimes -1 or one past the end. */
function tensorIndex(sg: SubgraphDef, rng: Rng): number {
  const r = rng.float();
  if (r < 0.08) return -1;
  if (r < 0.12) return sg.tensors.length;
  if (r < 0.14) return rng.pick(INTERESTING_INTS);
  return rng.int(sg.tensors.length);
}

/** Mutates one element or the length of an index list; returns the new list and a description. */
function mutateIndexList(list: Int32Array, sg: SubgraphDef, rng: Rng): [Int32Array, string] {
  const r = rng.int(6);
  if (list.length === 0 || r === 0) {
    const v = tensorIndex(sg, rng);
    return [Int32Array.from([...list, v]), `append ${v}`];
  }
  const i = rng.int(list.length);
  switch (r) {
    case 1:
      return [Int32Array.from([...list.subarray(0, i), ...list.subarray(i + 1)]), `drop [${i}]`];
    case 2: {
      const j = rng.int(list.length);
      const c = list.slice();
      [c[i], c[j]] = [c[j]!, c[i]!];
      return [c, `swap [${i}] and [${j}]`];
    }
    case 3:
      return [list.subarray(0, i), `truncate to ${i}`];
    default: {
      const c = list.slice();
      c[i] = tensorIndex(sg, rng);
      return [c, `[${i}] ${list[i]} -> ${c[i]}`];
    }
  }
}

/** Pairs of (dims) with the same element count as `shape` (so constant buffers still match). */
function sameCountShape(shape: Int32Array, rng: Rng): Int32Array {
  const n = numElements(shape);
  switch (rng.int(4)) {
    case 0: {
      const c = shape.slice();
      for (let i = c.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [c[i], c[j]] = [c[j]!, c[i]!];
      }
      return c;
    }
    case 1:
      return Int32Array.from([n]);
    case 2:
      return Int32Array.from([1, ...shape]);
    default: {
      // Split the count into two factors.
      const divisors: number[] = [];
      for (let d = 1; d * d <= n && d < 1 << 16; d++) if (n % d === 0) divisors.push(d);
      const d = divisors.length ? rng.pick(divisors) : 1;
      return Int32Array.from(rng.chance(0.5) ? [d, n / d] : [n / d, d]);
    }
  }
}

// --- tensor mutations ------------------------------------------------------------------------------------

const mutateShape: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.tensors.length === 0) return null;
  const ti = rng.int(sg.tensors.length);
  const t = sg.tensors[ti]!;
  const before = `[${Array.from(t.shape).join(',')}]`;
  if (isConstant(def, t) && rng.chance(0.7)) {
    t.shape = sameCountShape(t.shape, rng);
  } else {
    const shape = Array.from(t.shape);
    const d = rng.int(Math.max(1, shape.length));
    switch (rng.int(8)) {
      case 0:
        shape.splice(d, 1);
        break;
      case 1:
        shape.splice(d, 0, rng.pick([1, 1, 2, 3]));
        break;
      case 2:
        shape.length = 0;
        break;
      case 3:
        while (shape.length < 7) shape.push(1);
        break;
      case 4:
        if (shape.length) shape[d] = shape[d]! + (rng.chance(0.5) ? 1 : -1);
        break;
      case 5:
        if (shape.length) shape[d] = rng.chance(0.5) ? shape[d]! * 2 : shape[d]! >> 1;
        break;
      default:
        if (shape.length) shape[d] = rng.chance(0.05) ? -1 : rng.pick(INTERESTING_DIMS);
        else shape.push(rng.pick(INTERESTING_DIMS));
    }
    t.shape = Int32Array.from(shape);
  }
  return `subgraphs[${s}].tensors[${ti}].shape ${before} -> [${Array.from(t.shape).join(',')}]`;
};

/** A tensor's shape_signature (dynamic -1 dimensions): marks, unmarks, adds or removes one. */
const mutateShapeSignature: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.tensors.length === 0) return null;
  // Mostly graph inputs (the fuzzer resizes inputs with -1 dimensions), else any tensor.
  const ti = sg.inputs.length && rng.chance(0.7) ? sg.inputs[rng.int(sg.inputs.length)]! : rng.int(sg.tensors.length);
  const t = sg.tensors[ti];
  if (!t) return null;
  const where = `subgraphs[${s}].tensors[${ti}].shape_signature`;
  const signature = Array.from(t.shapeSignature ?? t.shape);
  switch (rng.int(5)) {
    case 0:
      if (!t.shapeSignature) return null;
      delete t.shapeSignature;
      return `${where} removed`;
    case 1:
      signature.push(rng.chance(0.5) ? -1 : 1);
      break;
    case 2:
      if (signature.length === 0) return null;
      signature.pop();
      break;
    case 3:
      if (signature.length === 0) return null;
      signature[rng.int(signature.length)] = rng.pick([0, 1, 2, -2, 65536]);
      break;
    default:
      if (signature.length === 0) return null;
      signature[rng.int(signature.length)] = -1;
  }
  t.shapeSignature = Int32Array.from(signature);
  return `${where} -> [${signature.join(',')}]`;
};

const mutateType: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.tensors.length === 0) return null;
  const ti = rng.int(sg.tensors.length);
  const t = sg.tensors[ti]!;
  const before = t.type;
  if (isConstant(def, t) && rng.chance(0.7)) {
    // Same element size, so the constant's byte count still matches.
    const size = elementSize(t.type);
    const same = TYPES.filter((x) => x !== t.type && elementSize(x) === size);
    if (same.length === 0) return null;
    t.type = rng.pick(same);
  } else {
    t.type = rng.chance(0.9) ? rng.pick(TYPES) : rng.int(24);
  }
  return `subgraphs[${s}].tensors[${ti}].type ${TensorType[before] ?? before} -> ${TensorType[t.type] ?? t.type}`;
};

const mutateBufferIndex: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.tensors.length === 0) return null;
  const ti = rng.int(sg.tensors.length);
  const t = sg.tensors[ti]!;
  const before = t.buffer;
  const r = rng.float();
  t.buffer = r < 0.3 ? 0 : r < 0.4 ? def.buffers.length : r < 0.45 ? rng.pick(INTERESTING_INTS) : rng.int(def.buffers.length);
  return `subgraphs[${s}].tensors[${ti}].buffer ${before} -> ${t.buffer}`;
};

const mutateVariable: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.tensors.length === 0) return null;
  const ti = rng.int(sg.tensors.length);
  const t = sg.tensors[ti]!;
  t.isVariable = !t.isVariable;
  return `subgraphs[${s}].tensors[${ti}].is_variable -> ${t.isVariable}`;
};

const mutateQuantization: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  const candidates = sg.tensors.map((t, i) => [t, i] as const).filter(([t]) => t.quantization !== null || rng.chance(0.1));
  if (candidates.length === 0) return null;
  const [t, ti] = rng.pick(candidates);
  const where = `subgraphs[${s}].tensors[${ti}].quantization`;
  if (!t.quantization) {
    t.quantization = {
      scale: Float32Array.of(rng.pick([0.1, 1 / 256, 0])),
      zeroPoint: Int32Array.of(rng.pick([0, -128, 5])),
      quantizedDimension: 0,
    };
    return `${where} added (scale ${t.quantization.scale[0]}, zero point ${t.quantization.zeroPoint[0]})`;
  }
  const qd = t.quantization;
  const details = qd.details;
  if (details?.kind === 'blockwise' && rng.chance(0.6)) {
    // Blockwise: the scale / zero-point tensor indices and the block size.
    switch (rng.int(4)) {
      case 0:
        details.scales = tensorIndex(sg, rng);
        return `${where}.details.scales -> ${details.scales}`;
      case 1:
        details.zeroPoints = rng.chance(0.3) ? -1 : tensorIndex(sg, rng);
        return `${where}.details.zero_points -> ${details.zeroPoints}`;
      case 2:
        details.blockSize = rng.pick([0, 1, 2, 3, 8, 16, 31, 33, 64, 128, -1, 0x7fffffff]);
        return `${where}.details.block_size -> ${details.blockSize}`;
      default:
        delete qd.details;
        return `${where}.details removed`;
    }
  }
  switch (rng.int(7)) {
    case 0:
      t.quantization = null;
      return `${where} removed`;
    case 1: {
      const i = rng.int(qd.scale.length);
      if (qd.scale.length === 0) return null;
      qd.scale[i] = rng.pick(INTERESTING_SCALES);
      return `${where}.scale[${i}] -> ${qd.scale[i]}`;
    }
    case 2: {
      if (qd.zeroPoint.length === 0) return null;
      const i = rng.int(qd.zeroPoint.length);
      qd.zeroPoint[i] = rng.pick(INTERESTING_ZERO_POINTS);
      return `${where}.zero_point[${i}] -> ${qd.zeroPoint[i]}`;
    }
    case 3: {
      const grow = rng.chance(0.5);
      const which = rng.chance(0.5) ? 'scale' : 'zero_point';
      if (which === 'scale')
        qd.scale = grow ? Float32Array.from([...qd.scale, 0.5]) : qd.scale.subarray(0, Math.max(0, qd.scale.length - 1));
      else qd.zeroPoint = grow ? Int32Array.from([...qd.zeroPoint, 0]) : qd.zeroPoint.subarray(0, Math.max(0, qd.zeroPoint.length - 1));
      return `${where}.${which} length ${grow ? '+1' : '-1'}`;
    }
    case 4:
      qd.quantizedDimension = rng.chance(0.8) ? rng.int(Math.max(1, t.shape.length + 1)) : rng.pick(INTERESTING_INTS);
      return `${where}.quantized_dimension -> ${qd.quantizedDimension}`;
    case 5: {
      // Per-channel along a real dimension (consistent for the verifier, maybe not for the kernel).
      if (t.shape.length === 0) return null;
      const dim = rng.int(t.shape.length);
      const n = t.shape[dim]!;
      if (n < 1 || n > 4096) return null;
      qd.scale = Float32Array.from({ length: n }, (_, i) => 0.01 * (1 + (i % 7)));
      qd.zeroPoint = new Int32Array(n);
      qd.quantizedDimension = dim;
      return `${where} per-channel: ${n} scales along dimension ${dim}`;
    }
    default: {
      // Per-tensor from per-channel (or a single value) with an interesting zero point.
      qd.scale = Float32Array.of(qd.scale[0] ?? 0.1);
      qd.zeroPoint = Int32Array.of(rng.pick(INTERESTING_ZERO_POINTS));
      return `${where} per-tensor, zero point ${qd.zeroPoint[0]}`;
    }
  }
};

/** Rewrites a constant's contents with boundary values of its type (axes, shapes, paddings, weights...). */
const mutateConstantData: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  const constants = sg.tensors.map((t, i) => [t, i] as const).filter(([t]) => isConstant(def, t));
  if (constants.length === 0) return null;
  // Prefer small int32 constants: they are shapes, axes, permutations, paddings and slice bounds.
  const small = constants.filter(([t]) => t.type === TensorType.INT32 && def.buffers[t.buffer]!.data.byteLength <= 64);
  const [t, ti] = small.length && rng.chance(0.7) ? rng.pick(small) : rng.pick(constants);
  const src = def.buffers[t.buffer]!.data;
  const data = new Uint8Array(src.byteLength);
  data.set(src);
  const view = new DataView(data.buffer);
  const size = elementSize(t.type) ?? 1;
  const n = Math.floor(data.byteLength / size);
  if (n === 0) return null;
  const count = rng.chance(0.7) ? 1 : 1 + rng.int(n);
  let what = '';
  for (let k = 0; k < count; k++) {
    const i = rng.int(n);
    const at = i * size;
    switch (t.type) {
      case TensorType.INT32: {
        const v = rng.chance(0.5) ? rng.pick(INTERESTING_INTS) : view.getInt32(at, true) + rng.pick([-1, 1, -2, 2]);
        view.setInt32(at, v, true);
        what = `[${i}] = ${v}`;
        break;
      }
      case TensorType.FLOAT32: {
        const v = rng.pick([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0, 3.4e38, -3.4e38, 1e-45]);
        view.setFloat32(at, v, true);
        what = `[${i}] = ${v}`;
        break;
      }
      case TensorType.INT16:
        view.setInt16(at, rng.pick([-32768, 32767, 0, -1]), true);
        what = `[${i}] = ${view.getInt16(at, true)}`;
        break;
      case TensorType.INT64:
        view.setBigInt64(at, rng.pick([0n, -1n, 0x7fffffffffffffffn, -0x8000000000000000n, 0x7fffffffn + 1n]), true);
        what = `[${i}] = ${view.getBigInt64(at, true)}`;
        break;
      default:
        data[at] = rng.pick([0, 0x7f, 0x80, 0xff, rng.int(256)]);
        what = `byte ${at} = ${data[at]}`;
    }
  }
  def.buffers[t.buffer] = { data };
  return `subgraphs[${s}].tensors[${ti}] (${t.name}) constant ${count > 1 ? `${count} elements, last ` : ''}${what}`;
};

const truncateBuffer: DefMutator = (def, rng) => {
  const nonEmpty = def.buffers.map((b, i) => [b, i] as const).filter(([b]) => b.data.byteLength > 0);
  if (nonEmpty.length === 0) return null;
  const [b, i] = rng.pick(nonEmpty);
  const cut = rng.chance(0.5) ? b.data.byteLength - 1 : rng.int(b.data.byteLength);
  def.buffers[i] = { data: b.data.subarray(0, cut) };
  return `buffers[${i}] truncated ${b.data.byteLength} -> ${cut} bytes`;
};

const addTensor: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  sg.tensors.push({
    name: 'fuzz/extra',
    type: rng.pick(TYPES),
    shape: Int32Array.from([1, rng.pick(INTERESTING_DIMS)]),
    buffer: 0,
    quantization: null,
    isVariable: rng.chance(0.3),
  });
  return `subgraphs[${s}] extra tensor ${sg.tensors.length - 1}`;
};

const dropLastTensor: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.tensors.length === 0) return null;
  sg.tensors.pop();
  return `subgraphs[${s}] last tensor dropped (now ${sg.tensors.length})`;
};

// --- operator mutations ----------------------------------------------------------------------------------

function pickOperator(def: ModelDef, rng: Rng): [OperatorDef, string] | null {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.operators.length === 0) return null;
  const o = rng.int(sg.operators.length);
  return [sg.operators[o]!, `subgraphs[${s}].operators[${o}]`];
}

const mutateOperatorTensors: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.operators.length === 0) return null;
  const o = rng.int(sg.operators.length);
  const op = sg.operators[o]!;
  const field = rng.pick(['inputs', 'inputs', 'outputs', 'intermediates'] as const);
  const [list, what] = mutateIndexList(op[field], sg, rng);
  op[field] = list;
  if (field === 'inputs') delete op.mutatingVariableInputs;
  return `subgraphs[${s}].operators[${o}].${field} ${what}`;
};

/** Makes an operator write into one of its own inputs or a constant (aliasing and read-only memory). */
const aliasOutput: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  if (sg.operators.length === 0) return null;
  const o = rng.int(sg.operators.length);
  const op = sg.operators[o]!;
  if (op.outputs.length === 0) return null;
  const constants = sg.tensors
    .map((t, i) => [t, i] as const)
    .filter(([t]) => isConstant(def, t))
    .map(([, i]) => i);
  const pool = rng.chance(0.5) && constants.length ? constants : Array.from(op.inputs).filter((i) => i >= 0);
  if (pool.length === 0) return null;
  const v = rng.pick(pool);
  op.outputs = op.outputs.slice();
  op.outputs[0] = v;
  return `subgraphs[${s}].operators[${o}].outputs[0] -> ${v}${constants.includes(v) ? ' (a constant)' : ' (its own input)'}`;
};

const mutateOpcodeIndex: DefMutator = (def, rng) => {
  const picked = pickOperator(def, rng);
  if (!picked) return null;
  const [op, where] = picked;
  const before = op.opcodeIndex;
  op.opcodeIndex = rng.chance(0.85)
    ? rng.int(def.operatorCodes.length)
    : rng.chance(0.5)
      ? def.operatorCodes.length
      : rng.pick(INTERESTING_INTS);
  return `${where}.opcode_index ${before} -> ${op.opcodeIndex}`;
};

const mutateOptions: DefMutator = (def, rng) => {
  const picked = pickOperator(def, rng);
  if (!picked) return null;
  const [op, where] = picked;
  if (op.builtinOptions2 && Object.keys(op.builtinOptions2).length && (!op.builtinOptions || rng.chance(0.5))) {
    // StableHLO options (builtin_options_2): region / branch / decomposition subgraph indices, windows, attributes.
    const what = mutateField(op.builtinOptions2 as unknown as Record<string, unknown>, rng);
    return what === null ? null : `${where}.builtin_options_2.${what}`;
  }
  if (!op.builtinOptions || Object.keys(op.builtinOptions).length === 0) {
    if (rng.chance(0.5)) return null;
    // Options union confusion: another member (with its defaults), or NONE.
    const type = rng.chance(0.3) ? 0 : 1 + rng.int(BUILTIN_OPTIONS_MAX);
    op.builtinOptionsType = type;
    op.builtinOptions = type === 0 ? null : isParsedOptionsType(type) ? defaultBuiltinOptions(type) : {};
    return `${where}.builtin_options_type -> ${type}`;
  }
  const opts = op.builtinOptions as unknown as Record<string, unknown>;
  if (rng.chance(0.12)) {
    const type = rng.chance(0.4) ? 0 : 1 + rng.int(BUILTIN_OPTIONS_MAX);
    op.builtinOptionsType = type;
    op.builtinOptions = type === 0 ? null : isParsedOptionsType(type) ? defaultBuiltinOptions(type) : {};
    return `${where}.builtin_options_type ${type === 0 ? '-> NONE (options dropped)' : `-> ${type} (defaults)`}`;
  }
  const what = mutateField(opts, rng);
  return what === null ? null : `${where}.options.${what}`;
};

/** Changes one field of an options table to a boundary value; returns `key -> value`, or null. */
function mutateField(opts: Record<string, unknown>, rng: Rng): string | null {
  const key = rng.pick(Object.keys(opts));
  const v = opts[key];
  if (typeof v === 'string') opts[key] = rng.pick(['', 'x', `${v}.unknown`]);
  else if (v instanceof Uint8Array) {
    const c = v.slice(0, rng.int(v.length + 1));
    if (c.length && rng.chance(0.6)) c[rng.int(c.length)] = rng.uint32() & 0xff;
    opts[key] = c;
    return `${key} -> ${c.length} bytes`;
  } else if (typeof v === 'boolean') opts[key] = !v;
  else if (v instanceof Int32Array) {
    const c = Array.from(v);
    if (c.length && rng.chance(0.7)) c[rng.int(c.length)] = rng.pick(INTERESTING_INTS);
    else if (rng.chance(0.5)) c.push(rng.pick([1, -1, 0, 7]));
    else c.pop();
    opts[key] = Int32Array.from(c);
  } else if (typeof v === 'number') {
    const isFloat = ['beta', 'alpha', 'cellClip', 'projClip'].includes(key);
    opts[key] = isFloat
      ? rng.pick([0, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-30, 1e30, 1e6])
      : rng.chance(0.5)
        ? rng.pick(INTERESTING_INTS)
        : rng.range(-2, 8);
  } else return null;
  const now = opts[key];
  const shown = now instanceof Int32Array ? `[${Array.from(now).join(',')}]` : typeof now === 'string' ? JSON.stringify(now) : String(now);
  return `${key} -> ${shown}`;
}

const mutateOperatorCode: DefMutator = (def, rng) => {
  if (def.operatorCodes.length === 0) return null;
  const i = rng.int(def.operatorCodes.length);
  const c = def.operatorCodes[i]!;
  const where = `operator_codes[${i}]`;
  switch (rng.int(4)) {
    case 0: {
      const code = rng.chance(0.85) ? rng.pick(IMPLEMENTED_OPS) : rng.int(220);
      c.builtinCode = code;
      c.deprecatedBuiltinCode = Math.min(code, PLACEHOLDER_FOR_GREATER_OP_CODES);
      c.customCode = code === BuiltinOperator.CUSTOM ? 'FuzzCustom' : null;
      return `${where}.builtin_code -> ${BuiltinOperator[code] ?? code}`;
    }
    case 1:
      c.version = rng.pick([0, 1, 2, 3, 4, 5, 7, 12, 100, -1]);
      return `${where}.version -> ${c.version}`;
    case 2:
      c.deprecatedBuiltinCode = rng.int(128);
      return `${where}.deprecated_builtin_code -> ${c.deprecatedBuiltinCode}`;
    default:
      c.customCode = rng.pick(['', 'SignalWindow', 'TFLite_Detection_PostProcess', 'x'.repeat(300)]);
      return `${where}.custom_code -> "${c.customCode.slice(0, 24)}"`;
  }
};

const reorderOperators: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  const n = sg.operators.length;
  if (n === 0) return null;
  const i = rng.int(n);
  switch (rng.int(3)) {
    case 0: {
      if (n < 2) return null;
      const j = rng.int(n);
      [sg.operators[i], sg.operators[j]] = [sg.operators[j]!, sg.operators[i]!];
      return `subgraphs[${s}] operators ${i} and ${j} swapped`;
    }
    case 1:
      sg.operators.splice(i, 1);
      return `subgraphs[${s}].operators[${i}] removed`;
    default:
      sg.operators.splice(i, 0, cloneOperator(sg.operators[i]!));
      return `subgraphs[${s}].operators[${i}] duplicated`;
  }
};

// --- subgraph and model mutations ------------------------------------------------------------------------

const mutateSubgraphIo: DefMutator = (def, rng) => {
  const [sg, s] = subgraphOf(def, rng);
  const field = rng.chance(0.5) ? 'inputs' : 'outputs';
  const [list, what] = mutateIndexList(sg[field], sg, rng);
  sg[field] = list.map((v) => (v < 0 ? 0 : v));
  return `subgraphs[${s}].${field} ${what}`;
};

const mutateSubgraphs: DefMutator = (def, rng) => {
  switch (rng.int(3)) {
    case 0:
      def.subgraphs.push(cloneSubgraph(def.subgraphs[0]!));
      return `subgraph 0 duplicated as ${def.subgraphs.length - 1}`;
    case 1:
      def.subgraphs.unshift({ name: 'fuzz/empty', tensors: [], inputs: new Int32Array(0), outputs: new Int32Array(0), operators: [] });
      return 'an empty subgraph inserted in front';
    default:
      if (def.subgraphs.length < 2) return null;
      def.subgraphs.pop();
      return `last subgraph removed`;
  }
};

const mutateModelVersion: DefMutator = (def, rng) => {
  def.version = rng.pick([0, 1, 2, 4, -1]);
  return `version -> ${def.version}`;
};

/** Every structure-aware mutator with its relative weight. */
export const DEF_MUTATORS: readonly (readonly [DefMutator, number, string])[] = [
  [mutateShape, 14, 'shape'],
  [mutateShapeSignature, 3, 'shape signature'],
  [mutateType, 8, 'type'],
  [mutateBufferIndex, 4, 'buffer index'],
  [mutateVariable, 2, 'is_variable'],
  [mutateQuantization, 10, 'quantization'],
  [mutateConstantData, 12, 'constant data'],
  [truncateBuffer, 1, 'buffer length'],
  [addTensor, 1, 'tensor count'],
  [dropLastTensor, 1, 'tensor count'],
  [mutateOperatorTensors, 10, 'operator tensor indices'],
  [aliasOutput, 2, 'output aliasing'],
  [mutateOpcodeIndex, 3, 'opcode index'],
  [mutateOptions, 12, 'options'],
  [mutateOperatorCode, 4, 'operator code'],
  [reorderOperators, 3, 'operator order'],
  [mutateSubgraphIo, 3, 'subgraph inputs/outputs'],
  [mutateSubgraphs, 1, 'subgraph count'],
  [mutateModelVersion, 0.3, 'schema version'],
];

const WEIGHTS = DEF_MUTATORS.map(([, w]) => w);

/** Applies `count` structure-aware mutations (retrying ones that do not apply); returns their descriptions. */
export function mutateDef(def: ModelDef, rng: Rng, count: number): string[] {
  const done: string[] = [];
  for (let tries = 0; done.length < count && tries < count * 8; tries++) {
    const [mutator] = DEF_MUTATORS[rng.weighted(WEIGHTS)]!;
    const what = mutator(def, rng);
    if (what !== null) done.push(what);
  }
  return done;
}
