/**
 * Shared by IF, WHILE and CALL_ONCE (tflite-micro kernels/if.cc, while.cc, call_once.cc and the copy
 * helpers of micro/kernels/kernel_util.cc): subgraph-index checks and the prepare-time pairing of the
 * tensors whose bytes invoke copies between the node and its subgraphs.
 */
import { KernelError, elementSize, numElements, tensorTypeName, type EvalTensor, type Node, type TfLiteContext } from '@micrort/core';

/** Bytes of a tensor's data (TfLiteEvalTensorByteLength). */
export function tensorBytes(t: EvalTensor): number {
  return numElements(t.dims) * (elementSize(t.type) ?? 0);
}

/** Throws unless `index` names a subgraph of the model (TFLM: `index < NumSubgraphs()`). */
export function checkSubgraphIndex(op: string, context: TfLiteContext, node: Node, index: number, what: string): void {
  const n = context.numSubgraphs();
  if (!Number.isInteger(index) || index < 0 || index >= n)
    throw new KernelError(op, node.index, `${what} subgraph index ${index} is out of range (the model has ${n} subgraphs)`);
}

/**
 * Checks that `a` and `b` have the same type and byte length (TFLM's TF_LITE_ENSURE_TYPES_EQ and
 * ValidateAndGetTensorSizes, which TFLM checks at each invoke; micrort checks once in prepare).
 */
export function checkSameTypeAndSize(op: string, node: Node, a: EvalTensor, aWhat: string, b: EvalTensor, bWhat: string): void {
  if (a.type !== b.type)
    throw new KernelError(
      op,
      node.index,
      `${aWhat} (tensor ${a.index}) is ${tensorTypeName(a.type)} but ${bWhat} (tensor ${b.index}) is ${tensorTypeName(b.type)}`,
    );
  const ab = tensorBytes(a);
  const bb = tensorBytes(b);
  if (ab !== bb)
    throw new KernelError(
      op,
      node.index,
      `${aWhat} (tensor ${a.index}, shape [${Array.from(a.dims).join(', ')}]) has ${ab} bytes but ${bWhat} (tensor ${b.index}, shape [${Array.from(b.dims).join(', ')}]) has ${bb}`,
    );
}

/** The eval tensors of `indices` (kept from prepare: eval tensor objects are never replaced). */
export function evalTensors(context: TfLiteContext, indices: ArrayLike<number>, first = 0): EvalTensor[] {
  const out: EvalTensor[] = [];
  for (let i = first; i < indices.length; i++) out.push(context.getEvalTensor(indices[i]!));
  return out;
}

/** Inputs (`kind` input) or outputs of subgraph `subgraph` as eval tensors. */
export function subgraphTensors(context: TfLiteContext, subgraph: number, kind: 'input' | 'output'): EvalTensor[] {
  const n = kind === 'input' ? context.numSubgraphInputs(subgraph) : context.numSubgraphOutputs(subgraph);
  const out: EvalTensor[] = [];
  for (let i = 0; i < n; i++) out.push(kind === 'input' ? context.getSubgraphInput(subgraph, i) : context.getSubgraphOutput(subgraph, i));
  return out;
}

/** Copies the bytes of `from[i]` into `to[i]` for every i (a memcpy per tensor; allocates nothing). */
export function copyAll(to: readonly EvalTensor[], from: readonly EvalTensor[]): void {
  for (let i = 0; i < to.length; i++) to[i]!.bytes.set(from[i]!.bytes);
}
