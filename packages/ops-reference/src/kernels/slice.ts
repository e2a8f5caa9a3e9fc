/**
 * SLICE (TFLM kernels/slice.cc, reference_ops::Slice): extracts input[begin : begin + size] (size -1:
 * to the end of the dimension). begin and size are 1-D int32 or int64 tensors of one type, one entry per
 * input dimension (at most 5). TFLM reads and checks them at eval (begin in [0, dim], the resolved size
 * in [0, dim - begin], the selected element count equal to the output's); micrort resolves constant ones
 * (model data, or folded during prepare) in prepare, where they give the output its shape, and runtime
 * ones at each invoke, where a bad value is a KernelError. With runtime ones the output keeps the file's
 * shape (TFLM's rule) when the file states one; when it does not (no shape of the input's rank, or a
 * `shape_signature` with -1, as the converter writes TFLite's dynamic slice), the output is data-dependent:
 * planned at the input's shape, the bound of every slice, with the actual dims [size…] set at each invoke
 * (data-dependent-shape.ts; the interpreter's default `shapes: 'computed'` only). The input may itself be
 * data-dependent: begin and size are then checked against its actual dims.
 *
 * Types: float32, int8, int16, int32, bool as TFLM; as TFLite, uint8, int64, every other fixed-size
 * type (TFLite's slice moves elements by size) and string (the selected strings, in order).
 */
import { BuiltinOperator, KernelError, TensorType } from '@micrort/core';
import type { EvalTensor, Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { FIXED_SIZE_TYPES, type StringMove, prepareStringMove, typeSupport, writeMappedStrings } from './data-common.js';
import {
  type ElementLayout,
  type NumberArray,
  elementLayout,
  extendShape,
  movableData,
  rowMajorStrides,
  shapeString,
} from './transpose-common.js';
import {
  SLICE_MAX_DIMS as MAX_DIMS,
  checkSliceNode,
  fillOpData,
  isDataDependent,
  newOpData,
  opData,
  refuseDataDependentInput,
  resolveSlice,
  setOutputShape,
} from '@micrort/kernel-support';
import { boundOutputShape, setActualOutputShape } from './data-dependent-shape.js';

const OP = 'SLICE';
const TYPES: readonly TensorType[] = [...FIXED_SIZE_TYPES, TensorType.STRING];
/** TFLM's kMaxDim. */
export const SLICE_MAX_DIMS = MAX_DIMS;

/** Op data computed in prepare; arrays are front-padded to 5 axes. */
interface SliceOpData {
  layout: ElementLayout;
  rank: number;
  inDims: Int32Array;
  inStrides: Int32Array;
  outCount: number;
  int64: boolean;
  /** begin and size are constant: `starts`/`counts` were filled in prepare. */
  constant: boolean;
  starts: Int32Array;
  /** Always 1 (SLICE has no steps; kernel-support's SliceAxes). */
  steps: Int32Array;
  counts: Int32Array;
  /** STRING input: the selected strings are written through this. */
  strings: StringMove | null;
  /** The output is data-dependent: its actual dims (the resolved sizes) are set at every invoke. */
  bounded: boolean;
  /** The input is data-dependent: inDims and inStrides are refreshed from its actual dims at every invoke. */
  dynamicInput: boolean;
  /** The output's dims at this invoke (bounded). */
  dims: Int32Array;
}

/** Refreshes inDims / inStrides (front-padded to 5 axes) from the input's actual dims. */
function readInputDims(d: SliceOpData, dims: Int32Array): void {
  const shift = SLICE_MAX_DIMS - d.rank;
  for (let i = 0; i < d.rank; i++) d.inDims[shift + i] = dims[i]!;
  let stride = 1;
  for (let i = SLICE_MAX_DIMS - 1; i >= 0; i--) {
    d.inStrides[i] = stride;
    stride *= d.inDims[i]!;
  }
}

/** kernel-support's resolveSlice on `d` (`checkCount` false: constant operands that give the output its shape). */
function resolve(d: SliceOpData, begin: EvalTensor, size: EvalTensor, checkCount = true): string | null {
  return resolveSlice(d, d.inDims, d.rank, begin, size, d.int64, d.outCount, checkCount);
}

function prepare(context: TfLiteContext, node: Node): void {
  const { input, begin, size, output, rank, int64 } = checkSliceNode(OP, context, node, TYPES);
  const inDims = extendShape(input.dims, SLICE_MAX_DIMS);
  const d: SliceOpData = {
    layout: input.type === TensorType.STRING ? { useWords: false, units: 1 } : elementLayout(input.type, OP, node),
    rank,
    inDims: Int32Array.from(inDims),
    inStrides: Int32Array.from(rowMajorStrides(inDims)),
    outCount: output.elementCount,
    int64,
    constant: begin.isConstant && size.isConstant,
    starts: new Int32Array(SLICE_MAX_DIMS),
    steps: new Int32Array(SLICE_MAX_DIMS).fill(1),
    counts: new Int32Array(SLICE_MAX_DIMS).fill(1),
    strings: input.type === TensorType.STRING ? prepareStringMove(OP, context, node, input, true) : null,
    bounded: false,
    dynamicInput: isDataDependent(input),
    dims: new Int32Array(rank),
  };
  if (d.dynamicInput && d.strings) refuseDataDependentInput(OP, context, node, 0, 'SLICE moves strings by a map sized in prepare');
  const fileHasNoShape =
    input.type !== TensorType.STRING && (output.dims.length !== rank || (output.shapeSignature?.includes(-1) ?? false));
  if (d.constant && !d.dynamicInput) {
    // Constant begin and size (model data or folded) give the output its shape, as TFLite's Prepare.
    const problem = resolve(d, begin, size, false);
    if (problem !== null) throw new KernelError(OP, node.index, problem);
    setOutputShape(OP, context, node, 0, Array.from(d.counts).slice(SLICE_MAX_DIMS - rank));
    d.outCount = output.elementCount;
  } else if (d.dynamicInput || (fileHasNoShape && context.shapeRule === 'computed')) {
    // Computed at invoke, and no shape to keep: every slice fits in the input (its bound, if data-dependent).
    d.bounded = true;
    d.dims.set(input.dims);
    boundOutputShape(OP, context, node, 0, d.dims);
  } else if (output.dims.length !== rank) {
    // Computed at invoke: the output keeps its own shape (TFLM's rule), checked against the slice there.
    throw new KernelError(OP, node.index, `output has shape ${shapeString(output.dims)}, expected ${rank} dimensions`);
  }
  fillOpData(OP, node, d);
}

/** Copies the selected block in row-major order; the last axis is a contiguous run. */
function slice5(d: SliceOpData, src: NumberArray, dst: NumberArray, units: number): void {
  const c = d.counts,
    st = d.starts,
    is = d.inStrides;
  const c0 = c[0]!,
    c1 = c[1]!,
    c2 = c[2]!,
    c3 = c[3]!;
  const run = c[4]! * units;
  const k0 = is[0]! * units,
    k1 = is[1]! * units,
    k2 = is[2]! * units,
    k3 = is[3]! * units;
  const base = (st[0]! * is[0]! + st[1]! * is[1]! + st[2]! * is[2]! + st[3]! * is[3]! + st[4]!) * units;
  let o = 0;
  for (let i0 = 0, p0 = base; i0 < c0; i0++, p0 += k0)
    for (let i1 = 0, p1 = p0; i1 < c1; i1++, p1 += k1)
      for (let i2 = 0, p2 = p1; i2 < c2; i2++, p2 += k2)
        for (let i3 = 0, p3 = p2; i3 < c3; i3++, p3 += k3) for (let r = 0, p = p3; r < run; r++) dst[o++] = src[p++]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SliceOpData>(OP, node);
  if (d.dynamicInput) readInputDims(d, context.getEvalTensor(node.inputs[0]!).dims);
  if (!d.constant || d.dynamicInput) {
    const problem = resolve(d, context.getEvalTensor(node.inputs[1]!), context.getEvalTensor(node.inputs[2]!), !d.bounded);
    if (problem !== null) throw new KernelError(OP, node.index, problem);
  }
  if (d.bounded) {
    for (let i = 0, shift = SLICE_MAX_DIMS - d.rank; i < d.rank; i++) d.dims[i] = d.counts[shift + i]!;
    setActualOutputShape(context, node, 0, d.dims);
  }
  if (d.strings) {
    slice5(d, d.strings.iota, d.strings.map, 1);
    writeMappedStrings(d.strings, context.getEvalTensor(node.inputs[0]!).bytes, context.getEvalTensor(node.outputs[0]!).bytes);
    return;
  }
  slice5(
    d,
    movableData(context.getEvalTensor(node.inputs[0]!), d.layout),
    movableData(context.getEvalTensor(node.outputs[0]!), d.layout),
    d.layout.units,
  );
}

/** SLICE registration (op versions 1..6). */
export const SLICE: Registration = {
  builtinCode: BuiltinOperator.SLICE,
  version: 6,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
