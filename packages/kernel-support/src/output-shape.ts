/**
 * Output shapes computed in prepare (TFLite's Prepare → `context->ResizeTensor`). A kernel states the
 * shape of each output it computed from its inputs' shapes and options through `setOutputShape`,
 * instead of trusting the shape stored in the file; an output whose size depends on the data states
 * its upper bound through `setOutputUpperBound` and its actual shape at every invoke through
 * `context.setActualShape`. This is the one way kernels give their outputs a shape.
 *
 * What happens to the file's shape is core's rule (`InterpreterOptions.shapes`, see
 * `TfLiteContext.resizeTensor`): by default the computed shape wins, as in TFLite — the file's shape is
 * a hint (empty where the converter left the size to TFLite's Prepare, placeholder 1s under a
 * `shape_signature` -1, stale after `resizeInputTensor`) and `micrort check` lists the tensors whose
 * shape changed; with `shapes: 'file'` (TFLM's rule, what @micrort/deploy plans with) a different
 * computed shape is a `TensorResizeError` naming both shapes. Either way memory is planned from the
 * shapes kernels set, so a kernel never writes past its output.
 *
 * ## Data-dependent outputs: a worked example
 *
 * A WHERE over a boolean input of shape [2, 3] returns the coordinates of its true elements: an int32
 * [n, 2] where n, the number of true elements, is known only at invoke. Prepare proves n ≤ 6:
 *
 * ```ts
 * interface WhereData { dims: Int32Array } // kept from prepare: invoke must not allocate
 *
 * function prepare(context: TfLiteContext, node: Node): void {
 *   const input = context.getTensor(node.inputs[0]!);
 *   const rank = input.dims.length;
 *   // [numElements(input), rank]: the arena plans 6 × 2 int32; output.dims are [6, 2] until invoke.
 *   setOutputUpperBound('WHERE', context, node, 0, [numElements(input.dims), rank]);
 *   fillOpData('WHERE', node, { dims: new Int32Array([0, rank]) });
 * }
 *
 * function invoke(context: TfLiteContext, node: Node): void {
 *   const d = opData<WhereData>('WHERE', node);
 *   const input = context.getEvalTensor(node.inputs[0]!).data as Uint8Array;
 *   const out = context.getEvalTensor(node.outputs[0]!).data as Int32Array; // the planned 12 ints
 *   let n = 0;
 *   // ... write the coordinates of each true element at out[n * rank ...], n++ ...
 *   d.dims[0] = n;
 *   context.setActualShape(node.outputs[0]!, d.dims); // dims become [n, 2], in place; data stays
 * }
 * ```
 *
 * A consumer of that output reads `context.getEvalTensor(i).dims` at invoke and says so with
 * `Registration.dynamicInputShapes: true`; any other kernel is refused for such a node before its
 * prepare (`DataDependentShapeError`), since it would size its loops from the bound. A user reads
 * `interpreter.output(j).dims` after invoke and the first `output(j).elementCount` elements of `data`.
 * When prepare can prove no bound (say RANGE whose start, limit and delta are computed at invoke), the
 * kernel throws `UnboundedShapeError` (`noUpperBound`), naming the tensor.
 *
 * ## Consumers of data-dependent tensors
 *
 * A kernel with `dynamicInputShapes: true` whose output shape follows its inputs' shapes (CAST, GATHER,
 * RESHAPE…) makes its output data-dependent too when an input is: in prepare it computes the output's
 * shape from the inputs' dims (the bounds, then) and states it with `setOutputShapeOrBound(…, bounded)`,
 * `bounded` from `isDataDependent`; at invoke it computes the actual dims from its inputs' actual `dims`
 * and calls `context.setActualShape` (for an output of its input's shape: `followActualShape`). Loop
 * geometry computed in prepare is recomputed at invoke into storage prepare sized for the bound (a
 * binary op's `BroadcastPlan.replan` with `followBroadcastShapes`, a softmax's rows with
 * `followSoftmaxShape`), so invoke still allocates nothing. An input such a kernel cannot follow (say
 * string params) is refused with `refuseDataDependentInput`.
 */
import { DataDependentShapeError, KernelError, type Node, type Tensor, type TfLiteContext } from '@micrort/core';

/** True when `a` and `b` hold the same dimensions. */
export function sameDims(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `output` or `output 1` (nodes with several outputs). */
function role(node: Node, position: number): string {
  return node.outputs.length > 1 ? `output ${position}` : 'output';
}

function outputTensor(op: string, context: TfLiteContext, node: Node, position: number): Tensor {
  const index = node.outputs[position];
  if (index === undefined || index < 0)
    throw new KernelError(op, node.index, `${role(node, position)} is missing (the node has ${node.outputs.length} outputs)`);
  return context.getTensor(index);
}

/**
 * Sets output `position` of `node` to `dims`, the shape the kernel computed in prepare from its inputs'
 * shapes and options, and returns the output tensor (its `dims` are then `dims`). Call it in prepare,
 * before anything that reads the output's dims. The file's shape is a hint (see the module comment);
 * `TensorResizeError` when the output cannot take the shape (a constant or variable output of another
 * shape, or `shapes: 'file'` and a file shape that differs).
 */
export function setOutputShape(op: string, context: TfLiteContext, node: Node, position: number, dims: ArrayLike<number>): Tensor {
  const output = outputTensor(op, context, node, position);
  context.resizeTensor(output.index, dims);
  return output;
}

/**
 * Output `position` has a shape that depends on the data; `maxDims` is the largest shape prepare can
 * prove (its rank is the output's). The arena plans `maxDims`; at every invoke the kernel states the
 * actual dims with `context.setActualShape(node.outputs[position], dims)` — `dims` an Int32Array kept in
 * its op data, so invoke allocates nothing. Returns the output tensor. See the worked example above.
 */
export function setOutputUpperBound(op: string, context: TfLiteContext, node: Node, position: number, maxDims: ArrayLike<number>): Tensor {
  const output = outputTensor(op, context, node, position);
  context.declareShapeBound(output.index, maxDims);
  return output;
}

/** An output whose size depends on data for which prepare can prove no upper bound. */
export class UnboundedShapeError extends KernelError {
  constructor(
    op: string,
    nodeIndex: number,
    /** The output's role (`output`, `output 1`). */
    readonly what: string,
    /** The output tensor's index. */
    readonly tensor: number,
    detail: string,
  ) {
    super(op, nodeIndex, detail);
  }
}

/**
 * Throws `UnboundedShapeError` for output `position`: its shape depends on data and `reason` says why no
 * bound follows from what prepare knows (e.g. `start, limit and delta are computed at invoke`).
 */
export function noUpperBound(op: string, context: TfLiteContext, node: Node, position: number, reason: string): never {
  const output = outputTensor(op, context, node, position);
  const what = role(node, position);
  throw new UnboundedShapeError(
    op,
    node.index,
    what,
    output.index,
    `${what} (tensor ${output.index}, ${output.name || 'unnamed'}) has a shape that depends on data and no upper bound is known in prepare: ${reason}`,
  );
}

/** Prepare: whether `t` has a shape that depends on data (its producer declared an upper bound). */
export function isDataDependent(t: Tensor): boolean {
  return t.upperBound !== null;
}

/**
 * Prepare: output `position` has the shape `dims` computed from the inputs' shapes. With `bounded` (an
 * input it is computed from is data-dependent, so `dims` came from that input's bound), the output is
 * data-dependent too and `dims` is its upper bound (`setOutputUpperBound`): the kernel then states the
 * actual dims at every invoke. Otherwise `setOutputShape`. Returns the output tensor.
 */
export function setOutputShapeOrBound(
  op: string,
  context: TfLiteContext,
  node: Node,
  position: number,
  dims: ArrayLike<number>,
  bounded: boolean,
): Tensor {
  return bounded ? setOutputUpperBound(op, context, node, position, dims) : setOutputShape(op, context, node, position, dims);
}

/**
 * Invoke: data-dependent output `outputPosition` has the actual dims of input `inputPosition` at this
 * invoke (ops whose output has their input's shape: CAST, the unary elementwise ops). Allocates nothing.
 */
export function followActualShape(context: TfLiteContext, node: Node, inputPosition: number, outputPosition: number): void {
  context.setActualShape(node.outputs[outputPosition]!, context.getEvalTensor(node.inputs[inputPosition]!).dims);
}

/**
 * Prepare: input `position` has a data-dependent shape that this kernel (which reads some of its inputs'
 * dims at invoke) cannot follow; `reason` says why. Throws `DataDependentShapeError` naming the tensor and
 * its bound, as the interpreter does for a kernel without `dynamicInputShapes`.
 */
export function refuseDataDependentInput(op: string, context: TfLiteContext, node: Node, position: number, reason: string): never {
  const t = context.getTensor(node.inputs[position]!);
  const bound = Array.from(t.upperBound ?? t.dims);
  throw new DataDependentShapeError(
    op,
    node.index,
    t.index,
    bound,
    `input ${position} (tensor ${t.index}, ${t.name || 'unnamed'}) has a shape that depends on data (at most [${bound.join(', ')}]); ${reason}`,
  );
}
