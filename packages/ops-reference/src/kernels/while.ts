/**
 * WHILE (tflite-micro kernels/while.cc): the loop variables are the node's inputs; the cond subgraph
 * maps them to one bool, the body subgraph to their next values. As TFLM:
 *
 *   node inputs → cond inputs; node inputs → node outputs; invoke cond;
 *   while cond's output 0 is true: node outputs → body inputs; invoke body; body outputs → node outputs;
 *                                  node outputs → cond inputs; invoke cond.
 *
 * A loop that runs 0 times leaves the outputs equal to the inputs. TFLM checks types and byte sizes of
 * each copied pair at every invoke; here prepare checks both, and invoke the byte sizes again before each
 * copy (`copyAll`: the body prepares after this node and its kernels may resize its outputs). Where cond
 * or body stores other input shapes than the node passes, prepare resizes them to the node's and
 * prepares them at once, as TFLite's Prepare; a body that then changes a loop value's shape is refused.
 *
 * Like TFLM, `WHILE` loops for as long as the cond subgraph says. For models from untrusted sources,
 * `makeWhile({ maxIterations })` makes a kernel that stops a loop after that many body runs with a
 * KernelError (the interpreter stays usable; the fuzzer registers one so a mutated loop bound is a typed
 * rejection rather than a hang).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  sameShape,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Registration,
  type TfLiteContext,
  type WhileOptions,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  checkSameTypeAndSize,
  checkSubgraphIndex,
  resizeSubgraphInputs,
  copyAll,
  evalTensors,
  nodeSide,
  subgraphSide,
  subgraphTensors,
  type CopySide,
} from './control-flow-common.js';
import { opData, setOutputShape } from '@micrort/kernel-support';

const OP = 'WHILE';
/** sizeof(OpData) in TFLM: two ints. */
const TFLM_OP_DATA_BYTES = 8;

interface OpData {
  /**
   * Body runs allowed per invoke; -1: no limit, as TFLM. An int, never Infinity: a double field is boxed
   * on every load in unoptimised code, and invoke must allocate nothing however V8 compiles it.
   */
  maxIterations: number;
  cond: number;
  body: number;
  inputs: EvalTensor[];
  outputs: EvalTensor[];
  condInputs: EvalTensor[];
  condOutput: EvalTensor | null;
  bodyInputs: EvalTensor[];
  bodyOutputs: EvalTensor[];
  /** The copies' sides, for copyAll's error. */
  sides: Record<'inputs' | 'outputs' | 'condInputs' | 'bodyInputs' | 'bodyOutputs', CopySide> | null;
}

function init(context: TfLiteContext, maxIterations: number): OpData {
  context.allocatePersistentBuffer(TFLM_OP_DATA_BYTES);
  return {
    maxIterations,
    cond: -1,
    body: -1,
    inputs: [],
    outputs: [],
    condInputs: [],
    condOutput: null,
    bodyInputs: [],
    bodyOutputs: [],
    sides: null,
  };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const params = node.builtinData as Partial<WhileOptions> | null;
  if (!params || params.condSubgraphIndex === undefined || params.bodySubgraphIndex === undefined)
    throw new KernelError(OP, node.index, 'WhileOptions (cond_subgraph_index, body_subgraph_index) are missing');
  checkSubgraphIndex(OP, context, node, params.condSubgraphIndex, 'cond');
  checkSubgraphIndex(OP, context, node, params.bodySubgraphIndex, 'body');
  d.cond = params.condSubgraphIndex;
  d.body = params.bodySubgraphIndex;
  const n = node.inputs.length;
  for (let i = 0; i < n; i++) if (node.inputs[i]! < 0) throw new KernelError(OP, node.index, `input ${i} is omitted (-1)`);
  const condIn = context.numSubgraphInputs(d.cond);
  const bodyIn = context.numSubgraphInputs(d.body);
  const bodyOut = context.numSubgraphOutputs(d.body);
  if (condIn !== n) throw new KernelError(OP, node.index, `cond subgraph ${d.cond} has ${condIn} inputs; the node has ${n}`);
  if (bodyIn !== n) throw new KernelError(OP, node.index, `body subgraph ${d.body} has ${bodyIn} inputs; the node has ${n}`);
  if (node.outputs.length !== n)
    throw new KernelError(OP, node.index, `has ${n} inputs and ${node.outputs.length} outputs; they must match`);
  if (bodyOut !== n) throw new KernelError(OP, node.index, `body subgraph ${d.body} has ${bodyOut} outputs; the node has ${n}`);
  if (context.numSubgraphOutputs(d.cond) < 1) throw new KernelError(OP, node.index, `cond subgraph ${d.cond} has no output`);
  // Loop-carried values keep their shapes: output i has input i's (TFLite's Prepare when the body does not resize).
  for (let i = 0; i < n; i++) if (node.outputs[i]! >= 0) setOutputShape(OP, context, node, i, context.getTensor(node.inputs[i]!).dims);
  d.inputs = evalTensors(context, node.inputs);
  d.outputs = evalTensors(context, node.outputs);
  // TFLite resizes cond's and body's inputs to the node's and prepares them; where a shape differs
  // micrort does the same (control-flow-common.ts resizeSubgraphInputs). A body that then computes
  // another shape for a loop-carried value is TFLite's dynamic case, which one arena plan cannot hold.
  resizeSubgraphInputs(context, d.cond, d.inputs);
  if (resizeSubgraphInputs(context, d.body, d.inputs))
    for (let i = 0; i < n; i++) {
      const a = d.inputs[i]!.dims;
      const b = context.getSubgraphOutput(d.body, i).dims;
      if (!sameShape(a, b))
        throw new KernelError(
          OP,
          node.index,
          `body subgraph ${d.body} turns loop-carried value ${i} of shape [${Array.from(a).join(', ')}] into [${Array.from(b).join(', ')}]; TFLite makes it dynamic and re-allocates each iteration, micrort plans one shape per loop value`,
        );
    }
  d.condInputs = subgraphTensors(context, d.cond, 'input');
  d.bodyInputs = subgraphTensors(context, d.body, 'input');
  d.bodyOutputs = subgraphTensors(context, d.body, 'output');
  const condOutput = context.getSubgraphOutput(d.cond, 0);
  if (condOutput.type !== TensorType.BOOL || condOutput.dims.reduce((a, b) => a * b, 1) < 1)
    throw new KernelError(
      OP,
      node.index,
      `output 0 of cond subgraph ${d.cond} must be a bool with at least one element, it is ${tensorTypeName(condOutput.type)}[${Array.from(condOutput.dims).join(', ')}]`,
    );
  d.condOutput = condOutput;
  d.sides = {
    inputs: nodeSide('input'),
    outputs: nodeSide('output'),
    condInputs: subgraphSide('input', `cond subgraph ${d.cond}`),
    bodyInputs: subgraphSide('input', `body subgraph ${d.body}`),
    bodyOutputs: subgraphSide('output', `body subgraph ${d.body}`),
  };
  for (let i = 0; i < n; i++) {
    checkSameTypeAndSize(OP, node, d.inputs[i]!, `input ${i}`, d.outputs[i]!, `output ${i}`);
    checkSameTypeAndSize(OP, node, d.inputs[i]!, `input ${i}`, d.condInputs[i]!, `input ${i} of cond subgraph ${d.cond}`);
    checkSameTypeAndSize(OP, node, d.outputs[i]!, `output ${i}`, d.bodyInputs[i]!, `input ${i} of body subgraph ${d.body}`);
    checkSameTypeAndSize(OP, node, d.outputs[i]!, `output ${i}`, d.bodyOutputs[i]!, `output ${i} of body subgraph ${d.body}`);
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const sides = d.sides!;
  copyAll(OP, node, d.condInputs, sides.condInputs, d.inputs, sides.inputs);
  // Preserve the op inputs in the op outputs before a subgraph could overwrite them (as TFLM).
  copyAll(OP, node, d.outputs, sides.outputs, d.inputs, sides.inputs);
  context.invokeSubgraph(d.cond);
  const condOutput = d.condOutput!;
  const max = d.maxIterations;
  let iterations = 0;
  while (condOutput.data[0]) {
    if (max >= 0 && iterations++ === max)
      throw new KernelError(
        OP,
        node.index,
        `the loop ran ${max} times and cond subgraph ${d.cond} still says continue (this kernel stops at maxIterations ${max})`,
      );
    copyAll(OP, node, d.bodyInputs, sides.bodyInputs, d.outputs, sides.outputs);
    context.invokeSubgraph(d.body);
    copyAll(OP, node, d.outputs, sides.outputs, d.bodyOutputs, sides.bodyOutputs);
    copyAll(OP, node, d.condInputs, sides.condInputs, d.outputs, sides.outputs);
    context.invokeSubgraph(d.cond);
  }
}

/** Options of {@link makeWhile}. */
export interface WhileKernelOptions {
  /**
   * Body runs allowed per invoke of one WHILE node; one more is a KernelError naming the node. Default
   * Infinity: loop as long as the cond subgraph says, as TFLM.
   */
  maxIterations?: number;
}

/** A WHILE kernel; `WHILE` is `makeWhile()` (no iteration limit, as TFLM). */
export function makeWhile(options: WhileKernelOptions = {}): Registration<OpData> {
  const requested = options.maxIterations ?? Number.POSITIVE_INFINITY;
  if (!(requested >= 0) || (requested !== Number.POSITIVE_INFINITY && !Number.isInteger(requested)))
    throw new RangeError(`makeWhile: maxIterations must be an integer >= 0 or Infinity, got ${requested}`);
  // Past 2^31 - 1 body runs a limit is no limit in practice; keep the field a small int (-1: none).
  const maxIterations = requested > 0x7fffffff ? -1 : requested;
  return {
    builtinCode: BuiltinOperator.WHILE,
    provider: PROVIDER,
    name: OP,
    init: (context) => init(context, maxIterations),
    prepare,
    invoke,
  };
}

/** The reference WHILE kernel. */
export const WHILE: Registration<OpData> = makeWhile();
