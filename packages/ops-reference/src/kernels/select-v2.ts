/**
 * SELECT_V2 (tflite-micro kernels/select.cc; reference_ops::Select / BroadcastSelect5DSlow): output[i] =
 * condition[i] ? x[i] : y[i], with the bool condition, x and y broadcast against each other up to 5-D.
 * x, y and the output share one type: float32, int8 or int16 as TFLM (which refuses others at invoke,
 * "Does not support type other than int8|int16|float32"), and as TFLite every other fixed-size type
 * (uint8, int32, int64, bool, and the float16/float64/uint16/uint32/uint64/complex64 its current kernel
 * takes). Values are copied raw, so quantized x, y and output are expected to share scale and zero point
 * (neither checks). Inputs whose shapes depend on data are followed: the broadcast is recomputed from
 * their actual dims at every invoke, into the op data's arrays.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  numElements,
  tensorTypeName,
  type Node,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import { expectType, extendShape, isDataDependent, opData, setOutputShapeOrBound, supportsInputTypes } from '@micrort/kernel-support';
import { FIXED_SIZE_TYPES } from './data-common.js';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';

const OP = 'SELECT_V2';
const TYPES: readonly TensorType[] = FIXED_SIZE_TYPES;
const RANK = 5;

interface SelectOpData {
  /** TFLM's OpData (bool requires_broadcast, bool has_low_rank_input_condition) in the arena. */
  block: Uint8Array;
  /** Output dims padded to 5. */
  dims: Int32Array;
  /** Per padded dimension, the step of the condition, x and y (0 where broadcast). */
  condStrides: Int32Array;
  xStrides: Int32Array;
  yStrides: Int32Array;
  layout: ElementLayout;
  /**
   * An input has a data-dependent shape: scratch for the padded actual dims of the condition, x and y
   * and the output's dims at this invoke (the walk is recomputed from them). Null otherwise.
   */
  follow: { c: Int32Array; a: Int32Array; b: Int32Array; out: Int32Array } | null;
}

/** Contiguous strides of `dims` (padded to 5), with 0 wherever the dim is 1 but the output's is not. */
function broadcastStrides(dims: Int32Array, out: Int32Array): Int32Array {
  const strides = new Int32Array(RANK);
  let s = 1;
  for (let i = RANK - 1; i >= 0; i--) {
    strides[i] = dims[i] === 1 && out[i] !== 1 ? 0 : s;
    s *= dims[i]!;
  }
  return strides;
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<SelectOpData>(OP, node);
  checkArity(OP, node, 3, 1);
  const cond = getInput(context, node, 0, OP);
  const x = getInput(context, node, 1, OP);
  const y = getInput(context, node, 2, OP);
  const output = getOutput(context, node, 0, OP);
  if (cond.type !== TensorType.BOOL)
    throw new KernelError(OP, node.index, `condition (tensor ${cond.index}) has type ${tensorTypeName(cond.type)}, expected bool`);
  expectType(OP, node, 'x', x, TYPES);
  if (y.type !== x.type || output.type !== x.type)
    throw new KernelError(
      OP,
      node.index,
      `x, y and the output must share one type, got ${tensorTypeName(x.type)}, ${tensorTypeName(y.type)}, ${tensorTypeName(output.type)}`,
    );
  for (const t of [cond, x, y, output])
    if (t.dims.length > RANK)
      throw new KernelError(OP, node.index, `tensor ${t.index} has ${t.dims.length} dimensions, at most ${RANK} are supported`);
  const c = extendShape(cond.dims, RANK);
  const a = extendShape(x.dims, RANK);
  const b = extendShape(y.dims, RANK);
  const shape = new Int32Array(RANK);
  for (let i = 0; i < RANK; i++) {
    const n = Math.max(c[i]!, a[i]!, b[i]!);
    for (const [dim, what] of [
      [c[i]!, 'condition'],
      [a[i]!, 'x'],
      [b[i]!, 'y'],
    ] as const)
      if (dim !== 1 && dim !== n)
        throw new KernelError(
          OP,
          node.index,
          `condition [${cond.dims.join(',')}], x [${x.dims.join(',')}] and y [${y.dims.join(',')}] cannot be broadcast (${what} has ${dim} where another input has ${n})`,
        );
    shape[i] = n;
  }
  const outRank = Math.max(cond.dims.length, x.dims.length, y.dims.length);
  const bounded = isDataDependent(cond) || isDataDependent(x) || isDataDependent(y);
  setOutputShapeOrBound(OP, context, node, 0, shape.subarray(RANK - outRank), bounded);
  d.follow = bounded ? { c: new Int32Array(RANK), a: new Int32Array(RANK), b: new Int32Array(RANK), out: new Int32Array(outRank) } : null;
  const allScalars = numElements(cond.dims) === 1 && numElements(x.dims) === 1 && numElements(y.dims) === 1;
  d.layout = elementLayout(x.type, OP, node);
  d.dims = shape;
  d.condStrides = broadcastStrides(c, shape);
  d.xStrides = broadcastStrides(a, shape);
  d.yStrides = broadcastStrides(b, shape);
  const sameShapes = c.every((v, i) => v === a[i] && v === b[i]);
  d.block[0] = allScalars || sameShapes ? 0 : 1;
}

/** One element of `units` slots: out[o·u …] = src[i·u …]. */
function copyUnits(out: NumberArray, o: number, src: NumberArray, i: number, units: number): void {
  for (let u = 0; u < units; u++) out[o * units + u] = src[i * units + u]!;
}

function select(d: SelectOpData, cond: Uint8Array, x: NumberArray, y: NumberArray, out: NumberArray): void {
  const units = d.layout.units;
  const n = d.dims;
  const cs = d.condStrides;
  const xs = d.xStrides;
  const ys = d.yStrides;
  const n4 = n[4]!;
  const c4 = cs[4]!;
  const x4 = xs[4]!;
  const y4 = ys[4]!;
  let o = 0;
  for (let i0 = 0; i0 < n[0]!; i0++)
    for (let i1 = 0; i1 < n[1]!; i1++)
      for (let i2 = 0; i2 < n[2]!; i2++)
        for (let i3 = 0; i3 < n[3]!; i3++) {
          let ic = i0 * cs[0]! + i1 * cs[1]! + i2 * cs[2]! + i3 * cs[3]!;
          let ix = i0 * xs[0]! + i1 * xs[1]! + i2 * xs[2]! + i3 * xs[3]!;
          let iy = i0 * ys[0]! + i1 * ys[1]! + i2 * ys[2]! + i3 * ys[3]!;
          if (units === 1) for (let i4 = 0; i4 < n4; i4++, o++, ic += c4, ix += x4, iy += y4) out[o] = cond[ic] !== 0 ? x[ix]! : y[iy]!;
          else
            for (let i4 = 0; i4 < n4; i4++, o++, ic += c4, ix += x4, iy += y4)
              if (cond[ic] !== 0) copyUnits(out, o, x, ix, units);
              else copyUnits(out, o, y, iy, units);
        }
}

/** Pads `dims` with leading 1s to RANK into `out` (allocation-free extendShape). */
function padInto(dims: ArrayLike<number>, out: Int32Array): void {
  const pad = RANK - dims.length;
  for (let i = 0; i < RANK; i++) out[i] = i < pad ? 1 : dims[i - pad]!;
}

/** broadcastStrides into `strides` (allocation-free). */
function stridesInto(dims: Int32Array, out: Int32Array, strides: Int32Array): void {
  let s = 1;
  for (let i = RANK - 1; i >= 0; i--) {
    strides[i] = dims[i] === 1 && out[i] !== 1 ? 0 : s;
    s *= dims[i]!;
  }
}

/** Invoke, data-dependent inputs: the broadcast, the walk and the output's dims from the inputs' actual dims. */
function followInputs(context: TfLiteContext, node: Node, d: SelectOpData, f: NonNullable<SelectOpData['follow']>): void {
  padInto(context.getEvalTensor(node.inputs[0]!).dims, f.c);
  padInto(context.getEvalTensor(node.inputs[1]!).dims, f.a);
  padInto(context.getEvalTensor(node.inputs[2]!).dims, f.b);
  for (let i = 0; i < RANK; i++) {
    const c = f.c[i]!;
    const a = f.a[i]!;
    const b = f.b[i]!;
    const n = c !== 1 ? c : a !== 1 ? a : b;
    if ((c !== 1 && c !== n) || (a !== 1 && a !== n) || (b !== 1 && b !== n))
      throw new KernelError(
        OP,
        node.index,
        `condition, x and y cannot be broadcast at this invoke (padded dimension ${i}: ${c}, ${a}, ${b})`,
      );
    d.dims[i] = n;
  }
  stridesInto(f.c, d.dims, d.condStrides);
  stridesInto(f.a, d.dims, d.xStrides);
  stridesInto(f.b, d.dims, d.yStrides);
  const skip = RANK - f.out.length;
  for (let i = 0; i < f.out.length; i++) f.out[i] = d.dims[skip + i]!;
  context.setActualShape(node.outputs[0]!, f.out);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SelectOpData>(OP, node);
  if (d.follow !== null) followInputs(context, node, d, d.follow);
  select(
    d,
    context.getEvalTensor(node.inputs[0]!).data as Uint8Array,
    movableData(context.getEvalTensor(node.inputs[1]!), d.layout),
    movableData(context.getEvalTensor(node.inputs[2]!), d.layout),
    movableData(context.getEvalTensor(node.outputs[0]!), d.layout),
  );
}

/** SELECT_V2 reference kernel: values of any fixed-size type with a bool condition. */
export const SELECT_V2 = {
  builtinCode: BuiltinOperator.SELECT_V2,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES, 1, 'x'),
  init: (context: TfLiteContext): SelectOpData => {
    const empty = new Int32Array(RANK);
    return {
      block: context.allocatePersistentBuffer(MATH_OP_DATA_BYTES.SELECT_V2).u8,
      dims: empty,
      condStrides: empty,
      xStrides: empty,
      yStrides: empty,
      layout: { useWords: false, units: 1 },
      follow: null,
    };
  },
  dynamicInputShapes: true,
  prepare,
  invoke,
};
