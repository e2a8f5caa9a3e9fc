/**
 * MIRROR_PAD (TFLM kernels/mirror_pad.cc): the node checks, the output shape and, per dimension, which
 * input index each output index reads, for every kernel package that runs it. Each dimension is padded
 * with a mirror image of the input: REFLECT leaves the edge element out of the mirror, SYMMETRIC repeats
 * it. The index arithmetic is TFLM's GetInputDimension, including its clamping of a right padding longer
 * than the mirrored part (those indices repeat input index 0); a left padding longer than that would make
 * TFLM read outside the input, and is refused. Up to 6 dimensions.
 */
import { KernelError, MirrorPadMode, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { MirrorPadOptions, Node, Tensor, TfLiteContext } from '@micrort/core';
import { expectType, shapeText } from './checks.js';
import { readConstantIndexTensor, requireSameTypeAs } from './constant-index.js';
import { setOutputShape } from './output-shape.js';
import { FIXED_SIZE_TYPES } from './slice.js';

/** MIRROR_PAD's types: float32 and int8 as TFLM, and every other fixed-size type as TFLite. */
export const MIRROR_PAD_TYPES: readonly TensorType[] = FIXED_SIZE_TYPES;

/** The most dimensions MIRROR_PAD takes. */
export const MIRROR_PAD_MAX_DIMS = 6;

/** A prepared MIRROR_PAD. */
export interface MirrorPad {
  input: Tensor;
  /** [left, right] per input dimension, flattened (non-negative). */
  pads: number[];
  /** 1 for REFLECT (the edge is not repeated), 0 for SYMMETRIC. */
  offset: number;
  /** Per input dimension, for each output index along it: the input index it reads. */
  maps: Int32Array[];
}

/** TFLM's GetInputDimension: the input index mirrored into output index `padded` along one axis. */
export function mirrorInputIndex(padded: number, leftPad: number, inputSize: number, offset: number): number {
  if (padded < leftPad) {
    const original = leftPad + offset - 1;
    return original - Math.min(padded, original - offset);
  }
  let p = padded - leftPad;
  if (p >= inputSize) {
    p -= inputSize;
    const original = inputSize - (1 + offset);
    return original - Math.min(p, original);
  }
  return p;
}

/**
 * Checks a MIRROR_PAD node (an input of {@link MIRROR_PAD_TYPES}, at most {@link MIRROR_PAD_MAX_DIMS}
 * dimensions, none empty; constant int32/int64 paddings of shape [rank, 2], non-negative, each mirror
 * inside the input; REFLECT or SYMMETRIC) and sets the output's shape. Throws KernelError or TensorTypeError.
 */
export function prepareMirrorPad(op: string, context: TfLiteContext, node: Node): MirrorPad {
  checkArity(op, node, 2, 1);
  const input = getInput(context, node, 0, op);
  const paddings = getInput(context, node, 1, op);
  const output = getOutput(context, node, 0, op);
  expectType(op, node, 'input', input, MIRROR_PAD_TYPES);
  requireSameTypeAs(op, node, output, 'output', input, 'input');
  const rank = input.dims.length;
  if (rank > MIRROR_PAD_MAX_DIMS)
    throw new KernelError(op, node.index, `input has ${rank} dimensions, at most ${MIRROR_PAD_MAX_DIMS} are supported`);
  if (paddings.dims.length !== 2 || paddings.dims[0] !== rank || paddings.dims[1] !== 2)
    throw new KernelError(op, node.index, `paddings has shape ${shapeText(paddings.dims)}, expected [${rank}, 2]`);
  expectType(op, node, 'paddings', paddings, [TensorType.INT32, TensorType.INT64]);
  const pads = readConstantIndexTensor(paddings, op, node, 'paddings');
  const options = node.builtinData as MirrorPadOptions | null;
  if (!options) throw new KernelError(op, node.index, 'missing MirrorPadOptions');
  if (options.mode !== MirrorPadMode.REFLECT && options.mode !== MirrorPadMode.SYMMETRIC)
    throw new KernelError(op, node.index, `unknown mirror pad mode ${options.mode} (REFLECT = 0, SYMMETRIC = 1)`);
  const offset = options.mode === MirrorPadMode.REFLECT ? 1 : 0;
  if (pads.every((p) => p >= 0))
    setOutputShape(
      op,
      context,
      node,
      0,
      Array.from(input.dims, (d, i) => d + pads[2 * i]! + pads[2 * i + 1]!),
    );
  const maps: Int32Array[] = [];
  for (let i = 0; i < rank; i++) {
    const left = pads[2 * i]!;
    const right = pads[2 * i + 1]!;
    const size = input.dims[i]!;
    if (left < 0 || right < 0)
      throw new KernelError(op, node.index, `paddings of dimension ${i} are [${left}, ${right}], must be non-negative`);
    if (size < 1) throw new KernelError(op, node.index, `input dimension ${i} is empty; there is nothing to mirror`);
    if (output.dims[i] !== size + left + right)
      throw new KernelError(
        op,
        node.index,
        `output dimension ${i} is ${output.dims[i]}, expected ${size} + ${left} + ${right} = ${size + left + right}`,
      );
    const map = new Int32Array(size + left + right);
    for (let o = 0; o < map.length; o++) {
      const m = mirrorInputIndex(o, left, size, offset);
      // Paddings beyond what the mirror covers would make TFLM read outside the input; refuse them.
      if (m < 0 || m >= size)
        throw new KernelError(
          op,
          node.index,
          `paddings [${left}, ${right}] of dimension ${i} are too large for its size ${size} in ${offset ? 'REFLECT' : 'SYMMETRIC'} mode`,
        );
      map[o] = m;
    }
    maps.push(map);
  }
  return { input, pads, offset, maps };
}
