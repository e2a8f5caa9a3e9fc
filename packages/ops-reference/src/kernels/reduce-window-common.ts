/**
 * LiteRT's reduce_window.cc, behind STABLEHLO_REDUCE_WINDOW and the deprecated REDUCE_WINDOW: the input
 * is dilated (`base_dilations`, holes filled with the init value), padded or cropped (`padding`, negative
 * crops; filled with the init value), then each window (`window_dimensions`, every `window_dilations`-th
 * element, moved by `window_strides`) is reduced into one output element starting from the init value:
 * `accu = op(accu, x)` in window order, in the element type (so integers wrap at every step).
 *
 * Reductions (TfLiteReduceWindowFunction): ADD, MUL, MIN (`a <= b ? a : b`), MAX (`a >= b ? a : b`),
 * ALL and ANY (logical, giving 0 or 1). Types: bool (as int8), int8, int16, int32, int64, uint8,
 * float32, float64; rank 1 to 6. Output dimension: 0 when the window (dilated) is larger than the
 * padded input, else `(padded − dilated window) / stride + 1`. The dilated and padded inputs live in two
 * scratch buffers of the arena (LiteRT's temporaries).
 */
import { KernelError, TensorType, tensorTypeName, type EvalTensor, type Node, type TfLiteContext } from '@micrort/core';
import { setOutputShape } from '@micrort/kernel-support';
import { mul64, mulLo, mulHi } from './stablehlo-elementwise-common.js';

/** TfLiteReduceWindowFunction / the schema's ReduceWindowFunction. */
export const enum ReduceFunction {
  Unsupported = 0,
  Add = 1,
  Mul = 2,
  Min = 3,
  Max = 4,
  All = 5,
  Any = 6,
}

/** kMaxReduceWindowRank. */
export const MAX_REDUCE_WINDOW_RANK = 6;

/** Element types DispatchReduceWindowType takes (bool as int8). */
export const REDUCE_WINDOW_TYPES: readonly TensorType[] = [
  TensorType.BOOL,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.INT64,
  TensorType.UINT8,
  TensorType.FLOAT32,
  TensorType.FLOAT64,
];

const ELEMENT_BYTES: Readonly<Record<number, number>> = { 6: 1, 9: 1, 7: 2, 2: 4, 4: 8, 3: 1, 0: 4, 10: 8 };

/** The window geometry (all per dimension; `padding` interleaved low/high). */
export interface WindowSpec {
  baseDilations: ArrayLike<number>;
  padding: ArrayLike<number>;
  windowDimensions: ArrayLike<number>;
  windowStrides: ArrayLike<number>;
  windowDilations: ArrayLike<number>;
}

/** What prepare computes and invoke reads. */
export interface ReduceWindowPlan {
  fn: ReduceFunction;
  type: TensorType;
  elementBytes: number;
  input: EvalTensor | null;
  init: EvalTensor | null;
  output: EvalTensor | null;
  inDims: Int32Array;
  dilate: boolean;
  dilations: Int32Array;
  dilatedDims: Int32Array;
  pad: boolean;
  padding: Int32Array;
  paddedDims: Int32Array;
  outDims: Int32Array;
  windowDims: Int32Array;
  windowStrides: Int32Array;
  windowDilations: Int32Array;
  /** Scratch buffers of the dilated and padded tensors (−1 when skipped). */
  dilateScratch: number;
  padScratch: number;
  /** Invoke's odometers (allocated once). */
  outIndex: Int32Array;
  winIndex: Int32Array;
}

export function emptyReduceWindowPlan(): ReduceWindowPlan {
  const z = new Int32Array(0);
  return {
    fn: ReduceFunction.Unsupported,
    type: TensorType.FLOAT32,
    elementBytes: 4,
    input: null,
    init: null,
    output: null,
    inDims: z,
    dilate: false,
    dilations: z,
    dilatedDims: z,
    pad: false,
    padding: z,
    paddedDims: z,
    outDims: z,
    windowDims: z,
    windowStrides: z,
    windowDilations: z,
    dilateScratch: -1,
    padScratch: -1,
    outIndex: z,
    winIndex: z,
  };
}

/**
 * Checks the tensors (input 0, init value input 1, output 0) and the window, sets the output shape and
 * requests the scratch buffers. Throws KernelError naming what is wrong.
 */
export function prepareReduceWindow(
  op: string,
  context: TfLiteContext,
  node: Node,
  plan: ReduceWindowPlan,
  fn: ReduceFunction,
  w: WindowSpec,
): void {
  const input = context.getTensor(node.inputs[0]!);
  const init = context.getTensor(node.inputs[1]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== output.type || input.type !== init.type)
    throw new KernelError(
      op,
      node.index,
      `input, init value and output must share a type (${[input, init, output].map((t) => tensorTypeName(t.type)).join(', ')})`,
    );
  if (!REDUCE_WINDOW_TYPES.includes(input.type)) throw new KernelError(op, node.index, `${tensorTypeName(input.type)} is not supported`);
  if (fn === ReduceFunction.Unsupported || fn > ReduceFunction.Any) throw new KernelError(op, node.index, 'unsupported reduction body');
  const rank = input.dims.length;
  if (rank < 1 || rank > MAX_REDUCE_WINDOW_RANK)
    throw new KernelError(op, node.index, `input rank must be between 1 and ${MAX_REDUCE_WINDOW_RANK}, it is ${rank}`);
  if (init.elementCount !== 1) throw new KernelError(op, node.index, `the init value must have 1 element, it has ${init.elementCount}`);
  const vec = (name: string, v: ArrayLike<number>, n: number, positive: boolean): Int32Array => {
    if (v.length !== n) throw new KernelError(op, node.index, `${name} has ${v.length} entries, the input needs ${n}`);
    for (let k = 0; k < n; k++)
      if (positive && v[k]! <= 0) throw new KernelError(op, node.index, `${name}[${k}] = ${v[k]} must be positive`);
    return Int32Array.from(v);
  };
  const dilations = vec('base_dilations', w.baseDilations, rank, true);
  const padding = vec('padding', w.padding, 2 * rank, false);
  const windowDims = vec('window_dimensions', w.windowDimensions, rank, true);
  const windowStrides = vec('window_strides', w.windowStrides, rank, true);
  const windowDilations = vec('window_dilations', w.windowDilations, rank, true);
  const dilatedDims = Int32Array.from(input.dims, (n, k) => (n - 1) * dilations[k]! + 1);
  const paddedDims = Int32Array.from(dilatedDims, (n, k) => n + padding[2 * k]! + padding[2 * k + 1]!);
  if (paddedDims.some((n) => n <= 0))
    throw new KernelError(op, node.index, 'the padding specification of the reduce window gives an empty tensor');
  const outDims = Int32Array.from(paddedDims, (n, k) => {
    const span = (windowDims[k]! - 1) * windowDilations[k]! + 1;
    return n < span ? 0 : Math.floor((n - span) / windowStrides[k]!) + 1;
  });
  setOutputShape(op, context, node, 0, outDims);
  const es = ELEMENT_BYTES[input.type]!;
  const count = (dims: Int32Array) => dims.reduce((p, x) => p * x, 1);
  const dilate = dilations.some((x) => x !== 1);
  const pad = padding.some((x) => x !== 0);
  Object.assign(plan, {
    fn,
    type: input.type,
    elementBytes: es,
    input: context.getEvalTensor(node.inputs[0]!),
    init: context.getEvalTensor(node.inputs[1]!),
    output: context.getEvalTensor(node.outputs[0]!),
    inDims: Int32Array.from(input.dims),
    dilate,
    dilations,
    dilatedDims,
    pad,
    padding,
    paddedDims,
    outDims,
    windowDims,
    windowStrides,
    windowDilations,
    dilateScratch: dilate ? context.requestScratchBufferInArena(count(dilatedDims) * es) : -1,
    padScratch: pad ? context.requestScratchBufferInArena(count(paddedDims) * es) : -1,
    outIndex: new Int32Array(rank),
    winIndex: new Int32Array(rank),
  });
}

/**
 * Fills `to` (shape `toDims`) with the init value's bytes, then copies every element of `from` (shape
 * `dims`) to index × `scale` (dilation) or index + low padding (`padding`), dropping those that fall outside.
 */
function scatterInto(
  to: Uint8Array,
  toDims: Int32Array,
  init: Uint8Array,
  es: number,
  from: Uint8Array,
  dims: Int32Array,
  index: Int32Array,
  scale: Int32Array | null,
  padding: Int32Array | null,
): void {
  for (let p = 0; p < to.length; p += es) for (let b = 0; b < es; b++) to[p + b] = init[b]!;
  index.fill(0);
  const rank = dims.length;
  for (let src = 0; src < from.length; src += es) {
    let dst = 0;
    for (let k = 0; k < rank; k++) {
      const v = index[k]! * (scale ? scale[k]! : 1) + (padding ? padding[2 * k]! : 0);
      if (v < 0 || v >= toDims[k]!) {
        dst = -1;
        break;
      }
      dst = dst * toDims[k]! + v;
    }
    if (dst >= 0) for (let b = 0; b < es; b++) to[dst * es + b] = from[src + b]!;
    for (let k = rank - 1; k >= 0; k--) {
      index[k] = index[k]! + 1;
      if (index[k]! < dims[k]!) break;
      index[k] = 0;
    }
  }
}

/** Runs the reduce window of a prepared plan. */
export function invokeReduceWindow(context: TfLiteContext, plan: ReduceWindowPlan): void {
  const es = plan.elementBytes;
  const init = plan.init!.bytes;
  let src = plan.input!.bytes;
  let dims = plan.inDims;
  if (plan.dilate) {
    const to = context.getScratchBuffer(plan.dilateScratch).u8;
    scatterInto(to, plan.dilatedDims, init, es, src, dims, plan.winIndex, plan.dilations, null);
    src = to;
    dims = plan.dilatedDims;
  }
  if (plan.pad) {
    const to = context.getScratchBuffer(plan.padScratch).u8;
    scatterInto(to, plan.paddedDims, init, es, src, dims, plan.winIndex, null, plan.padding);
    src = to;
    dims = plan.paddedDims;
  }
  reduce(plan, src, dims);
}

/** The window reduction over `src` (shape `dims`) into the output. */
function reduce(plan: ReduceWindowPlan, src: Uint8Array, dims: Int32Array): void {
  const { outDims, windowDims, windowStrides, windowDilations, outIndex, winIndex, type, fn } = plan;
  const out = plan.output!;
  const outCount = out.bytes.length / plan.elementBytes;
  if (outCount === 0) return;
  const rank = dims.length;
  outIndex.fill(0);
  const view = viewOf(type, src);
  const outView = viewOf(type, out.bytes);
  const initView = viewOf(type, plan.init!.bytes);
  for (let o = 0; o < outCount; o++) {
    accStart(type, initView, 0);
    winIndex.fill(0);
    for (;;) {
      let at = 0;
      for (let k = 0; k < rank; k++) at = at * dims[k]! + outIndex[k]! * windowStrides[k]! + winIndex[k]! * windowDilations[k]!;
      accStep(type, fn, view, at);
      let k = rank - 1;
      for (; k >= 0; k--) {
        winIndex[k] = winIndex[k]! + 1;
        if (winIndex[k]! < windowDims[k]!) break;
        winIndex[k] = 0;
      }
      if (k < 0) break;
    }
    accStore(type, outView, o);
    for (let k = rank - 1; k >= 0; k--) {
      outIndex[k] = outIndex[k]! + 1;
      if (outIndex[k]! < outDims[k]!) break;
      outIndex[k] = 0;
    }
  }
}

// --- typed accumulation (module state: no allocation per element) ---------------------------------------

type View = Int8Array | Int16Array | Int32Array | Uint8Array | Float32Array | Float64Array;

const views = new WeakMap<Uint8Array, View>();

/** The typed view of `bytes` for `type` (int64 as int32 word pairs), made once per buffer. */
function viewOf(type: TensorType, bytes: Uint8Array): View {
  let v = views.get(bytes);
  if (v) return v;
  const n = bytes.byteLength;
  const b = bytes.buffer;
  const o = bytes.byteOffset;
  switch (type) {
    case TensorType.BOOL:
    case TensorType.INT8:
      v = new Int8Array(b, o, n);
      break;
    case TensorType.UINT8:
      v = bytes;
      break;
    case TensorType.INT16:
      v = new Int16Array(b, o, n >> 1);
      break;
    case TensorType.INT32:
    case TensorType.INT64:
      v = new Int32Array(b, o, n >> 2);
      break;
    case TensorType.FLOAT32:
      v = new Float32Array(b, o, n >> 2);
      break;
    default:
      v = new Float64Array(b, o, n >> 3);
  }
  views.set(bytes, v);
  return v;
}

let acc = 0;
let accHi = 0;

function accStart(type: TensorType, init: View, i: number): void {
  if (type === TensorType.INT64) {
    acc = init[2 * i]!;
    accHi = init[2 * i + 1]!;
  } else acc = init[i]!;
}

function accStore(type: TensorType, out: View, i: number): void {
  if (type === TensorType.INT64) {
    out[2 * i] = acc;
    out[2 * i + 1] = accHi;
  } else out[i] = acc;
}

/** Narrows `x` to the element type, as storing into the C++ accumulator does. */
function narrow(type: TensorType, x: number): number {
  switch (type) {
    case TensorType.BOOL:
    case TensorType.INT8:
      return (x << 24) >> 24;
    case TensorType.UINT8:
      return x & 0xff;
    case TensorType.INT16:
      return (x << 16) >> 16;
    case TensorType.INT32:
      return x | 0;
    case TensorType.FLOAT32:
      return Math.fround(x);
    default:
      return x;
  }
}

function accStep(type: TensorType, fn: ReduceFunction, v: View, i: number): void {
  if (type === TensorType.INT64) {
    step64(fn, v as Int32Array, 2 * i);
    return;
  }
  const x = v[i]!;
  switch (fn) {
    case ReduceFunction.Add:
      acc = narrow(type, acc + x);
      break;
    case ReduceFunction.Mul:
      acc = type === TensorType.INT32 ? Math.imul(acc, x) : narrow(type, acc * x);
      break;
    case ReduceFunction.Min:
      acc = acc <= x ? acc : x;
      break;
    case ReduceFunction.Max:
      acc = acc >= x ? acc : x;
      break;
    case ReduceFunction.All:
      acc = acc !== 0 && x !== 0 ? 1 : 0;
      break;
    default:
      acc = acc !== 0 || x !== 0 ? 1 : 0;
  }
}

function step64(fn: ReduceFunction, v: Int32Array, k: number): void {
  const lo = v[k]!;
  const hi = v[k + 1]!;
  switch (fn) {
    case ReduceFunction.Add: {
      const s = (acc >>> 0) + (lo >>> 0);
      accHi = (accHi + hi + (s > 0xffffffff ? 1 : 0)) | 0;
      acc = s | 0;
      break;
    }
    case ReduceFunction.Mul:
      mul64(acc, accHi, lo, hi);
      acc = mulLo;
      accHi = mulHi;
      break;
    case ReduceFunction.Min:
    case ReduceFunction.Max: {
      const accLess = accHi < hi || (accHi === hi && acc >>> 0 < lo >>> 0);
      const equal = accHi === hi && acc === lo;
      const keep = fn === ReduceFunction.Min ? accLess || equal : !accLess;
      if (!keep) {
        acc = lo;
        accHi = hi;
      }
      break;
    }
    default: {
      const a = acc !== 0 || accHi !== 0;
      const x = lo !== 0 || hi !== 0;
      acc = (fn === ReduceFunction.All ? a && x : a || x) ? 1 : 0;
      accHi = 0;
    }
  }
}
