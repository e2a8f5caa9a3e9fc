/**
 * STABLEHLO_CASE (LiteRT tflite/kernels/stablehlo_case.cc): input 0 is an int32 index with one element;
 * it picks one of the branch subgraphs (StablehloCaseOptions.branch_subgraph_indices), an index out of
 * range picking the last one, as LiteRT does. Inputs 1.. are passed to the branch, whose outputs become
 * the node's. Every branch is planned in the one arena inside this node's step (graph layer); prepare
 * checks that each branch takes the node's inputs and gives its outputs (counts, types and byte sizes),
 * as LiteRT's static path requires, after resizing a branch stored at other input shapes to the node's
 * (as LiteRT's Prepare; core's `resizeSubgraphInput`); invoke copies in, invokes, copies out, allocating nothing.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  tensorTypeName,
  type EvalTensor,
  type Node,
  type Registration,
  type StablehloCaseOptions,
  type TfLiteContext,
} from '@micrort/core';
import { opData, setOutputShape } from '@micrort/kernel-support';
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

const OP = 'STABLEHLO_CASE';

interface Branch {
  subgraph: number;
  inputs: EvalTensor[];
  outputs: EvalTensor[];
  /** Its inputs' and outputs' sides, for copyAll's error. */
  inSide: CopySide;
  outSide: CopySide;
}

const NODE_INPUTS = nodeSide('input', 1);
const NODE_OUTPUTS = nodeSide('output');

interface OpData {
  index: EvalTensor | null;
  inputs: EvalTensor[];
  outputs: EvalTensor[];
  branches: Branch[];
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const p = node.builtinData as Partial<StablehloCaseOptions> | null;
  if (!p?.branchSubgraphIndices || p.branchSubgraphIndices.length === 0)
    throw new KernelError(OP, node.index, 'StablehloCaseOptions name no branch subgraph');
  if (node.inputs.length < 1) throw new KernelError(OP, node.index, 'expects the branch index as input 0, got no inputs');
  for (let i = 0; i < node.inputs.length; i++) if (node.inputs[i]! < 0) throw new KernelError(OP, node.index, `input ${i} is omitted (-1)`);
  const index = context.getTensor(node.inputs[0]!);
  if (index.type !== TensorType.INT32 || index.elementCount !== 1)
    throw new KernelError(
      OP,
      node.index,
      `the index (input 0) must be int32 with one element, got ${tensorTypeName(index.type)} with ${index.elementCount}`,
    );
  d.index = context.getEvalTensor(node.inputs[0]!);
  d.inputs = evalTensors(context, node.inputs, 1);
  d.outputs = evalTensors(context, node.outputs);
  d.branches = Array.from(p.branchSubgraphIndices, (s, b) => {
    checkSubgraphIndex(OP, context, node, s, `branch ${b}`);
    // LiteRT resizes each branch's inputs to the node's and prepares it; where a shape differs micrort
    // does the same (control-flow-common.ts), and the node's outputs take that branch's output shapes.
    if (resizeSubgraphInputs(context, s, d.inputs))
      for (let i = 0; i < d.outputs.length && i < context.numSubgraphOutputs(s); i++)
        setOutputShape(OP, context, node, i, context.getSubgraphOutput(s, i).dims);
    const inputs = subgraphTensors(context, s, 'input');
    const outputs = subgraphTensors(context, s, 'output');
    if (inputs.length !== d.inputs.length)
      throw new KernelError(
        OP,
        node.index,
        `branch ${b} (subgraph ${s}) has ${inputs.length} inputs; the node passes it ${d.inputs.length}`,
      );
    if (outputs.length !== d.outputs.length)
      throw new KernelError(OP, node.index, `branch ${b} (subgraph ${s}) has ${outputs.length} outputs; the node has ${d.outputs.length}`);
    inputs.forEach((t, i) =>
      checkSameTypeAndSize(OP, node, d.inputs[i]!, `input ${i + 1}`, t, `input ${i} of branch ${b} (subgraph ${s})`),
    );
    outputs.forEach((t, i) =>
      checkSameTypeAndSize(OP, node, d.outputs[i]!, `output ${i}`, t, `output ${i} of branch ${b} (subgraph ${s})`),
    );
    const of = `branch ${b} (subgraph ${s})`;
    return { subgraph: s, inputs, outputs, inSide: subgraphSide('input', of), outSide: subgraphSide('output', of) };
  });
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const i = (d.index!.data as Int32Array)[0]!;
  const branch = d.branches[i < 0 || i >= d.branches.length ? d.branches.length - 1 : i]!;
  copyAll(OP, node, branch.inputs, branch.inSide, d.inputs, NODE_INPUTS);
  context.invokeSubgraph(branch.subgraph);
  copyAll(OP, node, d.outputs, NODE_OUTPUTS, branch.outputs, branch.outSide);
}

/** The reference STABLEHLO_CASE kernel. */
export const STABLEHLO_CASE: Registration<OpData> = {
  builtinCode: BuiltinOperator.STABLEHLO_CASE,
  provider: PROVIDER,
  name: OP,
  init: () => ({ index: null, inputs: [], outputs: [], branches: [] }),
  prepare,
  invoke,
};
