/**
 * TFLite's PartitionGraphIntoIndependentNodeSubsets (graph_info.cc): splits an execution plan into an
 * ordered list of node subsets, each entirely delegated or entirely not, such that running the subsets
 * in order respects every data dependency. Each epoch greedily takes every ready node of the type of the
 * first ready node it meets; a tensor produced in one subset and read in another becomes an output of
 * the first and an input of the second.
 */
export interface PartitionNode {
  readonly inputs: ArrayLike<number>;
  readonly outputs: ArrayLike<number>;
}

export interface NodeSubset {
  /** True for a subset of delegated nodes. */
  delegated: boolean;
  /** Node indices (as in the execution plan), in execution order. */
  nodes: number[];
  /** Tensors read by the subset and produced outside it (incl. constants and graph inputs), sorted, unique. */
  inputTensors: number[];
  /** Tensors produced in the subset and read outside it or graph outputs, sorted, unique. */
  outputTensors: number[];
}

const ALWAYS_READY = -1;
const NOT_READY = -2;

/**
 * @param plan execution plan: node indices in order
 * @param getNode node by index
 * @param delegated set of node indices to delegate
 * @param tensorCount number of tensors
 * @param graphOutputs the subgraph's output tensors
 */
export function partitionGraphIntoIndependentNodeSubsets(
  plan: ArrayLike<number>,
  getNode: (nodeIndex: number) => PartitionNode,
  delegated: ReadonlySet<number>,
  tensorCount: number,
  graphOutputs: ArrayLike<number>,
): NodeSubset[] {
  const n = plan.length;
  const tensorEpochs = new Int32Array(tensorCount).fill(ALWAYS_READY);
  const nodeEpochs = new Int32Array(n).fill(NOT_READY);
  for (let i = 0; i < n; i++) {
    const outs = getNode(plan[i]!).outputs;
    for (let k = 0; k < outs.length; k++) if (outs[k]! >= 0) tensorEpochs[outs[k]!] = NOT_READY;
  }
  const subsets: (NodeSubset & { type: 'unexplored' | 'delegated' | 'cpu' })[] = [];

  const updateNode = (i: number): boolean => {
    const current = subsets[subsets.length - 1]!;
    const epoch = subsets.length - 1;
    if (nodeEpochs[i] !== NOT_READY) return false;
    const node = getNode(plan[i]!);
    for (let k = 0; k < node.inputs.length; k++) {
      const t = node.inputs[k]!;
      if (t >= 0 && tensorEpochs[t] === NOT_READY) return false;
    }
    const type = delegated.has(plan[i]!) ? 'delegated' : 'cpu';
    if (current.type === 'unexplored') current.type = type;
    if (current.type !== type) return false;
    nodeEpochs[i] = epoch;
    current.nodes.push(plan[i]!);
    for (let k = 0; k < node.outputs.length; k++) if (node.outputs[k]! >= 0) tensorEpochs[node.outputs[k]!] = epoch;
    for (let k = 0; k < node.inputs.length; k++) {
      const t = node.inputs[k]!;
      if (t < 0) continue;
      const inputEpoch = tensorEpochs[t]!;
      if (inputEpoch !== epoch) {
        current.inputTensors.push(t);
        if (inputEpoch >= 0) subsets[inputEpoch]!.outputTensors.push(t);
      }
    }
    return true;
  };

  for (;;) {
    subsets.push({ type: 'unexplored', delegated: false, nodes: [], inputTensors: [], outputTensors: [] });
    for (;;) {
      let didSomething = false;
      for (let i = 0; i < n; i++) if (updateNode(i)) didSomething = true;
      if (!didSomething) break;
    }
    if (subsets[subsets.length - 1]!.nodes.length === 0) {
      subsets.pop();
      break;
    }
  }
  for (let k = 0; k < graphOutputs.length; k++) {
    const t = graphOutputs[k]!;
    const e = t >= 0 ? tensorEpochs[t]! : ALWAYS_READY;
    if (e >= 0) subsets[e]!.outputTensors.push(t);
  }
  const uniq = (a: number[]) => [...new Set(a)].sort((x, y) => x - y);
  return subsets.map((s) => ({
    delegated: s.type === 'delegated',
    nodes: s.nodes,
    inputTensors: uniq(s.inputTensors),
    outputTensors: uniq(s.outputTensors),
  }));
}
