/**
 * Shared by IF, WHILE and CALL_ONCE (tflite-micro kernels/if.cc, while.cc, call_once.cc and the copy
 * helpers of micro/kernels/kernel_util.cc), STABLEHLO_CASE and STABLEHLO_COMPOSITE: subgraph-index
 * checks, the prepare-time pairing of the tensors whose bytes invoke copies between the node and its
 * subgraphs, and the copies (checked).
 */
import {
  KernelError,
  elementSize,
  numElements,
  sameShape,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type TfLiteContext,
} from '@micrort/core';

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

/** Prepare: tensors `a` and `b` of a node/subgraph pair have one type (KernelError naming both). */
export function checkSameType(op: string, node: Node, a: EvalTensor, aWhat: string, b: EvalTensor, bWhat: string): void {
  if (a.type !== b.type)
    throw new KernelError(
      op,
      node.index,
      `${aWhat} (tensor ${a.index}) is ${tensorTypeName(a.type)} but ${bWhat} (tensor ${b.index}) is ${tensorTypeName(b.type)}`,
    );
}

/**
 * Checks that `a` and `b` have the same type and byte length (TFLM's TF_LITE_ENSURE_TYPES_EQ and
 * ValidateAndGetTensorSizes, which TFLM checks at each invoke; micrort checks once in prepare).
 */
export function checkSameTypeAndSize(op: string, node: Node, a: EvalTensor, aWhat: string, b: EvalTensor, bWhat: string): void {
  checkSameType(op, node, a, aWhat, b, bWhat);
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

/**
 * Names one side of the copies between a node and a subgraph, for `copyAll`'s error (made in prepare, so
 * invoke builds no string): the node's own `kind`s (`of` empty; `first` is added to the position, 1 for
 * the data inputs after IF's condition) or those of a subgraph (`of`: `"cond subgraph 2"`).
 */
export interface CopySide {
  kind: 'input' | 'output';
  first: number;
  of: string;
}

/** The node's inputs or outputs, positions counted from `first`. */
export function nodeSide(kind: 'input' | 'output', first = 0): CopySide {
  return { kind, first, of: '' };
}

/** The inputs or outputs of a subgraph, `of` naming it (`"body subgraph 3"`). */
export function subgraphSide(kind: 'input' | 'output', of: string): CopySide {
  return { kind, first: 0, of };
}

function sideName(side: CopySide, i: number, t: EvalTensor): string {
  const shape = `tensor ${t.index}, shape [${Array.from(t.dims).join(', ')}]`;
  return side.of ? `${side.kind} ${i + side.first} of ${side.of} (${shape})` : `${side.kind} ${i + side.first} (${shape})`;
}

/**
 * Copies the bytes of `from[i]` into `to[i]` for every i (a memcpy per tensor; allocates nothing), each
 * pair checked to have the same byte length first, as TFLM checks at every invoke
 * (ValidateAndGetTensorSizes). Prepare checked the pairs (`checkSameTypeAndSize`), but a called
 * subgraph that prepares after its caller may still have its outputs resized by its own kernels (shapes
 * are computed in prepare), so a pair can differ here: a KernelError naming both tensors, their shapes
 * and sizes, instead of a native RangeError.
 */
export function copyAll(
  op: string,
  node: Node,
  to: readonly EvalTensor[],
  toSide: CopySide,
  from: readonly EvalTensor[],
  fromSide: CopySide,
): void {
  for (let i = 0; i < to.length; i++) {
    const a = to[i]!;
    const b = from[i]!;
    if (a.bytes.length !== b.bytes.length) throw copySizeError(op, node, i, a, toSide, b, fromSide);
    a.bytes.set(b.bytes);
  }
}

/** The KernelError of a copy between tensors of different byte lengths (see `copyAll`). */
export function copySizeError(
  op: string,
  node: Node,
  i: number,
  to: EvalTensor,
  toSide: CopySide,
  from: EvalTensor,
  fromSide: CopySide,
): KernelError {
  return new KernelError(
    op,
    node.index,
    `${sideName(fromSide, i, from)} has ${from.bytes.length} bytes but ${sideName(toSide, i, to)} has ${to.bytes.length}: the subgraph's kernels changed its shape after this node's prepare`,
  );
}

/**
 * TFLite's control-flow Prepare for one called subgraph (if.cc, while.cc: `ResizeInputTensor` of each
 * subgraph input to the node's, then `AllocateTensors`): under the shape rule `'computed'`, gives input
 * `i` of `subgraph` the dims of `from[i]` (`context.resizeSubgraphInput`, which also records this
 * caller's claim so two callers needing other shapes get a SubgraphShapeError) and, when any differed,
 * prepares the subgraph now (`context.prepareSubgraph`) so its computed output shapes can be read.
 * Where every shape already agrees nothing else happens and the subgraph prepares in model order, as
 * TFLM's (same arena). Under `'file'` (TFLM's rule) it does nothing: the pairs' byte sizes are checked
 * as TFLM checks them. Returns whether a shape changed.
 */
export function resizeSubgraphInputs(context: TfLiteContext, subgraph: number, from: readonly EvalTensor[]): boolean {
  if (context.shapeRule !== 'computed') return false;
  const n = Math.min(context.numSubgraphInputs(subgraph), from.length);
  let changed = false;
  for (let i = 0; i < n; i++) {
    const dims = from[i]!.dims;
    if (!sameShape(context.getSubgraphInput(subgraph, i).dims, dims)) changed = true;
    context.resizeSubgraphInput(subgraph, i, dims);
  }
  if (changed) context.prepareSubgraph(subgraph);
  return changed;
}
