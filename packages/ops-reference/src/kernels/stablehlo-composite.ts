/**
 * STABLEHLO_COMPOSITE (LiteRT tflite/kernels/stablehlo_composite.cc): a named composite (`odml.group_norm`,
 * `odml.scaled_dot_product_attention`, …) that runs its decomposition subgraph, as LiteRT does for every
 * composite it has no fused kernel for. The node's inputs map one to one to the subgraph's inputs and the
 * subgraph's outputs to the node's outputs.
 *
 * As LiteRT's Prepare does, prepare resizes each decomposition input to the node's input shape
 * (`context.resizeSubgraphInput`: a stored [2,1,4], [1,4] or an empty shape where the node passes [2,4]),
 * prepares the decomposition then and there (`context.prepareSubgraph`), so its kernels infer their
 * shapes from the node's and the arena plans those sizes, and resizes each node output to the
 * decomposition's computed output shape. A decomposition that two composites (or another caller) need
 * at different input shapes is refused with the core's SubgraphShapeError (micrort plans a subgraph
 * once per allocation); under the shape rule 'file' a different stored shape is a TensorResizeError.
 * Types must match pairwise; invoke checks the byte sizes again before each copy (`copyAll`).
 * decomposition subgraph is planned in the one arena inside this node's step (graph layer,
 * allocation-info.ts), so invoke copies the inputs in, runs it and copies the outputs out, allocating
 * nothing. LiteRT requires at least one input (`node->inputs->size > 0`); so does this kernel.
 */
import {
  BuiltinOperator,
  KernelError,
  type EvalTensor,
  type Node,
  type Registration,
  type StablehloCompositeOptions,
  type TfLiteContext,
} from '@micrort/core';
import { opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import {
  checkSameType,
  checkSubgraphIndex,
  copyAll,
  evalTensors,
  nodeSide,
  subgraphSide,
  subgraphTensors,
  type CopySide,
} from './control-flow-common.js';

const OP = 'STABLEHLO_COMPOSITE';
/** sizeof(State) in LiteRT's generic path: the subgraph index and a bool (padded). */
const LITERT_STATE_BYTES = 8;

interface OpData {
  subgraph: number;
  inputs: EvalTensor[];
  outputs: EvalTensor[];
  subgraphInputs: EvalTensor[];
  subgraphOutputs: EvalTensor[];
  /** The decomposition's inputs and outputs, for copyAll's error. */
  inSide: CopySide | null;
  outSide: CopySide | null;
}

const NODE_INPUTS = nodeSide('input');
const NODE_OUTPUTS = nodeSide('output');

function init(context: TfLiteContext): OpData {
  context.allocatePersistentBuffer(LITERT_STATE_BYTES);
  return { subgraph: -1, inputs: [], outputs: [], subgraphInputs: [], subgraphOutputs: [], inSide: null, outSide: null };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const params = node.builtinData as Partial<StablehloCompositeOptions> | null;
  if (!params || params.decompositionSubgraphIndex === undefined)
    throw new KernelError(OP, node.index, 'StableHLOCompositeOptions (decomposition_subgraph_index) are missing');
  const name = params.name ? ` "${params.name}"` : '';
  if (node.inputs.length === 0) throw new KernelError(OP, node.index, `composite${name} has no inputs (LiteRT requires at least one)`);
  for (let i = 0; i < node.inputs.length; i++)
    if (node.inputs[i]! < 0) throw new KernelError(OP, node.index, `input ${i} of composite${name} is omitted (-1)`);
  const s = params.decompositionSubgraphIndex;
  checkSubgraphIndex(OP, context, node, s, `decomposition${name}`);
  const subIn = subgraphTensors(context, s, 'input');
  const subOut = subgraphTensors(context, s, 'output');
  if (subIn.length !== node.inputs.length)
    throw new KernelError(
      OP,
      node.index,
      `composite${name}: decomposition subgraph ${s} has ${subIn.length} inputs, the node ${node.inputs.length}`,
    );
  if (subOut.length !== node.outputs.length)
    throw new KernelError(
      OP,
      node.index,
      `composite${name}: decomposition subgraph ${s} has ${subOut.length} outputs, the node ${node.outputs.length}`,
    );
  d.subgraph = s;
  d.inputs = evalTensors(context, node.inputs);
  d.outputs = evalTensors(context, node.outputs);
  subIn.forEach((t, i) => {
    const x = d.inputs[i]!;
    checkSameType(OP, node, x, `input ${i}`, t, `input ${i} of decomposition subgraph ${s}`);
    context.resizeSubgraphInput(s, i, x.dims);
  });
  context.prepareSubgraph(s);
  subOut.forEach((t, i) => {
    const y = d.outputs[i]!;
    checkSameType(OP, node, y, `output ${i}`, t, `output ${i} of decomposition subgraph ${s}`);
    context.resizeTensor(node.outputs[i]!, t.dims);
  });
  d.subgraphInputs = subIn;
  d.subgraphOutputs = subOut;
  d.inSide = subgraphSide('input', `decomposition subgraph ${s}`);
  d.outSide = subgraphSide('output', `decomposition subgraph ${s}`);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  copyAll(OP, node, d.subgraphInputs, d.inSide!, d.inputs, NODE_INPUTS);
  context.invokeSubgraph(d.subgraph);
  copyAll(OP, node, d.outputs, NODE_OUTPUTS, d.subgraphOutputs, d.outSide!);
}

/** The reference STABLEHLO_COMPOSITE kernel: runs the decomposition subgraph. */
export const STABLEHLO_COMPOSITE: Registration<OpData> = {
  builtinCode: BuiltinOperator.STABLEHLO_COMPOSITE,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
