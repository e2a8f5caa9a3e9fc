/**
 * Helpers shared by the pooling, reduction and data-movement kernels (TRANSPOSE, STRIDED_SLICE, PAD,
 * CONCATENATION, MEAN, the pools): reading constant index tensors in prepare, moving elements of any
 * fixed-size type without allocating in invoke, and TFLM's op-data blocks in the arena.
 */
import { KernelError, TensorType, elementSize, tensorTypeName } from '@micrort/core';
import type { EvalTensor, Node, TfLiteContext } from '@micrort/core';
import { allocateOpDataView, opData } from '@micrort/kernel-support';

/** What `init` of these kernels returns: the arena block holding TFLM's OpData struct. */
export interface OpDataBlock {
  block: DataView;
}

/**
 * init of these kernels: a persistent block of `bytes` (the size of the kernel's TFLM OpData struct on
 * the x86-64 build the conformance figures come from), so arena figures stay comparable with TFLM's;
 * prepare fills it with TFLM's fields (little-endian, TFLM's layout) and `fillOpData`s the rest.
 */
export function allocateOpDataBlock(context: TfLiteContext, bytes: number): OpDataBlock {
  return { block: allocateOpDataView(context, bytes) };
}

/** The op-data block `init` allocated (kernel-support's `opData`: a KernelError when init did not run). */
export function opDataBlock(op: string, node: Node): DataView {
  return opData<OpDataBlock>(op, node).block;
}

/** An indexable array of numbers: every typed array of micrort except the BigInt ones. */
export interface NumberArray {
  [index: number]: number;
  readonly length: number;
}

/**
 * How a kernel that only moves elements reads and writes a tensor: through its typed `data` view (1- and
 * 2-byte types), or its int32 `words` (every type whose size is a multiple of 4: float32 and uint32 too,
 * so a move never reads a value a JavaScript number must box — a float, a uint32 above 2^31 — whatever
 * mix of types a shared kernel has seen, and NaN bits stay as they are; int64, uint64, float64 and complex
 * as 2 or 4 words, whose BigInt views would allocate a BigInt per read), with `units` array slots per
 * element.
 */
export interface ElementLayout {
  readonly useWords: boolean;
  readonly units: number;
}

const WORDS_1: ElementLayout = { useWords: true, units: 1 };
const WORDS_2: ElementLayout = { useWords: true, units: 2 };
const WORDS_4: ElementLayout = { useWords: true, units: 4 };
const SINGLE_UNIT: ElementLayout = { useWords: false, units: 1 };

/** The layout used to move elements of `type`; KernelError for types without a fixed element size. */
export function elementLayout(type: TensorType, op: string, node: Node): ElementLayout {
  const size = elementSize(type);
  if (size === undefined) throw new KernelError(op, node.index, `unsupported tensor type ${tensorTypeName(type)} (no fixed element size)`);
  return size === 4 ? WORDS_1 : size === 8 ? WORDS_2 : size === 16 ? WORDS_4 : SINGLE_UNIT;
}

/** The array a data-movement kernel works on for `tensor` under `layout` (no allocation). */
export function movableData(tensor: EvalTensor, layout: ElementLayout): NumberArray {
  return layout.useWords ? tensor.words : (tensor.data as unknown as NumberArray);
}

// Moved to kernel-support (SLICE, STRIDED_SLICE and the splits read it in both kernel packages).
export { readConstantIndexTensor } from '@micrort/kernel-support';

/** `dims` as a plain array, front-padded with 1s to `rank` entries (TFLM's RuntimeShape::ExtendedShape). */
export function extendShape(dims: ArrayLike<number>, rank: number): number[] {
  const out = new Array<number>(rank).fill(1);
  const pad = rank - dims.length;
  for (let i = 0; i < dims.length; i++) out[pad + i] = dims[i]!;
  return out;
}

/** Row-major strides (in elements) of `dims`. */
export function rowMajorStrides(dims: readonly number[]): number[] {
  const strides = new Array<number>(dims.length);
  let s = 1;
  for (let i = dims.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i]!;
  }
  return strides;
}

/** `[a, b, c]` for messages. */
export function shapeString(dims: ArrayLike<number>): string {
  return `[${Array.from(dims).join(', ')}]`;
}
