/**
 * DENSIFY (TFLite kernels/densify.cc, FormatConverter::SparseToDense of
 * kernels/internal/utils/sparsity_format_converter.cc): expands a sparse constant (float32, float16 or
 * int8, as TFLite) into its dense tensor. TFLM has no DENSIFY.
 *
 * As TFLite, the output is persistent and filled once: here in prepare, into a persistent arena buffer
 * (`allocatePersistentOutput`), so the dense weights cost their full size in the arena tail and invoke
 * does nothing. Consumers prepared after it (DEQUANTIZE, convolutions) already see the dense values.
 */
import {
  BuiltinOperator,
  KernelError,
  SparsityError,
  TensorType,
  allocatePersistentOutput,
  checkArity,
  getInput,
  getOutput,
  sparseLayout,
  tensorTypeName,
  type Node,
  type Registration,
  type SparseLayout,
  type SparsityDef,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import type { NumberArray } from './transpose-common.js';
import { setOutputShape } from '@micrort/kernel-support';

const OP = 'DENSIFY';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.FLOAT16, TensorType.INT8];

/** Why this kernel declines the node, or null. */
function problem(context: TfLiteContext, node: Node): string | null {
  if (node.inputs.length !== 1 || node.outputs.length !== 1)
    return `expects 1 input and 1 output, got ${node.inputs.length} and ${node.outputs.length}`;
  if (node.inputs[0]! < 0 || node.outputs[0]! < 0) return 'input and output tensors are required';
  const input = context.getTensor(node.inputs[0]!);
  if (!input.sparsity) return `input (tensor ${input.index}) is not sparse`;
  if (!TYPES.includes(input.type)) return `${tensorTypeName(input.type)} input (handles float32, float16, int8)`;
  return null;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const why = problem(context, node);
  if (why !== null) throw new KernelError(OP, node.index, why);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  if (!input.isConstant) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be a constant`);
  if (output.type !== input.type)
    throw new KernelError(
      OP,
      node.index,
      `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`,
    );
  setOutputShape(OP, context, node, 0, input.dims); // the dense shape
  const sparsity = input.sparsity!;
  let layout: SparseLayout;
  try {
    layout = sparseLayout(input.dims, sparsity);
  } catch (e) {
    if (e instanceof SparsityError)
      throw new KernelError(OP, node.index, `input (tensor ${input.index}) sparsity ${e.field}: ${e.message}`);
    throw e;
  }
  const src = input.data as unknown as NumberArray;
  if (src.length !== layout.storedValues)
    throw new KernelError(
      OP,
      node.index,
      `input (tensor ${input.index}) holds ${src.length} values, its sparsity enumerates ${layout.storedValues}`,
    );
  allocatePersistentOutput(context, node, 0, OP);
  densify(input.dims, sparsity, layout, src, output.data as unknown as NumberArray);
}

/**
 * SparseToDense: zero-fills `dst`, then walks the traversal levels (DENSE: every index; SPARSE_CSR: the
 * indices of the current segment), and at each leaf stores the next source value at the dense position
 * of the leaf's coordinates (block coordinates folded back into their original dimensions).
 */
export function densify(shape: ArrayLike<number>, s: SparsityDef, layout: SparseLayout, src: NumberArray, dst: NumberArray): void {
  const rank = shape.length;
  const levels = layout.levels;
  for (let i = 0; i < dst.length; i++) dst[i] = 0;
  const indices = new Int32Array(levels);
  const orig = new Int32Array(rank);
  const strides = new Int32Array(rank);
  for (let d = rank - 1, st = 1; d >= 0; d--) {
    strides[d] = st;
    st *= shape[d]!;
  }
  let next = 0;
  const leaf = (): void => {
    for (let l = 0; l < rank; l++) orig[s.traversalOrder[l]!] = indices[l]!;
    for (let l = rank; l < levels; l++) {
      const block = s.traversalOrder[l]! - rank;
      const d = s.blockMap[block]!;
      orig[d] = orig[d]! * layout.blockSizes[block]! + indices[l]!;
    }
    let flat = 0;
    for (let d = 0; d < rank; d++) flat += orig[d]! * strides[d]!;
    dst[flat] = src[next++]!;
  };
  const visit = (level: number, prev: number): void => {
    if (level === levels) {
      leaf();
      return;
    }
    const meta = s.dimMetadata[level]!;
    if (meta.format === 'dense') {
      const n = meta.denseSize;
      for (let i = 0; i < n; i++) {
        indices[level] = i;
        visit(level + 1, prev * n + i);
      }
    } else {
      const seg = meta.arraySegments!.values;
      const idx = meta.arrayIndices!.values;
      for (let i = seg[prev]!; i < seg[prev + 1]!; i++) {
        indices[level] = idx[i]!;
        visit(level + 1, i);
      }
    }
  };
  visit(0, 0);
}

/** The reference DENSIFY kernel (TFLite builtin; no TFLM counterpart). */
export const DENSIFY: Registration = {
  builtinCode: BuiltinOperator.DENSIFY,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => problem(context, node) ?? true,
  prepare,
  invoke: () => {},
};
