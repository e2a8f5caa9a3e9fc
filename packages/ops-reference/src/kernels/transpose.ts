/**
 * TRANSPOSE (TFLM kernels/transpose.cc + transpose_common.cc, reference_ops::Transpose): permutes the
 * dimensions of a tensor of up to 6 dimensions; `perm` comes from a constant int32/int64 tensor.
 * Works for every element type with a fixed size (it only moves elements). A data-dependent input is
 * followed: the walk and the output's dims are recomputed from its actual dims at every invoke.
 */
import { BuiltinOperator, KernelError, checkArity, getInput, getOutput, tensorTypeName } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  type ElementLayout,
  type NumberArray,
  elementLayout,
  movableData,
  readConstantIndexTensor,
  rowMajorStrides,
  shapeString,
} from './transpose-common.js';
import { fillOpData, isDataDependent, newOpData, opData, setOutputShapeOrBound } from '@micrort/kernel-support';

const OP = 'TRANSPOSE';
/** TFLM's kTransposeMaxDimensions. */
export const TRANSPOSE_MAX_DIMS = 6;

/** Op data computed in prepare. */
export interface TransposeOpData {
  layout: ElementLayout;
  /** Output dims, front-padded with 1s to 6. */
  outDims: Int32Array;
  /** For each (padded) output axis, the stride in input elements of the input axis it reads. */
  inStrides: Int32Array;
  /**
   * A data-dependent input: the permutation, and scratch for the input's strides and the output's dims
   * at this invoke (recomputed from the input's actual dims). Null otherwise.
   */
  follow: { perm: Int32Array; strides: Int32Array; dims: Int32Array } | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const permTensor = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  const rank = input.dims.length;
  if (rank > TRANSPOSE_MAX_DIMS)
    throw new KernelError(OP, node.index, `input has ${rank} dimensions, at most ${TRANSPOSE_MAX_DIMS} are supported`);
  if (output.type !== input.type)
    throw new KernelError(
      OP,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  const layout = elementLayout(input.type, OP, node);
  if (permTensor.dims.length !== 1 || permTensor.dims[0] !== rank)
    throw new KernelError(OP, node.index, `perm must be a 1-D tensor of ${rank} elements, got shape ${shapeString(permTensor.dims)}`);
  const perm = readConstantIndexTensor(permTensor, OP, node, 'perm');
  const seen = new Array<boolean>(rank).fill(false);
  for (let i = 0; i < rank; i++) {
    const p = perm[i]!;
    if (p < 0 || p >= rank) throw new KernelError(OP, node.index, `perm[${i}] = ${p} is out of range [0, ${rank})`);
    if (seen[p]) throw new KernelError(OP, node.index, `perm ${shapeString(perm)} is not a permutation (axis ${p} repeated)`);
    seen[p] = true;
  }
  const expected = perm.map((p) => input.dims[p]!);
  const bounded = isDataDependent(input);
  setOutputShapeOrBound(OP, context, node, 0, expected, bounded);

  const inStride = rowMajorStrides(Array.from(input.dims));
  const pad = TRANSPOSE_MAX_DIMS - rank;
  const outDims = new Int32Array(TRANSPOSE_MAX_DIMS).fill(1);
  const inStrides = new Int32Array(TRANSPOSE_MAX_DIMS);
  for (let k = 0; k < rank; k++) {
    outDims[pad + k] = expected[k]!;
    inStrides[pad + k] = inStride[perm[k]!]!;
  }
  const follow = bounded ? { perm: Int32Array.from(perm), strides: new Int32Array(rank), dims: new Int32Array(rank) } : null;
  const data: TransposeOpData = { layout, outDims, inStrides, follow };
  fillOpData(OP, node, data);
}

/**
 * out[o0..o5] = in[sum(o_k * inStrides[k])], output in row-major order; `units` slots per element.
 */
function gather6(src: NumberArray, dst: NumberArray, dims: Int32Array, strides: Int32Array, units: number): void {
  const d0 = dims[0]!,
    d1 = dims[1]!,
    d2 = dims[2]!,
    d3 = dims[3]!,
    d4 = dims[4]!,
    d5 = dims[5]!;
  const s0 = strides[0]!,
    s1 = strides[1]!,
    s2 = strides[2]!,
    s3 = strides[3]!,
    s4 = strides[4]!,
    s5 = strides[5]!;
  let o = 0;
  for (let i0 = 0; i0 < d0; i0++) {
    const b0 = i0 * s0;
    for (let i1 = 0; i1 < d1; i1++) {
      const b1 = b0 + i1 * s1;
      for (let i2 = 0; i2 < d2; i2++) {
        const b2 = b1 + i2 * s2;
        for (let i3 = 0; i3 < d3; i3++) {
          const b3 = b2 + i3 * s3;
          for (let i4 = 0; i4 < d4; i4++) {
            let p = b3 + i4 * s4;
            if (units === 1) {
              for (let i5 = 0; i5 < d5; i5++, p += s5) dst[o++] = src[p]!;
            } else {
              for (let i5 = 0; i5 < d5; i5++, p += s5) {
                const q = p * units;
                for (let u = 0; u < units; u++) dst[o++] = src[q + u]!;
              }
            }
          }
        }
      }
    }
  }
}

/** Invoke, data-dependent input: the walk and the output's dims from the input's actual `dims`. */
function followInput(
  context: TfLiteContext,
  node: Node,
  data: TransposeOpData,
  f: NonNullable<TransposeOpData['follow']>,
  dims: Int32Array,
): void {
  const rank = dims.length;
  for (let d = rank - 1, s = 1; d >= 0; d--) {
    f.strides[d] = s;
    s *= dims[d]!;
  }
  const pad = TRANSPOSE_MAX_DIMS - rank;
  for (let k = 0; k < rank; k++) {
    const p = f.perm[k]!;
    f.dims[k] = dims[p]!;
    data.outDims[pad + k] = dims[p]!;
    data.inStrides[pad + k] = f.strides[p]!;
  }
  context.setActualShape(node.outputs[0]!, f.dims);
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<TransposeOpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  if (data.follow !== null) followInput(context, node, data, data.follow, input.dims);
  gather6(movableData(input, data.layout), movableData(output, data.layout), data.outDims, data.inStrides, data.layout.units);
}

/** TRANSPOSE registration (op versions 1..6). */
export const TRANSPOSE: Registration = {
  builtinCode: BuiltinOperator.TRANSPOSE,
  version: 6,
  provider: PROVIDER,
  name: OP,
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
