/**
 * STABLEHLO_COMPOSITE through the real interpreter, on converter-shaped models (test-support's
 * litert-models.ts: group norm, L2 norm and scaled-dot-product attention composites, a nested composite,
 * one decomposition shared by two composites). A composite runs its decomposition subgraph, so its
 * outputs are byte-identical to the same ops inlined into the main subgraph — which TFLite 2.9 (the
 * oracle here) runs; LiteRT.js runs the composites themselves in benchmarks/src/litert-parity.test.ts.
 * Also: decompositions stored with other input shapes than the node passes run at the node's shapes
 * (LiteRT resizes them; LiteRT.js checks these models in benchmarks' litert-parity test), the
 * decomposition is planned in the one arena inside the composite's step, invoke allocates nothing, and
 * malformed composites (or a decomposition needed at two shapes) are refused naming what is wrong.
 */
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  KernelError,
  MicroInterpreter,
  ModelBuilder,
  ModelError,
  OpResolver,
  SubgraphShapeError,
  TensorType,
  loadModel,
} from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { compositeModels, compositeResizeModels } from '@micrort/test-support/litert-models';
import {
  ORACLE_SKIP_REASON,
  TfliteOracle,
  compareWithTflite,
  oracleAvailable,
  randomInputs,
  runTflite,
} from '@micrort/test-support/tflite-oracle';
import { registerReferenceOps } from '../src/index.js';

const F32 = TensorType.FLOAT32;
/** The converter-shaped models, then composites whose decomposition stores other input shapes than the node passes. */
const models = [...compositeModels(), ...compositeResizeModels()];

function interpreter(bytes: Uint8Array): MicroInterpreter {
  return new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
  }).allocateTensors();
}

/** Deterministic inputs for an interpreter's graph inputs (float32 in [-2, 2)). */
function inputsFor(interp: MicroInterpreter, seed: number): Uint8Array[] {
  const infos = Array.from({ length: interp.inputsSize }, (_, i) => {
    const t = interp.input(i);
    return { index: i, name: t.name, dtype: 'float32', shape: Array.from(t.dims), byteLength: t.byteLength };
  });
  return randomInputs(infos, seed, [-2, 2]);
}

function run(bytes: Uint8Array, inputs: readonly Uint8Array[]): Uint8Array[] {
  const interp = interpreter(bytes);
  inputs.forEach((b, i) => interp.setInput(i, b));
  interp.invoke();
  const out = Array.from({ length: interp.outputsSize }, (_, j) => interp.output(j).bytes.slice());
  interp.dispose();
  return out;
}

describe('STABLEHLO_COMPOSITE runs its decomposition subgraph', () => {
  for (const m of models) {
    it(`${m.name}: the composite's outputs are byte-identical to its decomposition inlined`, () => {
      const inputs = inputsFor(interpreter(m.bytes), 0xc0de);
      const composite = run(m.bytes, inputs);
      const inline = run(m.inline, inputs);
      expect(composite.length).toBe(inline.length);
      composite.forEach((o, j) => expect(Buffer.from(o).equals(Buffer.from(inline[j]!)), `output ${j}`).toBe(true));
      // Not a constant: other inputs give other outputs.
      const other = run(m.bytes, inputsFor(interpreter(m.bytes), 0xbeef));
      expect(Buffer.from(other[0]!).equals(Buffer.from(composite[0]!))).toBe(false);
    });
  }

  it('plans every decomposition inside the composite node and allocates nothing in invoke', () => {
    const m = models.find((x) => x.name === 'shared decomposition')!;
    const interp = interpreter(m.bytes);
    // Subgraph 1's tensors are planned (its requirements carry the subgraph), in the same arena.
    const plan = interp.arenaUsage();
    expect(plan.headBytes).toBeGreaterThan(0);
    inputsFor(interp, 1).forEach((b, i) => interp.setInput(i, b));
    const measure = measureAllocation(() => interp.invoke(), { warmup: 300, trials: 5, iterations: 300 });
    expect(measure.medianTrialBytes, `heap deltas per trial: ${measure.deltas.join(', ')}`).toBeLessThan(4096);
  });
});

describe.skipIf(!oracleAvailable)(`composites vs TFLite 2.9 on the inlined model (${ORACLE_SKIP_REASON ?? 'oracle loaded'})`, () => {
  for (const m of models) {
    it(`${m.name}: micrort's composite equals TFLite running the decomposition`, () => {
      const infos = new TfliteOracle(m.inline).inputs;
      const inputs = randomInputs(infos, 0x1234, [-2, 2]);
      // TFLite 2.9 cannot run the composite model: it refuses STABLEHLO_COMPOSITE.
      expect(() => runTflite(m.bytes, inputs)).toThrow();
      const oracle = runTflite(m.inline, inputs).outputBytes;
      const got = run(m.bytes, inputs);
      const cmp = compareWithTflite(m.inline, inputs);
      expect(cmp.pass, JSON.stringify(cmp.outputs)).toBe(true);
      got.forEach((g, j) => {
        const a = new Float32Array(g.slice().buffer);
        const e = new Float32Array(oracle[j]!.slice().buffer);
        for (let i = 0; i < e.length; i++) expect(Math.abs(a[i]! - e[i]!)).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(e[i]!));
      });
    });
  }
});

describe('malformed composites', () => {
  /** x [1, 4] → COMPOSITE(decomposition 1) → y, with subgraph 1 built by `sub`. */
  function composite(sub: (b: ModelBuilder) => void, options: Record<string, unknown> = {}, inputs?: number[]): Uint8Array {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F32, shape: [1, 4] });
    const y = b.addTensor({ name: 'y', type: F32, shape: [1, 4] });
    b.addOperator({
      op: BuiltinOperator.STABLEHLO_COMPOSITE,
      inputs: inputs ?? [x],
      outputs: [y],
      builtinOptions2: { name: 'odml.test', decompositionSubgraphIndex: 1, ...options },
    });
    b.setInputs([x]).setOutputs([y]);
    b.addSubgraph('decomposition');
    sub(b);
    return b.selectSubgraph(0).build();
  }
  const relu =
    (shape: number[], inputs = 1) =>
    (b: ModelBuilder) => {
      const ins = Array.from({ length: inputs }, (_, i) => b.addTensor({ name: `a${i}`, type: F32, shape }));
      const o = b.addTensor({ name: 'o', type: F32, shape });
      b.addOperator({ op: BuiltinOperator.RELU, inputs: [ins[0]!], outputs: [o] });
      b.setInputs(ins).setOutputs([o]);
    };
  const refused = (bytes: Uint8Array) => {
    try {
      interpreter(bytes);
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected allocateTensors to fail');
  };

  it('runs a well-formed one (the control case)', () => {
    const out = run(composite(relu([1, 4])), [new Uint8Array(new Float32Array([-1, 2, -3, 4]).buffer)]);
    expect(Array.from(new Float32Array(out[0]!.slice().buffer))).toEqual([0, 2, 0, 4]);
  });

  it('refuses a decomposition whose inputs or outputs do not match the node in number', () => {
    const e1 = refused(composite(relu([1, 4], 2)));
    expect(e1).toBeInstanceOf(KernelError);
    expect(e1.message).toMatch(/composite "odml\.test": decomposition subgraph 1 has 2 inputs, the node 1/);
    const e3 = refused(composite(relu([1, 4]), {}, []));
    expect(e3.message).toMatch(/composite "odml\.test" has no inputs \(LiteRT requires at least one\)/);
  });

  /**
   * x [2, 4], w (node: `wNode`) → COMPOSITE → y [2, 4]; the decomposition takes a [2, 4] and w stored as
   * `wSub`, and MULs them into an output stored as [2, 4] (MUL computes the broadcast shape).
   */
  function scaled(wNode: number[], wSub: number[]): Uint8Array {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F32, shape: [2, 4] });
    const w = b.addTensor({ name: 'w', type: F32, shape: wNode });
    const y = b.addTensor({ name: 'y', type: F32, shape: [2, 4] });
    b.addOperator({
      op: BuiltinOperator.STABLEHLO_COMPOSITE,
      inputs: [x, w],
      outputs: [y],
      builtinOptions2: { name: 'odml.scale', decompositionSubgraphIndex: 1 },
    });
    b.setInputs([x, w]).setOutputs([y]);
    b.addSubgraph('scale');
    const a = b.addTensor({ name: 'scale/x', type: F32, shape: [2, 4] });
    const sw = b.addTensor({ name: 'scale/w', type: F32, shape: wSub });
    const o = b.addTensor({ name: 'scale/out', type: F32, shape: [2, 4] });
    b.addOperator({ op: BuiltinOperator.MUL, inputs: [a, sw], outputs: [o] });
    b.setInputs([a, sw]).setOutputs([o]);
    return b.selectSubgraph(0).build();
  }

  it("runs a decomposition stored at other shapes at the node's shapes, as LiteRT does", () => {
    // A [2, 4] where the node passes [1, 4]: the decomposition runs (and is planned) at [1, 4].
    const small = run(composite(relu([2, 4])), [new Uint8Array(new Float32Array([-1, 2, -3, 4]).buffer)]);
    expect(Array.from(new Float32Array(small[0]!.slice().buffer))).toEqual([0, 2, 0, 4]);
    // Fuzz reproducer kernel-crash-stablehlo-composite-decomposition-shape-s3-c1241 (was a native
    // RangeError, then a refusal): w stored [2, 1, 4] runs as the node's [2, 4], so MUL multiplies
    // element by element instead of broadcasting to [2, 2, 4].
    const x = Float32Array.from({ length: 8 }, (_, i) => i - 3);
    const w = Float32Array.from({ length: 8 }, (_, i) => 0.5 * i);
    const out = run(scaled([2, 4], [2, 1, 4]), [new Uint8Array(x.buffer), new Uint8Array(w.buffer)]);
    expect(Array.from(new Float32Array(out[0]!.slice().buffer))).toEqual(Array.from(x, (v, i) => v * w[i]!));
  });

  it('resizes the node output to the shape the decomposition computes', () => {
    // The node passes w as [2, 1, 4]: MUL broadcasts to [2, 2, 4], and y (stored [2, 4]) becomes that.
    const interp = interpreter(scaled([2, 1, 4], [2, 1, 4]));
    expect(Array.from(interp.output(0).dims)).toEqual([2, 2, 4]);
    interp.setInput(0, new Float32Array(8).fill(1));
    interp.setInput(
      1,
      Float32Array.from({ length: 8 }, (_, i) => i),
    );
    interp.invoke();
    const y = new Float32Array(interp.output(0).bytes.slice().buffer);
    expect(Array.from(y)).toEqual([0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7]);
  });

  it("plans the resized decomposition as one stored at the node's shapes, and allocates nothing in invoke", () => {
    const resized = interpreter(scaled([2, 4], [2, 1, 4]));
    const stored = interpreter(scaled([2, 4], [2, 4]));
    expect(resized.arenaUsage().headBytes).toBe(stored.arenaUsage().headBytes);
    expect(resized.arenaUsage().headBytes).toBeGreaterThanOrEqual(3 * 32);
    resized.setInput(0, new Float32Array(8).fill(1));
    resized.setInput(1, new Float32Array(8).fill(2));
    const measure = measureAllocation(() => resized.invoke(), { warmup: 300, trials: 5, iterations: 300 });
    expect(measure.medianTrialBytes, `heap deltas per trial: ${measure.deltas.join(', ')}`).toBeLessThan(4096);
  });

  /** Two composites calling decomposition 1 (RELU on a [2, 4]), passing `s0` and `s1`. */
  function twoCallers(s0: number[], s1: number[]): Uint8Array {
    const b = new ModelBuilder();
    const x0 = b.addTensor({ name: 'x0', type: F32, shape: s0 });
    const x1 = b.addTensor({ name: 'x1', type: F32, shape: s1 });
    const y0 = b.addTensor({ name: 'y0', type: F32, shape: s0 });
    const y1 = b.addTensor({ name: 'y1', type: F32, shape: s1 });
    for (const [x, y] of [
      [x0, y0],
      [x1, y1],
    ] as const)
      b.addOperator({
        op: BuiltinOperator.STABLEHLO_COMPOSITE,
        inputs: [x],
        outputs: [y],
        builtinOptions2: { name: 'odml.test', decompositionSubgraphIndex: 1 },
      });
    b.setInputs([x0, x1]).setOutputs([y0, y1]);
    b.addSubgraph('decomposition');
    relu([2, 4])(b);
    return b.selectSubgraph(0).build();
  }

  it('refuses one decomposition needed at two shapes with a SubgraphShapeError naming both, and runs one needed at one', () => {
    const e = refused(twoCallers([1, 4], [3, 4]));
    expect(e).toBeInstanceOf(SubgraphShapeError);
    expect((e as SubgraphShapeError).calledSubgraph).toBe(1);
    expect((e as SubgraphShapeError).dims).toEqual([1, 4]);
    expect((e as SubgraphShapeError).requested).toEqual([3, 4]);
    expect(e.message).toMatch(
      /input 0 of subgraph 1 \(tensor 0, a0\) is planned once per allocation: STABLEHLO_COMPOSITE \(node 0 of subgraph 0\) needs \[1, 4\], this node \[3, 4\]/,
    );
    const out = run(twoCallers([1, 4], [1, 4]), [
      new Uint8Array(new Float32Array([-1, 2, -3, 4]).buffer),
      new Uint8Array(new Float32Array([5, -6, 7, -8]).buffer),
    ]);
    expect(Array.from(new Float32Array(out[0]!.slice().buffer))).toEqual([0, 2, 0, 4]);
    expect(Array.from(new Float32Array(out[1]!.slice().buffer))).toEqual([5, 0, 7, 0]);
  });

  it("keeps the file's shapes under shapes: 'file' (TFLM's rule): the resize is refused naming the tensor and both shapes", () => {
    const bytes = scaled([2, 4], [2, 1, 4]);
    const make = () =>
      new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
        planner: createPlanner('greedy'),
        shapes: 'file',
      }).allocateTensors();
    expect(make).toThrow(/input 1 of subgraph 1 \(tensor 1, scale\/w\) has shape \[2, 1, 4\] in the file; this node passes \[2, 4\]/);
    expect(make).toThrow(KernelError);
    // well-formed still allocates under the file rule
    expect(() =>
      new MicroInterpreter(loadModel(scaled([2, 4], [2, 4])), registerReferenceOps(new OpResolver()), {
        planner: createPlanner('greedy'),
        shapes: 'file',
      }).allocateTensors(),
    ).not.toThrow();
  });

  it('refuses a decomposition index out of range at load, and a composite that decomposes into itself', () => {
    expect(() => composite(relu([1, 4]), { decompositionSubgraphIndex: 5 })).toThrow(ModelError);
    const selfRef = composite(relu([1, 4]), { decompositionSubgraphIndex: 0 });
    const e = refused(selfRef);
    expect(e).toBeInstanceOf(ModelError);
    expect(e.message).toMatch(/subgraph 0 invokes itself/);
  });
});
