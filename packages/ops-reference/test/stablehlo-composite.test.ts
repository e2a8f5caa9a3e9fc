/**
 * STABLEHLO_COMPOSITE through the real interpreter, on converter-shaped models (test-support's
 * litert-models.ts: group norm, L2 norm and scaled-dot-product attention composites, a nested composite,
 * one decomposition shared by two composites). A composite runs its decomposition subgraph, so its
 * outputs are byte-identical to the same ops inlined into the main subgraph — which TFLite 2.9 (the
 * oracle here) runs; LiteRT.js runs the composites themselves in benchmarks/src/litert-parity.test.ts.
 * Also: the decomposition is planned in the one arena inside the composite's step, invoke allocates
 * nothing, and malformed composites are refused naming what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, KernelError, MicroInterpreter, ModelBuilder, ModelError, OpResolver, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { compositeModels } from '@micrort/test-support/litert-models';
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
const models = compositeModels();

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

  it('refuses a decomposition whose inputs, outputs or shapes do not match the node', () => {
    const e1 = refused(composite(relu([1, 4], 2)));
    expect(e1).toBeInstanceOf(KernelError);
    expect(e1.message).toMatch(/composite "odml\.test": decomposition subgraph 1 has 2 inputs, the node 1/);
    const e2 = refused(composite(relu([2, 4])));
    expect(e2.message).toMatch(
      /input 0 \(tensor 0, shape \[1, 4\]\) has 16 bytes but input 0 of decomposition subgraph 1 \(tensor 0, shape \[2, 4\]\) has 32/,
    );
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

  it('refuses a decomposition input stored with another shape of the same size (fuzz reproducer kernel-crash-stablehlo-composite-decomposition-shape-s3-c1241)', () => {
    // Was a native RangeError in invoke: the decomposition ran w as [2, 1, 4], MUL broadcast its output to
    // [2, 2, 4], and copying it out overflowed y. LiteRT would resize w to the node's [2, 4].
    const e = refused(scaled([2, 4], [2, 1, 4]));
    expect(e).toBeInstanceOf(KernelError);
    expect(e.message).toMatch(
      /STABLEHLO_COMPOSITE \(node 0\): composite "odml\.scale": input 1 \(tensor 1\) has shape \[2, 4\] but input 1 of decomposition subgraph 1 \(tensor 1\) is stored as \[2, 1, 4\]/,
    );
  });

  it('a decomposition output its kernels resize after the composite prepared is a KernelError in invoke, and the interpreter stays usable', () => {
    // The shapes match the node's, but MUL computes [2, 2, 4] for an output stored (and copied out) as [2, 4].
    const interp = interpreter(scaled([2, 1, 4], [2, 1, 4]));
    interp.setInput(0, new Float32Array(8).fill(1));
    interp.setInput(1, new Float32Array(8).fill(2));
    expect(() => interp.invoke()).toThrow(KernelError);
    expect(() => interp.invoke()).toThrow(
      /output 0 of decomposition subgraph 1 \(tensor 2, shape \[2, 2, 4\]\) has 64 bytes but output 0 \(tensor 2, shape \[2, 4\]\) has 32/,
    );
    // a well-formed composite still runs
    const out = run(composite(relu([1, 4])), [new Uint8Array(new Float32Array([-1, 2, -3, 4]).buffer)]);
    expect(Array.from(new Float32Array(out[0]!.slice().buffer))).toEqual([0, 2, 0, 4]);
  });

  it('refuses a decomposition index out of range at load, and a composite that decomposes into itself', () => {
    expect(() => composite(relu([1, 4]), { decompositionSubgraphIndex: 5 })).toThrow(ModelError);
    const selfRef = composite(relu([1, 4]), { decompositionSubgraphIndex: 0 });
    const e = refused(selfRef);
    expect(e).toBeInstanceOf(ModelError);
    expect(e.message).toMatch(/subgraph 0 invokes itself/);
  });
});
