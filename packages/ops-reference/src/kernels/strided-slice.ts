/**
 * STRIDED_SLICE (TFLM kernels/strided_slice.cc + strided_slice_common.cc, micro reference_ops::
 * StridedSlice and strided_slice_logic.h): slices a tensor of up to 5 dimensions with constant
 * begin/end/strides (int32 or int64; model data, or folded during prepare from shape arithmetic),
 * begin/end masks, shrink_axis_mask, negative indices and the `offset` flag (end relative to begin). The
 * output gets the slice's shape. Works for every fixed-size element type, and for strings (as TFLite:
 * the selected strings, in order).
 *
 * As in TFLM, ellipsis_mask and new_axis_mask are not applied (TFLM zeroes them); with either set the
 * output shape in the file is checked against the slice, so a model that relies on them fails in prepare.
 *
 * An input whose shape depends on data (a detector's gathered boxes…) makes the output data-dependent:
 * planned at the slice of the input's bound, with the slice recomputed from the input's actual dims at
 * every invoke (data-dependent-shape.ts; not with ellipsis_mask / new_axis_mask, nor for strings).
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import { type StringMove, prepareStringMove, writeMappedStrings } from './data-common.js';
import type { Node, Registration, StridedSliceOptions, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  type ElementLayout,
  type NumberArray,
  type OpDataBlock,
  allocateOpDataBlock,
  elementLayout,
  opDataBlock,
  extendShape,
  movableData,
  rowMajorStrides,
} from './transpose-common.js';
import {
  SLICE_MAX_DIMS,
  type StridedSliceSpec,
  fillOpData,
  opData,
  prepareStridedSlice,
  resolveStridedSlice,
  stridedSliceError,
  stridedSliceStart,
  stridedSliceStop,
} from '@micrort/kernel-support';

/** kernel-support's StridedSliceStartForAxis / StridedSliceEndForAxis, under the names this package's tests use. */
export { stridedSliceStart as startForAxis, stridedSliceStop as endForAxis };

/** What a data-dependent input needs to recompute the slice at invoke. */
interface FollowData {
  spec: StridedSliceSpec;
  /** The padded input dims at this invoke (5 entries). */
  inDims: Int32Array;
  /** The output's dims at this invoke. */
  dims: Int32Array;
}

const OP = 'STRIDED_SLICE';
/** Rank the reference loop runs at (StridedSlicePadIndices pads every slice to 5 dimensions). */
export const STRIDED_SLICE_MAX_DIMS = SLICE_MAX_DIMS;

/**
 * sizeof(StridedSliceParams) in TFLM (its op data): int8 start_indices_count, int32 start_indices[5],
 * the same for stop_indices and strides, uint16 begin/ellipsis/end/new_axis/shrink_axis masks, bool offset.
 */
export const OP_DATA_STRIDED_SLICE_BYTES = 84;

/** Op data computed in prepare; all arrays have 5 entries (front-padded axes). */
export interface StridedSliceOpData extends OpDataBlock {
  layout: ElementLayout;
  /** First input index along each axis. */
  starts: Int32Array;
  /** Step along each axis (non-zero, may be negative). */
  steps: Int32Array;
  /** Number of positions visited along each axis. */
  counts: Int32Array;
  /** Row-major strides of the (padded) input, in elements. */
  inStrides: Int32Array;
  /** STRING input (TFLite): the selected strings are written through this. */
  strings: StringMove | null;
  /** A data-dependent input: the slice is recomputed from its actual dims at every invoke. */
  follow: FollowData | null;
}

function init(context: TfLiteContext): OpDataBlock {
  return allocateOpDataBlock(context, OP_DATA_STRIDED_SLICE_BYTES);
}

/** Writes TFLM's StridedSliceParams (ellipsis and new-axis masks zeroed, as TFLM's BuildStridedSliceParams). */
function writeParams(block: DataView, begin: number[], end: number[], strides: number[], params: StridedSliceOptions | null): void {
  const rank = begin.length;
  block.setInt8(0, rank);
  block.setInt8(24, rank);
  block.setInt8(48, rank);
  for (let i = 0; i < rank; i++) {
    block.setInt32(4 + 4 * i, begin[i]!, true);
    block.setInt32(28 + 4 * i, end[i]!, true);
    block.setInt32(52 + 4 * i, strides[i]!, true);
  }
  block.setUint16(72, params?.beginMask ?? 0, true);
  block.setUint16(74, 0, true);
  block.setUint16(76, params?.endMask ?? 0, true);
  block.setUint16(78, 0, true);
  block.setUint16(80, params?.shrinkAxisMask ?? 0, true);
  block.setUint8(82, params?.offset ? 1 : 0);
}

function prepare(context: TfLiteContext, node: Node): void {
  let layout: ElementLayout = { useWords: false, units: 1 };
  const g = prepareStridedSlice(OP, context, node, (input) => {
    if (input.type !== TensorType.STRING) layout = elementLayout(input.type, OP, node);
  });
  const block = opDataBlock(OP, node);
  const { input, spec } = g;
  writeParams(
    block,
    Array.from(spec.begin),
    Array.from(spec.end),
    Array.from(spec.strides),
    (node.builtinData as StridedSliceOptions | null) ?? null,
  );
  const strings = input.type === TensorType.STRING ? prepareStringMove(OP, context, node, input, true) : null;
  const dims = extendShape(input.dims, STRIDED_SLICE_MAX_DIMS);
  const follow: FollowData | null = g.bounded ? { spec, inDims: Int32Array.from(dims), dims: Int32Array.from(g.shape) } : null;
  const data: StridedSliceOpData = {
    block,
    layout,
    starts: g.axes.starts,
    steps: g.axes.steps,
    counts: g.axes.counts,
    inStrides: Int32Array.from(rowMajorStrides(dims)),
    strings,
    follow,
  };
  fillOpData(OP, node, data);
}

/** Copies the selected elements in row-major output order; `units` slots per element. */
function slice5(d: StridedSliceOpData, src: NumberArray, dst: NumberArray, units: number): void {
  const c = d.counts,
    st = d.starts,
    sp = d.steps,
    is = d.inStrides;
  const c0 = c[0]!,
    c1 = c[1]!,
    c2 = c[2]!,
    c3 = c[3]!,
    c4 = c[4]!;
  // Per-axis step in input elements, and the offset of the first selected element.
  const k0 = sp[0]! * is[0]!,
    k1 = sp[1]! * is[1]!,
    k2 = sp[2]! * is[2]!,
    k3 = sp[3]! * is[3]!,
    k4 = sp[4]! * is[4]!;
  const base = st[0]! * is[0]! + st[1]! * is[1]! + st[2]! * is[2]! + st[3]! * is[3]! + st[4]! * is[4]!;
  let o = 0;
  for (let i0 = 0, p0 = base; i0 < c0; i0++, p0 += k0)
    for (let i1 = 0, p1 = p0; i1 < c1; i1++, p1 += k1)
      for (let i2 = 0, p2 = p1; i2 < c2; i2++, p2 += k2)
        for (let i3 = 0, p3 = p2; i3 < c3; i3++, p3 += k3) {
          if (units === 1) {
            for (let i4 = 0, p = p3; i4 < c4; i4++, p += k4) dst[o++] = src[p]!;
          } else {
            for (let i4 = 0, p = p3; i4 < c4; i4++, p += k4) {
              const q = p * units;
              for (let u = 0; u < units; u++) dst[o++] = src[q + u]!;
            }
          }
        }
}

/** A data-dependent input: the slice (starts, counts, strides, the output's dims) from its actual dims. */
function followInput(context: TfLiteContext, node: Node, d: StridedSliceOpData, f: FollowData): void {
  const actual = context.getEvalTensor(node.inputs[0]!).dims;
  const bad = resolveStridedSlice(f.spec, actual, d, f.dims);
  if (bad >= 0) throw stridedSliceError(OP, node, f.spec, actual, d, bad, true);
  const pad = STRIDED_SLICE_MAX_DIMS - actual.length;
  for (let axis = 0; axis < actual.length; axis++) f.inDims[pad + axis] = actual[axis]!;
  for (let k = STRIDED_SLICE_MAX_DIMS - 1, s = 1; k >= 0; k--) {
    d.inStrides[k] = s;
    s *= f.inDims[k]!;
  }
  context.setActualShape(node.outputs[0]!, f.dims);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<StridedSliceOpData>(OP, node);
  if (d.follow) followInput(context, node, d, d.follow);
  const input = context.getEvalTensor(node.inputs[0]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  if (d.strings) {
    slice5(d, d.strings.iota, d.strings.map, 1);
    writeMappedStrings(d.strings, input.bytes, output.bytes);
    return;
  }
  slice5(d, movableData(input, d.layout), movableData(output, d.layout), d.layout.units);
}

/** STRIDED_SLICE registration (op versions 1..8). */
export const STRIDED_SLICE: Registration = {
  builtinCode: BuiltinOperator.STRIDED_SLICE,
  version: 8,
  provider: PROVIDER,
  name: OP,
  dynamicInputShapes: true,
  init,
  prepare,
  invoke,
};
