/**
 * TRANSPOSE (TFLM kernels/transpose.cc, reference_ops::Transpose) in WebAssembly: permutes the
 * dimensions (up to 6) of a tensor whose elements are 1, 2, 4 or 8 bytes, with a constant int32/int64
 * `perm`. It only moves bytes, so every such type is exact. At prepare the output axes are reduced
 * (copyAxes: size-1 axes dropped, output axes whose input axes are also neighbours, in the same order,
 * merged: NCHW → NHWC becomes [N, H·W, C] with a unit stride on H·W); transpose_bytes
 * (assembly/layout/transpose.ts) then copies whole rows, interleaves or splits 2-4 planes (NCHW ↔ NHWC),
 * transposes SIMD tiles, or walks the output element by element, by the two innermost axes. Declines a
 * `perm` that is not constant and elements of other sizes. */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  elementSize,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import { TP, TP_BYTES } from '../generated/abi.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import type { KernelExports } from '../wasm-module.js';
import { declineArity } from '@micrort/kernel-support';

const OP = 'TRANSPOSE';
/** TFLM's kTransposeMaxDimensions. */
const MAX_DIMS = 6;
/** Parameter block TP (scripts/abi.mjs): dims[6], input byte strides[6], element size; TFLM keeps no OpData for TRANSPOSE. */
const TRANSPOSE_PARAMS_BYTES = TP_BYTES;
const SIZES = new Set([1, 2, 4, 8]);

interface TransposeData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const perm = context.getTensor(node.inputs[1]!);
  const size = elementSize(input.type);
  if (size === undefined || !SIZES.has(size)) return `${tensorTypeName(input.type)} input (handles elements of 1, 2, 4 or 8 bytes)`;
  if (!perm.isConstant) return 'perm is not a constant';
  if (perm.type !== TensorType.INT32 && perm.type !== TensorType.INT64) return `${tensorTypeName(perm.type)} perm`;
  if (input.dims.length > MAX_DIMS) return `rank ${input.dims.length} (handles up to ${MAX_DIMS})`;
  return true;
}

function readPerm(t: Tensor, rank: number, node: Node): number[] {
  if (t.dims.length !== 1 || t.dims[0] !== rank)
    throw new KernelError(OP, node.index, `perm must be a 1-D tensor of ${rank} elements, got shape [${t.dims.join(', ')}]`);
  const out: number[] = [];
  const seen = new Array<boolean>(rank).fill(false);
  for (let i = 0; i < rank; i++) {
    const p = t.type === TensorType.INT64 ? Number((t.data as BigInt64Array)[i]!) : (t.data as Int32Array)[i]!;
    if (!(p >= 0 && p < rank)) throw new KernelError(OP, node.index, `perm[${i}] = ${p} is out of range [0, ${rank})`);
    if (seen[p]) throw new KernelError(OP, node.index, `perm [${out.concat(p).join(', ')}…] is not a permutation (axis ${p} repeated)`);
    seen[p] = true;
    out.push(p);
  }
  return out;
}

/**
 * The axes of a strided copy as transpose_bytes walks them: output dims `dims` with the input byte stride
 * `strides[k]` along output axis k (negative: walking backwards), axes of size 1 dropped, an axis merged
 * into the one before it when they step through the input as one (strides[k-1] = strides[k] · dims[k];
 * for a transpose, input axes that are neighbours in the same order), front-padded to MAX_DIMS with
 * (1, 0); one element is one axis (1, es). Null when more than MAX_DIMS axes remain.
 */
export function copyAxes(dims: ArrayLike<number>, strides: ArrayLike<number>, es: number): { dims: number[]; strides: number[] } | null {
  const d: number[] = [];
  const s: number[] = [];
  for (let k = 0; k < dims.length; k++) {
    const n = dims[k]!;
    if (n === 1) continue;
    const last = d.length - 1;
    if (last >= 0 && s[last] === strides[k]! * n) {
      d[last]! *= n;
      s[last] = strides[k]!;
    } else {
      d.push(n);
      s.push(strides[k]!);
    }
  }
  if (d.length === 0) {
    d.push(1);
    s.push(es);
  }
  if (d.length > MAX_DIMS) return null;
  while (d.length < MAX_DIMS) {
    d.unshift(1);
    s.unshift(0);
  }
  return { dims: d, strides: s };
}

/**
 * Writes transpose_bytes's parameter block (a persistent buffer) for a strided copy of elements of `es`
 * bytes (1, 2, 4 or 8): the output, row-major, of dims `dims`, reads along output axis k with the input
 * byte stride `strides[k]`, from the input's first selected element (the base the caller adds to the
 * input's offset). Returns the kernels and the block's offset; KernelError when more than 6 axes remain
 * after {@link copyAxes} merges them (`supports()` declines those first). SLICE, STRIDED_SLICE, SPLIT,
 * SPLIT_V and UNPACK (slice-copy.ts) and every transpose run through it.
 */
export function prepareStridedCopy(
  op: string,
  context: TfLiteContext,
  node: Node,
  dims: ArrayLike<number>,
  strides: ArrayLike<number>,
  es: number,
): { k: KernelExports | null; params: number } {
  const axes = copyAxes(dims, strides, es);
  if (!axes)
    throw new KernelError(op, node.index, `a strided copy of dims [${Array.from(dims).join(', ')}] needs more than ${MAX_DIMS} axes`);
  const region = context.allocatePersistentBuffer(TRANSPOSE_PARAMS_BYTES);
  const k = kernelsFor(op, node, region);
  const p = region.i32;
  for (let i = 0; i < MAX_DIMS; i++) {
    p[TP.D + i] = axes.dims[i]!;
    p[TP.S + i] = axes.strides[i]!;
  }
  p[TP.Es] = es;
  return { k, params: region.offset };
}

/**
 * Writes transpose_bytes's parameter block (a persistent buffer) for the transpose by `perm` of a tensor of
 * shape `inDims` (at most 6 axes) and elements of `es` bytes; returns the kernels and the block's offset.
 * DEPTH_TO_SPACE and SPACE_TO_DEPTH (block-rearrange.ts) run through it on their 6-D views.
 */
export function prepareTransposeBytes(
  op: string,
  context: TfLiteContext,
  node: Node,
  inDims: ArrayLike<number>,
  perm: readonly number[],
  es: number,
): { k: KernelExports | null; params: number } {
  const rank = inDims.length;
  if (rank > MAX_DIMS || perm.length !== rank)
    throw new KernelError(op, node.index, `a transpose of ${rank} axes by a perm of ${perm.length} (handles up to ${MAX_DIMS})`);
  const inStride: number[] = new Array<number>(rank);
  for (let d = rank - 1, s = es; d >= 0; d--) {
    inStride[d] = s;
    s *= inDims[d]!;
  }
  return prepareStridedCopy(
    op,
    context,
    node,
    perm.map((a) => inDims[a]!),
    perm.map((a) => inStride[a]!),
    es,
  );
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as TransposeData;
  if (node.inputs.length !== 2 || node.outputs.length !== 1) throw new KernelError(OP, node.index, 'expects 2 inputs and 1 output');
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (output.type !== input.type)
    throw new KernelError(
      OP,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  const rank = input.dims.length;
  if (output.dims.length !== rank)
    throw new KernelError(OP, node.index, `output rank ${output.dims.length} differs from input rank ${rank}`);
  const perm = readPerm(context.getTensor(node.inputs[1]!), rank, node);
  for (let i = 0; i < rank; i++) {
    if (output.dims[i] !== input.dims[perm[i]!])
      throw new KernelError(
        OP,
        node.index,
        `output shape [${output.dims.join(', ')}] does not match the permuted input shape [${perm.map((p) => input.dims[p]).join(', ')}]`,
      );
  }
  const t = prepareTransposeBytes(OP, context, node, input.dims, perm, elementSize(input.type)!);
  data.k = t.k;
  data.params = t.params;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as TransposeData;
  data.k!.transpose_bytes(data.params, inputOffset(context, node, 0, data.fixed), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The TRANSPOSE registration. */
export function createTranspose(): Registration<TransposeData> {
  return {
    builtinCode: BuiltinOperator.TRANSPOSE,
    version: 6,
    provider: PROVIDER,
    name: 'TRANSPOSE/wasm-bytes',
    supports,
    init: (): TransposeData => ({ k: null, params: 0, fixed: -1 }),
    prepare,
    invoke,
  };
}
