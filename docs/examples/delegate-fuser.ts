// A small delegate: it claims float32 MUL, ADD and RELU nodes whose operands have the output's shape
// (or are one-element constants) and runs each claimed subset as ONE fused loop over the elements.
// Tensors inside a subset never exist: they need no arena space, and SOFTMAX stays on the CPU.
import {
  BuiltinOperator,
  KernelError,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  TensorType,
  loadModel,
  type Delegate,
  type DelegateParams,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';

const FUSABLE = new Set<number>([BuiltinOperator.MUL, BuiltinOperator.ADD, BuiltinOperator.RELU]);

/** One step of a fused subset: out = op(a, b), where a and b index `values` (-1: none). */
interface Step {
  op: number;
  a: number;
  b: number;
  out: number;
}

/** The delegate node's op data: the steps, and per value either a tensor index or a constant. */
interface Fused {
  steps: Step[];
  tensors: number[]; // value k comes from tensor tensors[k] (input or constant); -1 for intermediates
  inputs: Float32Array[]; // bound in invoke (arena views; no allocation)
  constants: number[]; // value k is a one-element constant: its number, else NaN
  output: number; // the subset's single output tensor
  outValue: number;
  regs: Float64Array; // one register per value, made in prepare
}

/** Does this node qualify? Float32, element-wise on equal shapes (or a one-element constant operand). */
function fusable(ctx: TfLiteContext, node: Node, code: number): boolean {
  if (!FUSABLE.has(code) || node.delegate) return false;
  const out = ctx.getTensor(node.outputs[0]!);
  const options = node.builtinData as { fusedActivationFunction?: number } | null;
  if (out.type !== TensorType.FLOAT32 || (options?.fusedActivationFunction ?? 0) !== 0) return false;
  return Array.from(node.inputs).every((i) => {
    const t = ctx.getTensor(i);
    return t.type === TensorType.FLOAT32 && (t.elementCount === out.elementCount || (t.isConstant && t.elementCount === 1));
  });
}

/** The kernel serving every delegate node of the fuser. */
const fusedKernel: Registration<Fused> = {
  builtinCode: BuiltinOperator.DELEGATE,
  name: 'DELEGATE:fuser',
  provider: 'docs/delegate-fuser',
  // init receives the subset's parameters; the plan is still readable here (it runs inside
  // replaceNodeSubsetsWithDelegateKernels), so read the replaced nodes now.
  init(ctx, data) {
    const params = data as DelegateParams;
    const valueOf = new Map<number, number>();
    const fused: Fused = {
      steps: [],
      tensors: [],
      inputs: [],
      constants: [],
      output: params.outputTensors[0]!,
      outValue: -1,
      regs: new Float64Array(0),
    };
    const value = (tensor: number): number => {
      let k = valueOf.get(tensor);
      if (k === undefined) {
        const t = ctx.getTensor(tensor);
        k = fused.tensors.push(tensor) - 1;
        fused.constants.push(t.isConstant && t.elementCount === 1 ? (t.data as Float32Array)[0]! : NaN);
        valueOf.set(tensor, k);
      }
      return k;
    };
    for (const index of params.nodesToReplace) {
      const { node, registration } = ctx.getNodeAndRegistration(index);
      const a = value(node.inputs[0]!);
      const b = node.inputs.length > 1 ? value(node.inputs[1]!) : -1;
      const out = fused.tensors.push(-1) - 1; // an intermediate: no tensor, no arena memory
      fused.constants.push(NaN);
      valueOf.set(node.outputs[0]!, out);
      fused.steps.push({ op: registration.builtinCode, a, b, out });
    }
    fused.outValue = valueOf.get(fused.output)!;
    return fused;
  },
  prepare(_ctx, node) {
    const fused = node.userData as Fused;
    if (node.outputs.length !== 1) throw new KernelError('DELEGATE:fuser', node.index, `one output per subset, got ${node.outputs.length}`);
    fused.inputs = fused.tensors.map(() => new Float32Array(0));
    fused.regs = new Float64Array(fused.tensors.length);
  },
  invoke(ctx, node) {
    // No allocation here: views come from the eval tensors, registers were made in prepare.
    const f = node.userData as Fused;
    const regs = f.regs;
    for (let k = 0; k < f.tensors.length; k++) if (f.tensors[k]! >= 0) f.inputs[k] = ctx.getEvalTensor(f.tensors[k]!).data as Float32Array;
    const y = ctx.getEvalTensor(f.output).data as Float32Array;
    for (let i = 0; i < y.length; i++) {
      for (let k = 0; k < f.tensors.length; k++) {
        if (f.tensors[k]! >= 0) regs[k] = Number.isNaN(f.constants[k]!) ? f.inputs[k]![i]! : f.constants[k]!;
      }
      for (let j = 0; j < f.steps.length; j++) {
        const s = f.steps[j]!;
        const a = regs[s.a]!;
        const b = s.b >= 0 ? regs[s.b]! : 0;
        regs[s.out] = Math.fround(s.op === BuiltinOperator.MUL ? a * b : s.op === BuiltinOperator.ADD ? a + b : Math.max(0, a));
      }
      y[i] = regs[f.outValue]!;
    }
  },
};

/** The delegate: pick the nodes, let the context partition and replace them. */
export const fuser: Delegate = {
  name: 'fuser',
  prepare(ctx, delegate) {
    const claimed = Array.from(ctx.getExecutionPlan()).filter((i) => {
      const { node, registration } = ctx.getNodeAndRegistration(i);
      return fusable(ctx, node, registration.builtinCode);
    });
    ctx.replaceNodeSubsetsWithDelegateKernels(fusedKernel, claimed, delegate);
  },
};

export function main() {
  // y = softmax(relu(x * 0.5 + c))
  const b = new ModelBuilder();
  const F = TensorType.FLOAT32;
  const x = b.addTensor({ name: 'x', type: F, shape: [1, 4] });
  const half = b.addTensor({ name: 'half', type: F, shape: [1], data: Float32Array.of(0.5) });
  const c = b.addTensor({ name: 'c', type: F, shape: [1, 4], data: Float32Array.of(1, -1, 2, -2) });
  const scaled = b.addTensor({ name: 'scaled', type: F, shape: [1, 4] });
  const shifted = b.addTensor({ name: 'shifted', type: F, shape: [1, 4] });
  const relu = b.addTensor({ name: 'relu', type: F, shape: [1, 4] });
  const y = b.addTensor({ name: 'y', type: F, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.MUL, inputs: [x, half], outputs: [scaled] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [scaled, c], outputs: [shifted] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [shifted], outputs: [relu] });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [relu], outputs: [y] });
  const model = loadModel(b.setInputs([x]).setOutputs([y]).build());

  const run = (delegates: Delegate[]) => {
    const it = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), { planner: new GreedyPlanner(), delegates });
    it.allocateTensors();
    it.setInput(0, Float32Array.of(2, 4, -6, 8));
    it.invoke();
    return it;
  };
  const cpu = run([]);
  const fused = run([fuser]);
  return {
    partitions: fused.partitions(), // [{ delegate: 'fuser', nodeIndex: 4, nodes: [0, 1, 2], ... internalTensors: [3, 4] }]
    plan: fused.nodes().map((n) => n.op), // ['DELEGATE:fuser', 'SOFTMAX']
    y: Array.from(fused.output(0).data as Float32Array),
    yCpu: Array.from(cpu.output(0).data as Float32Array),
    // bytes of tensors the planner had to place: x, scaled, shifted, relu, y (5 x 16) vs x, relu, y (3 x 16)
    plannedBytes: { cpu: cpu.arenaUsage().plannedTensorBytes, fused: fused.arenaUsage().plannedTensorBytes },
  };
}
