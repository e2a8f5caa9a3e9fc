/**
 * SLICE, STRIDED_SLICE, SPLIT, SPLIT_V and UNPACK (and REVERSE_V2, reverse-v2.ts) in WebAssembly: each
 * output is a strided view of the input (kernel-support's SliceAxes: a first index, a step and a count per
 * axis, or a split's runs), so
 * each runs on TRANSPOSE's transpose_bytes (assembly/layout/transpose.ts) with a parameter block written
 * at prepare by prepareStridedCopy: the output dims (the counts), the input byte strides (row-major
 * strides times the steps; negative for negative steps, which the wasm32 address arithmetic wraps), and a
 * base byte offset (Σ start · stride) added to the input's offset at invoke. Whole rows move by
 * memory.copy where the innermost step is 1. Only bytes move, so every fixed-size type of 1, 2, 4 or 8
 * bytes is exact; the node checks and the geometry are kernel-support's, as in ops-reference.
 */
import { TensorType, elementSize, tensorTypeName, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { SLICE_MAX_DIMS, isDataDependent, type SliceAxes, type SplitGeometry } from '@micrort/kernel-support';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';
import { prepareStridedCopy } from './transpose.js';

/** The element sizes transpose_bytes moves. */
const SIZES = new Set([1, 2, 4, 8]);

/** What invoke needs: one parameter block and base offset per output. */
export interface SliceCopyData {
  k: KernelExports | null;
  /** Offsets of the outputs' parameter blocks. */
  params: Int32Array;
  /** Byte offset of each output's first input element. */
  bases: Int32Array;
  /** The input's position among the node's inputs. */
  inputPosition: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** init's op data. */
export function initSliceCopy(): SliceCopyData {
  return { k: null, params: new Int32Array(0), bases: new Int32Array(0), inputPosition: 0, fixed: -1 };
}

/**
 * Why the data input `input` is not handled, or null: STRING (variable-size elements), an element size
 * other than 1, 2, 4 or 8 bytes, a shape that depends on data (the view is fixed at prepare).
 */
export function declineSliceInput(input: Tensor): string | null {
  if (input.type === TensorType.STRING) return 'string input (moves fixed-size elements)';
  const size = elementSize(input.type);
  if (size === undefined || !SIZES.has(size)) return `${tensorTypeName(input.type)} input (handles elements of 1, 2, 4 or 8 bytes)`;
  if (isDataDependent(input)) return 'input shape depends on data (the view is fixed at prepare)';
  return null;
}

/** The copy `axes` selects from a tensor of dims `inDims` (at most 5 axes) of `es`-byte elements: output dims, input byte strides, base. */
function sliceView(inDims: ArrayLike<number>, axes: SliceAxes, es: number): { dims: number[]; strides: number[]; base: number } {
  const pad = SLICE_MAX_DIMS - inDims.length;
  const dims: number[] = [];
  const strides: number[] = [];
  let base = 0;
  for (let a = SLICE_MAX_DIMS - 1, s = es; a >= 0; a--) {
    const n = a >= pad ? inDims[a - pad]! : 1;
    dims.unshift(axes.counts[a]!);
    strides.unshift(s * axes.steps[a]!);
    base += s * axes.starts[a]!;
    s *= n;
  }
  return { dims, strides, base };
}

/** Prepare of a one-output slice: the block and base of `axes` over the input at `inputPosition`. */
export function prepareSliceCopy(
  op: string,
  context: TfLiteContext,
  node: Node,
  data: SliceCopyData,
  input: Tensor,
  axes: SliceAxes,
): void {
  const es = elementSize(input.type)!;
  const v = sliceView(input.dims, axes, es);
  const t = prepareStridedCopy(op, context, node, v.dims, v.strides, es);
  data.k = t.k;
  data.params = Int32Array.of(t.params);
  data.bases = Int32Array.of(v.base);
  data.inputPosition = 0;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

/**
 * Prepare of a split: output i is, for each of `outer` steps, a run of sizes[i] · inner elements, the
 * input's rows being Σ sizes · inner elements long; a 2-D copy [outer, sizes[i] · inner] from offset
 * (sizes before i) · inner.
 */
export function prepareSplitCopy(op: string, context: TfLiteContext, node: Node, data: SliceCopyData, g: SplitGeometry): void {
  const es = elementSize(g.input.type)!;
  const n = g.sizes.length;
  const row = g.input.dims[g.axis]! * g.inner * es;
  data.params = new Int32Array(n);
  data.bases = new Int32Array(n);
  let before = 0;
  for (let i = 0; i < n; i++) {
    const run = g.sizes[i]! * g.inner;
    const t = prepareStridedCopy(op, context, node, [g.outer, run], [row, es], es);
    data.k = t.k;
    data.params[i] = t.params;
    data.bases[i] = before * g.inner * es;
    before += g.sizes[i]!;
  }
  data.inputPosition = g.inputPosition;
  data.fixed = constantInputCopies(context, node, [g.inputPosition])[0]!;
}

/** Invoke: every output's strided copy. Allocates nothing. */
export function invokeSliceCopy(context: TfLiteContext, node: Node, data: SliceCopyData): void {
  const input = inputOffset(context, node, data.inputPosition, data.fixed);
  const k = data.k!;
  for (let i = 0; i < data.params.length; i++)
    k.transpose_bytes(data.params[i]!, input + data.bases[i]!, context.getEvalTensor(node.outputs[i]!).data.byteOffset);
}
