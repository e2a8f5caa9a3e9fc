/**
 * IF (tflite-micro kernels/if.cc): input 0 is a bool condition with one element; inputs 1.. are passed
 * to the then- or else-subgraph, whose outputs become the node's outputs.
 *
 * As TFLM, the bytes go through two intermediate buffers allocated persistently in prepare (one the
 * size of all data inputs, one of all outputs): node inputs → buffer → branch inputs; invoke the
 * branch; branch outputs → buffer → node outputs; and the node inputs are restored from the buffer
 * afterwards. (TFLM plans the branch's tensors around the node, so the copies are defensive; they are
 * kept so the arena and the bytes written match TFLM's.) TFLM checks types and byte sizes of each pair
 * at every invoke; here prepare checks both, for both branches, and invoke the byte sizes of the active
 * branch again (a branch whose shapes agree prepares after this node and its kernels may resize its
 * outputs). Where a branch stores other input shapes than the node passes, prepare resizes it to the
 * node's and prepares it at once, as TFLite's Prepare (control-flow-common.ts resizeSubgraphInputs). TFLM lets the else-branch have
 * fewer outputs than the node and leaves the others as they were; here they are written 0.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  tensorTypeName,
  type EvalTensor,
  type IfOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  checkSameTypeAndSize,
  checkSubgraphIndex,
  resizeSubgraphInputs,
  copySizeError,
  evalTensors,
  nodeSide,
  subgraphSide,
  subgraphTensors,
  tensorBytes,
  type CopySide,
} from './control-flow-common.js';
import { opData, setOutputShape } from '@micrort/kernel-support';

const OP = 'IF';
/** sizeof(OpData) in TFLM on x86-64: two ints and two pointers. */
const TFLM_OP_DATA_BYTES = 24;

interface Branch {
  subgraph: number;
  inputs: EvalTensor[];
  outputs: EvalTensor[];
  /** Its inputs' and outputs' sides, for the copies' error. */
  inSide: CopySide;
  outSide: CopySide;
}

const NODE_INPUTS = nodeSide('input', 1);
const NODE_OUTPUTS = nodeSide('output');

interface OpData {
  cond: EvalTensor | null;
  /** Data inputs (node inputs 1..) and outputs of the node. */
  inputs: EvalTensor[];
  outputs: EvalTensor[];
  /** Views of the intermediate buffers, one per data input / output, packed as TFLM packs them. */
  inputCopies: Uint8Array[];
  outputCopies: Uint8Array[];
  then: Branch | null;
  else: Branch | null;
}

function init(context: TfLiteContext): OpData {
  context.allocatePersistentBuffer(TFLM_OP_DATA_BYTES);
  return { cond: null, inputs: [], outputs: [], inputCopies: [], outputCopies: [], then: null, else: null };
}

/** Views of consecutive slices of one persistent buffer sized for `tensors` (TFLM AllocateIntermediateBuffer). */
function packedCopies(context: TfLiteContext, tensors: readonly EvalTensor[]): Uint8Array[] {
  let total = 0;
  for (const t of tensors) total += tensorBytes(t);
  const region = context.allocatePersistentBuffer(total).u8;
  const views: Uint8Array[] = [];
  let offset = 0;
  for (const t of tensors) {
    const n = tensorBytes(t);
    views.push(region.subarray(offset, offset + n));
    offset += n;
  }
  return views;
}

function branch(context: TfLiteContext, node: Node, d: OpData, subgraph: number, name: string, exact: boolean): Branch {
  const inputs = subgraphTensors(context, subgraph, 'input');
  const outputs = subgraphTensors(context, subgraph, 'output');
  const nIn = d.inputs.length;
  const nOut = d.outputs.length;
  // TFLM requires the then-branch's counts to match the node; the else-branch may not take more.
  if (exact ? inputs.length !== nIn : inputs.length > nIn)
    throw new KernelError(
      OP,
      node.index,
      `${name} subgraph ${subgraph} has ${inputs.length} inputs; the node passes it ${nIn} (its inputs after the condition)`,
    );
  if (exact ? outputs.length !== nOut : outputs.length > nOut)
    throw new KernelError(OP, node.index, `${name} subgraph ${subgraph} has ${outputs.length} outputs; the node has ${nOut}`);
  inputs.forEach((t, i) => checkSameTypeAndSize(OP, node, d.inputs[i]!, `input ${i + 1}`, t, `input ${i} of ${name} subgraph ${subgraph}`));
  outputs.forEach((t, i) => checkSameTypeAndSize(OP, node, d.outputs[i]!, `output ${i}`, t, `output ${i} of ${name} subgraph ${subgraph}`));
  const of = `${name} subgraph ${subgraph}`;
  return { subgraph, inputs, outputs, inSide: subgraphSide('input', of), outSide: subgraphSide('output', of) };
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const params = node.builtinData as Partial<IfOptions> | null;
  if (!params || params.thenSubgraphIndex === undefined || params.elseSubgraphIndex === undefined)
    throw new KernelError(OP, node.index, 'IfOptions (then_subgraph_index, else_subgraph_index) are missing');
  if (node.inputs.length < 1) throw new KernelError(OP, node.index, 'expects the condition as input 0, got no inputs');
  for (let i = 0; i < node.inputs.length; i++) if (node.inputs[i]! < 0) throw new KernelError(OP, node.index, `input ${i} is omitted (-1)`);
  const cond = context.getTensor(node.inputs[0]!);
  if (cond.type !== TensorType.BOOL)
    throw new KernelError(OP, node.index, `condition (input 0) must be bool, got ${tensorTypeName(cond.type)}`);
  if (cond.elementCount !== 1)
    throw new KernelError(OP, node.index, `condition (input 0) must have one element, it has ${cond.elementCount}`);
  checkSubgraphIndex(OP, context, node, params.thenSubgraphIndex, 'then');
  checkSubgraphIndex(OP, context, node, params.elseSubgraphIndex, 'else');
  d.cond = context.getEvalTensor(node.inputs[0]!);
  d.inputs = evalTensors(context, node.inputs, 1);
  d.outputs = evalTensors(context, node.outputs);
  // TFLite resizes both branches' inputs to the node's and prepares them; where a shape differs micrort
  // does the same (control-flow-common.ts resizeSubgraphInputs), so the branches are planned at the
  // node's shapes. The outputs take the then-branch's (computed) output shapes.
  resizeSubgraphInputs(context, params.thenSubgraphIndex, d.inputs);
  resizeSubgraphInputs(context, params.elseSubgraphIndex, d.inputs);
  const thenOutputs = context.numSubgraphOutputs(params.thenSubgraphIndex);
  for (let i = 0; i < node.outputs.length && i < thenOutputs; i++)
    if (node.outputs[i]! >= 0) setOutputShape(OP, context, node, i, context.getSubgraphOutput(params.thenSubgraphIndex, i).dims);
  d.then = branch(context, node, d, params.thenSubgraphIndex, 'then', true);
  d.else = branch(context, node, d, params.elseSubgraphIndex, 'else', false);
  d.inputCopies = packedCopies(context, d.inputs);
  d.outputCopies = packedCopies(context, d.outputs);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const active = d.cond!.data[0] ? d.then! : d.else!;
  const { inputs, outputs, inputCopies, outputCopies } = d;
  const subIn = active.inputs;
  const subOut = active.outputs;
  // Byte lengths as TFLM checks at every invoke (prepare checked them, but the branch prepares after
  // this node and its kernels may have resized its outputs since).
  for (let i = 0; i < subIn.length; i++)
    if (subIn[i]!.bytes.length !== inputs[i]!.bytes.length)
      throw copySizeError(OP, node, i, subIn[i]!, active.inSide, inputs[i]!, NODE_INPUTS);
  for (let i = 0; i < subOut.length; i++)
    if (subOut[i]!.bytes.length !== outputs[i]!.bytes.length)
      throw copySizeError(OP, node, i, outputs[i]!, NODE_OUTPUTS, subOut[i]!, active.outSide);
  // IF inputs → intermediate → branch inputs.
  for (let i = 0; i < subIn.length; i++) inputCopies[i]!.set(inputs[i]!.bytes);
  for (let i = 0; i < subIn.length; i++) subIn[i]!.bytes.set(inputCopies[i]!);
  context.invokeSubgraph(active.subgraph);
  // Branch outputs → intermediate → IF outputs.
  for (let i = 0; i < subOut.length; i++) outputCopies[i]!.set(subOut[i]!.bytes);
  for (let i = 0; i < subOut.length; i++) outputs[i]!.bytes.set(outputCopies[i]!);
  // An else-branch with fewer outputs than the node: TFLM leaves the rest holding the arena's old bytes;
  // here they are 0, so no output depends on arena contents (found by micrort fuzz).
  for (let i = subOut.length; i < outputs.length; i++) outputs[i]!.bytes.fill(0);
  // The IF inputs may have been overwritten: restore them from the intermediate buffer.
  for (let i = 0; i < subIn.length; i++) inputs[i]!.bytes.set(inputCopies[i]!);
}

/** The reference IF kernel. */
export const IF: Registration<OpData> = {
  builtinCode: BuiltinOperator.IF,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
