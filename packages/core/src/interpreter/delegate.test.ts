/**
 * Delegates at the interpreter level: real (JavaScript) delegates on models made by ModelBuilder —
 * partitions, execution order, several delegates, user options, arena savings of internal tensors,
 * ownership of outputs, buffer-handle hooks and cleanup.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import type { Delegate, DelegateOptions } from '../delegate/delegate.js';
import { DelegateError } from '../errors.js';
import type { DelegateParams, Node, Registration, TfLiteContext } from '../kernel/api.js';
import { AllocationType } from '../kernel/tensor.js';
import { loadModel } from '../model/loader.js';
import { ModelBuilder } from '../model/model-builder.js';
import type { ModelDef } from '../model/model-def.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { TensorType } from '../types.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { TestLinearPlanner } from './__fixtures__/tiny-models.js';

const F = TensorType.FLOAT32;
const N = 4;

/** Float math of the ops these tests use, shared by the CPU kernels and the JS delegate. */
const MATH: Record<number, (a: number, b: number) => number> = {
  [BuiltinOperator.SIN]: (a) => Math.fround(Math.sin(a)),
  [BuiltinOperator.ADD]: (a, b) => Math.fround(a + b),
  [BuiltinOperator.MUL]: (a, b) => Math.fround(a * b),
};

/** Element-wise CPU kernels (one or two inputs of the same length; a 1-element second input broadcasts). */
function cpuKernel(code: number): Registration {
  const f = MATH[code]!;
  return {
    builtinCode: code,
    provider: 'core-test-cpu',
    invoke(ctx, node) {
      const a = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array;
      const b = node.inputs.length > 1 ? (ctx.getEvalTensor(node.inputs[1]!).data as Float32Array) : a;
      const y = ctx.getEvalTensor(node.outputs[0]!).data as Float32Array;
      for (let i = 0; i < y.length; i++) y[i] = f(a[i]!, b[b.length === 1 ? 0 : i]!);
    },
  };
}

function resolver(): OpResolver {
  return new OpResolver().registerAll([BuiltinOperator.SIN, BuiltinOperator.ADD, BuiltinOperator.MUL].map(cpuKernel));
}

/** What a JS delegate's kernel keeps per delegated subset. */
interface JsSubset {
  nodes: { code: number; inputs: number[]; output: number }[];
  /** The delegate's own memory for tensors internal to the subset. */
  own: Map<number, Float32Array>;
  params: DelegateParams;
}

/** Events the delegates record, in order. */
type Log = string[];

/**
 * A real delegate that runs claimed nodes in JavaScript, keeping tensors internal to a subset in its own
 * memory (they have no arena space). Claims nodes whose op is in `codes`.
 */
class JsDelegate implements Delegate {
  readonly registration: Registration<JsSubset>;
  inits = 0;
  frees = 0;
  constructor(
    readonly name: string,
    private readonly codes: readonly number[],
    readonly log: Log = [],
    readonly flags: Delegate['flags'] = {},
  ) {
    const self = this;
    this.registration = {
      builtinCode: BuiltinOperator.DELEGATE,
      name: `DELEGATE:${name}`,
      provider: 'core-test-delegate',
      init(ctx: TfLiteContext, data: unknown): JsSubset {
        self.inits++;
        const params = data as DelegateParams;
        const nodes = Array.from(params.nodesToReplace, (i) => {
          const { node, registration } = ctx.getNodeAndRegistration(i);
          return { code: registration.builtinCode, inputs: Array.from(node.inputs), output: node.outputs[0]! };
        });
        return { nodes, own: new Map(), params };
      },
      prepare(ctx: TfLiteContext, node: Node) {
        const sub = node.userData as JsSubset;
        const exported = new Set(sub.params.outputTensors);
        for (const n of sub.nodes)
          if (!exported.has(n.output)) sub.own.set(n.output, new Float32Array(ctx.getTensor(n.output).elementCount));
      },
      invoke(ctx: TfLiteContext, node: Node) {
        const sub = node.userData as JsSubset;
        self.log.push(`${self.name}:invoke[${sub.params.nodesToReplace.join(',')}]`);
        const read = (t: number) => sub.own.get(t) ?? (ctx.getEvalTensor(t).data as Float32Array);
        for (const n of sub.nodes) {
          const f = MATH[n.code]!;
          const a = read(n.inputs[0]!);
          const b = n.inputs.length > 1 ? read(n.inputs[1]!) : a;
          const y = read(n.output);
          for (let i = 0; i < y.length; i++) y[i] = f(a[i]!, b[b.length === 1 ? 0 : i]!);
        }
      },
      free() {
        self.frees++;
      },
    };
  }

  prepare(ctx: TfLiteContext, delegate: Delegate): void {
    const claimed = Array.from(ctx.getExecutionPlan()).filter((i) => {
      const { node, registration } = ctx.getNodeAndRegistration(i);
      return !node.delegate && this.codes.includes(registration.builtinCode);
    });
    ctx.replaceNodeSubsetsWithDelegateKernels(this.registration, claimed, delegate);
  }
}

/** Seed 002's example f(x) = sin(x) + x + sin(2x): tensors 0 x, 1 const 2, 2 sin1, 3 add1, 4 mul, 5 sin2, 6 y. */
function seedModel(): ModelDef {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F, shape: [N] });
  const two = b.addTensor({ name: 'two', type: F, shape: [1], data: Float32Array.of(2) });
  const sin1 = b.addTensor({ name: 'sin1', type: F, shape: [N] });
  const add1 = b.addTensor({ name: 'add1', type: F, shape: [N] });
  const mul = b.addTensor({ name: 'mul', type: F, shape: [N] });
  const sin2 = b.addTensor({ name: 'sin2', type: F, shape: [N] });
  const y = b.addTensor({ name: 'y', type: F, shape: [N] });
  b.addOperator({ op: BuiltinOperator.SIN, inputs: [x], outputs: [sin1] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [sin1, x], outputs: [add1] });
  b.addOperator({ op: BuiltinOperator.MUL, inputs: [x, two], outputs: [mul] });
  b.addOperator({ op: BuiltinOperator.SIN, inputs: [mul], outputs: [sin2] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [add1, sin2], outputs: [y] });
  return loadModel(b.setInputs([x]).setOutputs([y]).build());
}

const X = Float32Array.of(0.5, -1.25, 2, 3.5);
function expectedSeed(): number[] {
  return Array.from(X, (x) => {
    const f = Math.fround;
    return f(f(f(Math.sin(x)) + x) + f(Math.sin(f(2 * x))));
  });
}

function run(model: ModelDef, delegates: Delegate[], opts: DelegateOptions = {}, extra: { arena?: number | 'auto' } = {}) {
  const it = new MicroInterpreter(model, resolver(), {
    planner: new TestLinearPlanner(),
    delegates,
    delegateOptions: opts,
    arena: extra.arena ?? 'auto',
  });
  it.allocateTensors();
  it.setInput(0, X);
  it.invoke();
  return it;
}

describe('delegates in the interpreter', () => {
  it("the seed example with SIN delegated: four subsets in the seed's order, right outputs", () => {
    const d = new JsDelegate('sin', [BuiltinOperator.SIN]);
    const it = run(seedModel(), [d]);
    expect(it.partitions()).toEqual([
      { delegate: 'sin', nodeIndex: 5, nodes: [0], inputTensors: [0], outputTensors: [2], internalTensors: [] },
      { delegate: 'sin', nodeIndex: 6, nodes: [3], inputTensors: [4], outputTensors: [5], internalTensors: [] },
    ]);
    // execution plan: SIN1 (delegate) | ADD1, MUL (cpu) | SIN2 (delegate) | ADD2 (cpu)
    expect(it.nodes().map((n) => [n.index, n.op, n.provider])).toEqual([
      [5, 'DELEGATE:sin', 'core-test-delegate'],
      [1, 'ADD', 'core-test-cpu'],
      [2, 'MUL', 'core-test-cpu'],
      [6, 'DELEGATE:sin', 'core-test-delegate'],
      [4, 'ADD', 'core-test-cpu'],
    ]);
    expect(it.nodes()[0]!.delegate).toEqual({ name: 'sin', nodes: [0] });
    expect(Array.from(it.output(0).data as Float32Array)).toEqual(expectedSeed());
    expect(it.tensorOwner(2)).toEqual({ delegate: 'sin', nodeIndex: 5 });
    expect(it.tensorOwner(5)).toEqual({ delegate: 'sin', nodeIndex: 6 });
    expect(it.tensorOwner(3)).toBeNull();
  });

  it('a delegate that claims nothing changes nothing; one that claims everything becomes one node', () => {
    const none = run(seedModel(), [new JsDelegate('none', [])]);
    expect(none.partitions()).toEqual([]);
    expect(none.nodes().map((n) => n.index)).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(none.output(0).data as Float32Array)).toEqual(expectedSeed());

    const all = run(seedModel(), [new JsDelegate('all', [BuiltinOperator.SIN, BuiltinOperator.ADD, BuiltinOperator.MUL])]);
    expect(all.partitions()).toEqual([
      { delegate: 'all', nodeIndex: 5, nodes: [0, 1, 2, 3, 4], inputTensors: [0, 1], outputTensors: [6], internalTensors: [2, 3, 4, 5] },
    ]);
    expect(all.nodes().map((n) => n.index)).toEqual([5]);
    expect(Array.from(all.output(0).data as Float32Array)).toEqual(expectedSeed());
    expect(all.tensorOwner(6)).toEqual({ delegate: 'all', nodeIndex: 5 });
  });

  it('tensors internal to a delegated subset take no arena space unless the delegate asks', () => {
    const cpu = run(seedModel(), []);
    const all = run(seedModel(), [new JsDelegate('all', [BuiltinOperator.SIN, BuiltinOperator.ADD, BuiltinOperator.MUL])]);
    // 16 bytes per float[4] tensor; the linear test planner never reuses memory
    expect(cpu.arenaUsage().plannedTensorBytes).toBe(6 * 16); // x, sin1, add1, mul, sin2, y
    expect(all.arenaUsage().plannedTensorBytes).toBe(2 * 16); // x and y only
    expect(all.arenaUsage().headBytes).toBe(cpu.arenaUsage().headBytes - 4 * 16);
    for (const t of [2, 3, 4, 5]) expect(all.tensor(t).allocationType).toBe(AllocationType.Delegate);
    expect(all.tensor(6).allocationType).toBe(AllocationType.ArenaRw);

    const keep = run(seedModel(), [
      new JsDelegate('keep', [BuiltinOperator.SIN, BuiltinOperator.ADD, BuiltinOperator.MUL], [], { keepInternalTensorsInArena: true }),
    ]);
    expect(keep.arenaUsage().plannedTensorBytes).toBe(6 * 16);
    for (const t of [2, 3, 4, 5]) expect(keep.tensor(t).allocationType).toBe(AllocationType.ArenaRw);
    expect(Array.from(keep.output(0).data as Float32Array)).toEqual(expectedSeed());
  });

  it('branches and several outputs: each output is exported by the subset that makes it', () => {
    // x → SIN a → MUL(a, c) → y0 (output); x → ADD(x, c) b → SIN → y1 (output); a is also an output
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F, shape: [N] });
    const c = b.addTensor({ name: 'c', type: F, shape: [1], data: Float32Array.of(3) });
    const a = b.addTensor({ name: 'a', type: F, shape: [N] });
    const y0 = b.addTensor({ name: 'y0', type: F, shape: [N] });
    const bb = b.addTensor({ name: 'b', type: F, shape: [N] });
    const y1 = b.addTensor({ name: 'y1', type: F, shape: [N] });
    b.addOperator({ op: BuiltinOperator.SIN, inputs: [x], outputs: [a] });
    b.addOperator({ op: BuiltinOperator.MUL, inputs: [a, c], outputs: [y0] });
    b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, c], outputs: [bb] });
    b.addOperator({ op: BuiltinOperator.SIN, inputs: [bb], outputs: [y1] });
    const model = loadModel(b.setInputs([x]).setOutputs([y0, y1, a]).build());
    const d = new JsDelegate('sin', [BuiltinOperator.SIN]);
    const it = run(model, [d]);
    // Both SINs are ready in different epochs: SIN(x) first, SIN(b) after ADD.
    expect(it.partitions().map((p) => [p.nodes, p.inputTensors, p.outputTensors])).toEqual([
      [[0], [0], [2]],
      [[3], [4], [5]],
    ]);
    const f = Math.fround;
    expect(Array.from(it.output(0).data as Float32Array)).toEqual(Array.from(X, (v) => f(f(Math.sin(v)) * 3)));
    expect(Array.from(it.output(1).data as Float32Array)).toEqual(Array.from(X, (v) => f(Math.sin(f(v + 3)))));
    expect(Array.from(it.output(2).data as Float32Array)).toEqual(Array.from(X, (v) => f(Math.sin(v))));
  });

  it("several delegates apply in order; the second sees the first one's nodes and cannot claim them", () => {
    const log: Log = [];
    const sin = new JsDelegate('sin', [BuiltinOperator.SIN], log);
    const arith = new JsDelegate('arith', [BuiltinOperator.ADD, BuiltinOperator.MUL], log);
    const it = run(seedModel(), [sin, arith]);
    expect(it.partitions().map((p) => [p.delegate, p.nodeIndex, p.nodes])).toEqual([
      ['sin', 5, [0]],
      ['sin', 6, [3]],
      ['arith', 7, [1, 2]],
      ['arith', 8, [4]],
    ]);
    expect(it.nodes().map((n) => n.index)).toEqual([5, 7, 6, 8]);
    expect(log).toEqual(['sin:invoke[0]', 'arith:invoke[1,2]', 'sin:invoke[3]', 'arith:invoke[4]']);
    expect(Array.from(it.output(0).data as Float32Array)).toEqual(expectedSeed());

    const greedy: Delegate = {
      name: 'greedy',
      prepare(ctx, self) {
        ctx.replaceNodeSubsetsWithDelegateKernels(arith.registration, ctx.getExecutionPlan(), self);
      },
    };
    expect(() => run(seedModel(), [sin, greedy])).toThrow(DelegateError);
    expect(() => run(seedModel(), [sin, greedy])).toThrow(/claimed node 5, which is already a delegate node/);
  });

  it('options: maxPartitions keeps the largest, minPartitionSize drops small ones, excludeNodes stays on the CPU', () => {
    const parts = (codes: number[], opts: DelegateOptions) =>
      run(seedModel(), [new JsDelegate('d', codes)], opts)
        .partitions()
        .map((p) => p.nodes);
    const SIN = BuiltinOperator.SIN;
    const ADD = BuiltinOperator.ADD;
    const MUL = BuiltinOperator.MUL;
    // independent ready nodes of the delegated kind join one subset: SIN1, MUL, SIN2
    expect(parts([SIN, MUL], {})).toEqual([[0, 2, 3]]);
    const excluded = run(seedModel(), [new JsDelegate('d', [SIN, MUL])], { excludeNodes: [2] });
    expect(excluded.partitions().map((p) => p.nodes)).toEqual([[0], [3]]);
    expect(excluded.nodes().find((n) => n.index === 2)!.provider).toBe('core-test-cpu');
    expect(Array.from(excluded.output(0).data as Float32Array)).toEqual(expectedSeed());
    // SIN and ADD without ADD2: subsets [SIN1, ADD1] and [SIN2]
    expect(parts([SIN, ADD], { excludeNodes: [4] })).toEqual([[0, 1], [3]]);
    const capped = run(seedModel(), [new JsDelegate('d', [SIN, ADD])], { excludeNodes: [4], maxPartitions: 1 });
    expect(capped.partitions().map((p) => p.nodes)).toEqual([[0, 1]]);
    expect(Array.from(capped.output(0).data as Float32Array)).toEqual(expectedSeed());
    expect(parts([SIN, ADD], { excludeNodes: [4], minPartitionSize: 2 })).toEqual([[0, 1]]);
    // equal sizes: the earlier partition is kept
    expect(parts([SIN], { maxPartitions: 1 })).toEqual([[0]]);
    expect(parts([SIN], { minPartitionSize: 2 })).toEqual([]);
    expect(parts([SIN], { maxPartitions: 0 })).toEqual([]);
  });

  it('buffer-handle hooks: inputs copied in before, outputs copied out after each delegate node; handles freed on dispose', () => {
    const calls: string[] = [];
    const inner = new JsDelegate('h', [BuiltinOperator.SIN]);
    const hooked: Delegate = {
      name: 'h',
      prepare: (ctx, self) => inner.prepare(ctx, self),
      copyToBufferHandle: (_ctx, t) => void calls.push(`to:${t}`),
      copyFromBufferHandle: (ctx, t) => void calls.push(`from:${t}=${(ctx.getEvalTensor(t).data as Float32Array)[0]!.toFixed(3)}`),
      freeBufferHandle: (_ctx, t) => void calls.push(`free:${t}`),
    };
    const it = run(seedModel(), [hooked]);
    const sin05 = Math.sin(0.5).toFixed(3);
    expect(calls).toEqual(['to:0', `from:2=${sin05}`, 'to:4', `from:5=${Math.sin(1).toFixed(3)}`]);
    calls.length = 0;
    it.dispose();
    expect(calls.sort()).toEqual(['free:0', 'free:2', 'free:4', 'free:5']);
  });

  it('every initialized delegate node is freed: on failure and on dispose', () => {
    const d = new JsDelegate('sin', [BuiltinOperator.SIN]);
    const it = run(seedModel(), [d]);
    // 'auto' allocates once: two delegate nodes, freed on dispose
    expect(d.inits).toBe(2);
    expect(d.frees).toBe(0);
    it.dispose();
    expect(d.frees).toBe(2);

    const small = new JsDelegate('sin', [BuiltinOperator.SIN]);
    expect(() => run(seedModel(), [small], {}, { arena: 64 })).toThrow(/arena/i);
    expect(small.inits).toBe(2);
    expect(small.frees).toBe(2);
  });

  it('a delegate claiming a node outside the plan is a DelegateError naming it', () => {
    const bad: Delegate = {
      name: 'bad',
      prepare(ctx, self) {
        ctx.replaceNodeSubsetsWithDelegateKernels(new JsDelegate('x', []).registration, [42], self);
      },
    };
    expect(() => run(seedModel(), [bad])).toThrow(/delegate bad claimed node 42, which is not in the execution plan/);
  });
});

describe('delegates and shapes', () => {
  const resized = (d: Delegate) => {
    const it = new MicroInterpreter(seedModel(), resolver(), { planner: new TestLinearPlanner(), delegates: [d], arena: 'auto' });
    it.resizeInputTensor(0, [2 * N]);
    return it.allocateTensors();
  };

  it('a delegate without allowDynamicTensors is not applied after an input resize (its nodes run on the kernels), one with it is', () => {
    const still = resized(new JsDelegate('static', [BuiltinOperator.SIN]));
    expect(still.partitions()).toEqual([]);
    expect(still.nodes().every((n) => n.provider === 'core-test-cpu')).toBe(true);
    expect(still.skippedDelegates()).toEqual([
      {
        delegate: 'static',
        reason: expect.stringMatching(/graph input tensor 0 resized, and delegate static does not allow dynamic tensors/),
      },
    ]);
    const dynamic = resized(new JsDelegate('dynamic', [BuiltinOperator.SIN], [], { allowDynamicTensors: true }));
    expect(dynamic.partitions().length).toBe(2);
    expect(dynamic.skippedDelegates()).toEqual([]);
    // without a resize (or resized back to the file's shape) the static delegate applies
    const it = new MicroInterpreter(seedModel(), resolver(), {
      planner: new TestLinearPlanner(),
      delegates: [new JsDelegate('static', [BuiltinOperator.SIN])],
    });
    it.resizeInputTensor(0, [N]);
    expect(it.allocateTensors().partitions().length).toBe(2);
  });

  it("a delegate node's failing prepare fails allocateTensors and marks the nodes it replaced (it was dropped from the report)", () => {
    const d = new JsDelegate('fails', [BuiltinOperator.SIN]);
    d.registration.prepare = () => {
      throw new DelegateError('fails: cannot plan this subset');
    };
    let caught: unknown;
    try {
      run(seedModel(), [d]);
    } catch (e) {
      caught = e;
    }
    expect(String(caught)).toMatch(/cannot plan this subset/);
    const it = new MicroInterpreter(seedModel(), resolver(), { planner: new TestLinearPlanner(), delegates: [d] });
    const report = it.check();
    expect(report.ok).toBe(false);
    expect(report.nodes.filter((n) => n.status === 'prepare-failed').map((n) => n.op)).toEqual(['SIN', 'SIN']);
  });
});
