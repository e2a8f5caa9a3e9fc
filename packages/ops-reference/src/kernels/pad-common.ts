/**
 * Shared kernel of PAD and PADV2 (TFLM kernels/pad.cc + pad_common.cc, reference_ops::Pad): pads a
 * float32/int8/int16/int32 (or TFLite's uint8, int64, bool) tensor of up to 5 dimensions with constant
 * paddings. The pad value is the optional third input (PADV2), else 0, except int8 and uint8, which pad
 * with the output zero point (TFLite's pad.cc EvalInt for uint8). int64 elements move as int32 word
 * pairs.
 */
import { KernelError, TensorType, checkArity, getInput, getOptionalInput, getOutput, tensorTypeName } from '@micrort/core';
import type { InPlaceVariant, Node, TfLiteContext } from '@micrort/core';
import {
  type NumberArray,
  type OpDataBlock,
  allocateOpDataBlock,
  extendShape,
  opDataBlock,
  readConstantIndexTensor,
  shapeString,
} from './transpose-common.js';
import { isDataDependent, opData, setOutputShapeOrBound } from '@micrort/kernel-support';

/** TFLM's PadKernelMaxDimensionCount(). */
export const PAD_MAX_DIMS = 5;

/**
 * sizeof(OpData) of TFLM's pad kernel: PadParams {int8 left_padding_count; int32 left_padding[5];
 * int8 right_padding_count; int32 right_padding[5]; uint8 resizing_category} then int32 output_zero_point.
 */
export const OP_DATA_PAD_BYTES = 56;

/** init of PAD and PADV2: TFLM's pad OpData block. */
export function initPad(context: TfLiteContext): OpDataBlock {
  return allocateOpDataBlock(context, OP_DATA_PAD_BYTES);
}

/** Op data computed in prepare. */
export interface PadOpData extends OpDataBlock {
  /** Output dims, front-padded with 1s to 5. */
  outDims: Int32Array;
  /** Left/right paddings per (padded) axis. */
  left: Int32Array;
  right: Int32Array;
  /** Pad value used when there is no constant_values input. */
  defaultPadValue: number;
  /** Tensor index of constant_values, or -1. */
  padValueTensor: number;
  /**
   * The in-place variant was granted (schedule `inplace`): the output is written from its last element
   * down, so it may start at the input's first byte (see `padBackward`).
   */
  inPlace: boolean;
  /** int64 elements: moved as (low, high) int32 word pairs. */
  words: boolean;
  /** A data-dependent input: the output's dims at this invoke (outDims follow the input's actual dims). */
  follow: Int32Array | null;
}

const SUPPORTED = new Set<TensorType>([
  TensorType.FLOAT32,
  TensorType.INT8,
  TensorType.INT16,
  TensorType.INT32,
  TensorType.UINT8,
  TensorType.INT64,
  TensorType.BOOL,
]);

/** int8 and uint8 pad with the output zero point and need constant_values quantized like the output. */
function zeroPointPadded(type: TensorType): boolean {
  return type === TensorType.INT8 || type === TensorType.UINT8;
}

/** Each dimension of `dims` grown by its paddings (`pads`: [before, after] per dimension), as TFLite's ResizeOutputTensor. */
export function paddedShape(dims: ArrayLike<number>, pads: ArrayLike<number>): number[] {
  return Array.from(dims, (d, i) => d + pads[2 * i]! + pads[2 * i + 1]!);
}

/** TFLM PadPrepare, with the output resized to the padded shape; `op` names the op (PAD or PADV2) in errors. */
export function preparePad(op: string, context: TfLiteContext, node: Node): PadOpData {
  checkArity(op, node, [2, 3], 1);
  const block = opDataBlock(op, node);
  const input = getInput(context, node, 0, op);
  const paddings = getInput(context, node, 1, op);
  const constantValues = getOptionalInput(context, node, 2);
  const output = getOutput(context, node, 0, op);
  if (!SUPPORTED.has(input.type))
    throw new KernelError(
      op,
      node.index,
      `unsupported input type ${tensorTypeName(input.type)} (float32, int8, int16, int32, uint8, int64, bool are supported)`,
    );
  if (output.type !== input.type)
    throw new KernelError(
      op,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  const rank = input.dims.length;
  if (rank > PAD_MAX_DIMS) throw new KernelError(op, node.index, `input has ${rank} dimensions, at most ${PAD_MAX_DIMS} are supported`);
  if (paddings.elementCount !== rank * 2)
    throw new KernelError(op, node.index, `paddings has shape ${shapeString(paddings.dims)}, expected [${rank}, 2]`);
  const pads = readConstantIndexTensor(paddings, op, node, 'paddings');
  const bounded = isDataDependent(input);
  if (pads.every((p) => p >= 0)) setOutputShapeOrBound(op, context, node, 0, paddedShape(input.dims, pads), bounded);

  const outDims = Int32Array.from(extendShape(output.dims, PAD_MAX_DIMS));
  const left = new Int32Array(PAD_MAX_DIMS);
  const right = new Int32Array(PAD_MAX_DIMS);
  const shift = PAD_MAX_DIMS - rank;
  for (let i = 0; i < rank; i++) {
    const l = pads[i * 2]!;
    const r = pads[i * 2 + 1]!;
    if (l < 0 || r < 0) throw new KernelError(op, node.index, `paddings of axis ${i} are [${l}, ${r}], must be non-negative`);
    const expected = input.dims[i]! + l + r;
    if (output.dims[i] !== expected)
      throw new KernelError(op, node.index, `output dim ${i} is ${output.dims[i]}, expected ${input.dims[i]} + ${l} + ${r} = ${expected}`);
    left[shift + i] = l;
    right[shift + i] = r;
  }

  let defaultPadValue = 0;
  if (constantValues) {
    if (constantValues.type !== input.type)
      throw new KernelError(
        op,
        node.index,
        `constant_values type ${tensorTypeName(constantValues.type)} differs from input type ${tensorTypeName(input.type)}`,
      );
    if (constantValues.elementCount !== 1)
      throw new KernelError(op, node.index, `constant_values must be a scalar, got shape ${shapeString(constantValues.dims)}`);
    if (
      zeroPointPadded(input.type) &&
      (constantValues.params.zeroPoint !== output.params.zeroPoint || constantValues.params.scale !== output.params.scale)
    )
      throw new KernelError(
        op,
        node.index,
        `constant_values quantization (scale ${constantValues.params.scale}, zero point ${constantValues.params.zeroPoint}) must equal ` +
          `the output's (scale ${output.params.scale}, zero point ${output.params.zeroPoint})`,
      );
  } else if (zeroPointPadded(input.type)) {
    const zp = output.params.zeroPoint;
    const [lo, hi] = input.type === TensorType.INT8 ? [-128, 127] : [0, 255];
    if (zp < lo || zp > hi)
      throw new KernelError(op, node.index, `output zero point ${zp} is outside the ${tensorTypeName(input.type)} range`);
    defaultPadValue = zp;
  }
  // TFLM's PadParams: paddings of the input's own axes, and kImageStyle (1) for 4-D paddings that leave
  // batch and channels alone, else kGenericResize (2).
  block.setInt8(0, rank);
  block.setInt8(24, rank);
  for (let i = 0; i < rank; i++) {
    block.setInt32(4 + 4 * i, pads[i * 2]!, true);
    block.setInt32(28 + 4 * i, pads[i * 2 + 1]!, true);
  }
  const imageStyle = pads.length === 8 && pads[0] === 0 && pads[1] === 0 && pads[6] === 0 && pads[7] === 0;
  block.setUint8(48, imageStyle ? 1 : 2);
  block.setInt32(52, zeroPointPadded(input.type) ? output.params.zeroPoint : 0, true);
  return {
    block,
    outDims,
    left,
    right,
    defaultPadValue,
    padValueTensor: constantValues ? constantValues.index : -1,
    inPlace: false,
    words: input.type === TensorType.INT64,
    follow: bounded ? Int32Array.from(output.dims) : null,
  };
}

/**
 * Writes the output in row-major order: padding rows are filled with `value`, other rows get the left
 * padding, the next input row, and the right padding (reference PadImpl's element order).
 */
function pad5(d: PadOpData, input: NumberArray, output: NumberArray, value: number): void {
  const od = d.outDims,
    l = d.left,
    r = d.right;
  const o0 = od[0]!,
    o1 = od[1]!,
    o2 = od[2]!,
    o3 = od[3]!,
    o4 = od[4]!;
  const l0 = l[0]!,
    l1 = l[1]!,
    l2 = l[2]!,
    l3 = l[3]!,
    l4 = l[4]!;
  const e0 = o0 - r[0]!,
    e1 = o1 - r[1]!,
    e2 = o2 - r[2]!,
    e3 = o3 - r[3]!,
    e4 = o4 - r[4]!;
  let p = 0;
  let o = 0;
  for (let i0 = 0; i0 < o0; i0++) {
    const pad0 = i0 < l0 || i0 >= e0;
    for (let i1 = 0; i1 < o1; i1++) {
      const pad1 = pad0 || i1 < l1 || i1 >= e1;
      for (let i2 = 0; i2 < o2; i2++) {
        const pad2 = pad1 || i2 < l2 || i2 >= e2;
        for (let i3 = 0; i3 < o3; i3++) {
          if (pad2 || i3 < l3 || i3 >= e3) {
            for (let i4 = 0; i4 < o4; i4++) output[o++] = value;
          } else {
            let i4 = 0;
            for (; i4 < l4; i4++) output[o++] = value;
            for (; i4 < e4; i4++) output[o++] = input[p++]!;
            for (; i4 < o4; i4++) output[o++] = value;
          }
        }
      }
    }
  }
}

/**
 * `pad5` walking the output from its last element to its first. Every input element goes to an output
 * index at least its own, and is read before any write reaches its index, so the output may start at
 * the input's first byte and overlap it (PAD's in-place variant); the bytes are `pad5`'s.
 */
function padBackward(d: PadOpData, input: NumberArray, output: NumberArray, value: number): void {
  const od = d.outDims,
    l = d.left,
    r = d.right;
  const o0 = od[0]!,
    o1 = od[1]!,
    o2 = od[2]!,
    o3 = od[3]!,
    o4 = od[4]!;
  const l0 = l[0]!,
    l1 = l[1]!,
    l2 = l[2]!,
    l3 = l[3]!,
    l4 = l[4]!;
  const e0 = o0 - r[0]!,
    e1 = o1 - r[1]!,
    e2 = o2 - r[2]!,
    e3 = o3 - r[3]!,
    e4 = o4 - r[4]!;
  let o = o0 * o1 * o2 * o3 * o4 - 1;
  let p = (e0 - l0) * (e1 - l1) * (e2 - l2) * (e3 - l3) * (e4 - l4) - 1;
  for (let i0 = o0 - 1; i0 >= 0; i0--) {
    const pad0 = i0 < l0 || i0 >= e0;
    for (let i1 = o1 - 1; i1 >= 0; i1--) {
      const pad1 = pad0 || i1 < l1 || i1 >= e1;
      for (let i2 = o2 - 1; i2 >= 0; i2--) {
        const pad2 = pad1 || i2 < l2 || i2 >= e2;
        for (let i3 = o3 - 1; i3 >= 0; i3--) {
          if (pad2 || i3 < l3 || i3 >= e3) {
            for (let i4 = 0; i4 < o4; i4++) output[o--] = value;
          } else {
            let i4 = o4 - 1;
            for (; i4 >= e4; i4--) output[o--] = value;
            for (; i4 >= l4; i4--) output[o--] = input[p--]!;
            for (; i4 >= 0; i4--) output[o--] = value;
          }
        }
      }
    }
  }
}

/** Element types of PAD's in-place variant (not int64, whose views hold BigInts). */
const IN_PLACE_TYPES = new Set<TensorType>([TensorType.FLOAT32, TensorType.INT8, TensorType.INT16, TensorType.INT32, TensorType.UINT8]);

/**
 * PAD/PADV2's in-place variant: the output (never smaller than the input) starts at the input's first
 * byte and is written backwards; no scratch.
 */
export function padInPlaceVariant(context: TfLiteContext, node: Node): InPlaceVariant | null {
  if (node.inputs.length < 2 || node.outputs.length !== 1 || node.inputs[0]! < 0 || node.outputs[0]! < 0) return null;
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== output.type || !IN_PLACE_TYPES.has(input.type) || output.byteLength < input.byteLength) return null;
  // a data-dependent input's rows move with its actual dims: not proved safe for the backward copy
  if (input.upperBound !== null) return null;
  return { input: 0, scratchBytes: 0 };
}

/** Switches a prepared PAD/PADV2 node to the backward copy. */
export function usePadInPlaceVariant(_context: TfLiteContext, node: Node): void {
  opData<PadOpData>('PAD', node).inPlace = true;
}

/** `pad5` for 8-byte elements as int32 word pairs, the pad value being `lo`, `hi`. */
function pad5Words(d: PadOpData, input: Int32Array, output: Int32Array, lo: number, hi: number): void {
  const od = d.outDims,
    l = d.left,
    r = d.right;
  const o4 = od[4]!,
    l4 = l[4]!,
    e4 = o4 - r[4]!;
  let p = 0;
  let o = 0;
  for (let i0 = 0; i0 < od[0]!; i0++) {
    const pad0 = i0 < l[0]! || i0 >= od[0]! - r[0]!;
    for (let i1 = 0; i1 < od[1]!; i1++) {
      const pad1 = pad0 || i1 < l[1]! || i1 >= od[1]! - r[1]!;
      for (let i2 = 0; i2 < od[2]!; i2++) {
        const pad2 = pad1 || i2 < l[2]! || i2 >= od[2]! - r[2]!;
        for (let i3 = 0; i3 < od[3]!; i3++) {
          const padRow = pad2 || i3 < l[3]! || i3 >= od[3]! - r[3]!;
          for (let i4 = 0; i4 < o4; i4++) {
            if (padRow || i4 < l4 || i4 >= e4) {
              output[o++] = lo;
              output[o++] = hi;
            } else {
              output[o++] = input[p++]!;
              output[o++] = input[p++]!;
            }
          }
        }
      }
    }
  }
}

/** PAD/PADV2 invoke. */
export function invokePad(context: TfLiteContext, node: Node): void {
  const d = opData<PadOpData>('PAD', node);
  const input = context.getEvalTensor(node.inputs[0]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  const follow = d.follow;
  if (follow !== null) {
    // a data-dependent input: pad its actual dims
    const dims = input.dims;
    const shift = PAD_MAX_DIMS - dims.length;
    for (let i = 0; i < dims.length; i++) {
      const n = dims[i]! + d.left[shift + i]! + d.right[shift + i]!;
      d.outDims[shift + i] = n;
      follow[i] = n;
    }
    context.setActualShape(node.outputs[0]!, follow);
  }
  if (d.words) {
    const v = d.padValueTensor >= 0 ? context.getEvalTensor(d.padValueTensor).words : null;
    pad5Words(d, input.words, output.words, v ? v[0]! : 0, v ? v[1]! : 0);
    return;
  }
  const value = d.padValueTensor >= 0 ? (context.getEvalTensor(d.padValueTensor).data as unknown as NumberArray)[0]! : d.defaultPadValue;
  if (d.inPlace) padBackward(d, input.data as unknown as NumberArray, output.data as unknown as NumberArray, value);
  else pad5(d, input.data as unknown as NumberArray, output.data as unknown as NumberArray, value);
}
