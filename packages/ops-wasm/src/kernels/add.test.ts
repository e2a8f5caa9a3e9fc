import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { buildAdd, runBoth, wasm } from '../__tests__/single-op.js';

describe('ADD int8 (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random cases, same shapes and broadcasts: tails of 1-7 elements, constant operands, scale ratios, extreme zero points, activations', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildAdd(seed);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('ADD uint8 (wasm) equals ops-reference byte for byte', () => {
  it('on 100 random cases, same shapes and broadcasts: tails of 1-7 elements, constant operands, scale ratios, zero points 0-255, activations', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const m = buildAdd(seed, BuiltinOperator.ADD, true);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });
});

describe('SUB int8 and uint8 (wasm) equal ops-reference byte for byte', () => {
  it.each([
    ['int8', false],
    ['uint8', true],
  ] as const)(
    '%s on 100 random cases, same shapes and broadcasts (either operand the smaller), constant operands, scale ratios, extreme zero points, activations',
    (_, uint8) => {
      for (let seed = 1; seed <= 100; seed++) {
        const m = buildAdd(seed, BuiltinOperator.SUB, uint8);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    },
  );
});

describe('ADD and MUL with zero points outside the type (fuzz reproducer kernel-crash-ops-wasm-add-relu-output-zero-point-255)', () => {
  /** int8 `op` [1, 4] + [1, 4] → [1, 4] with a fused RELU and the given zero points (TFLM runs it, clamping to act_max). */
  function model(op: BuiltinOperator.ADD | BuiltinOperator.MUL, zpIn: number, zpOut: number) {
    const b = new ModelBuilder();
    const q = (zeroPoint: number) => ({ scale: 0.05, zeroPoint });
    const a = b.addTensor({ name: 'a', type: TensorType.INT8, shape: [1, 4], quantization: q(zpIn) });
    const c = b.addTensor({ name: 'b', type: TensorType.INT8, shape: [1, 4], quantization: q(3) });
    const o = b.addTensor({ name: 'o', type: TensorType.INT8, shape: [1, 4], quantization: q(zpOut) });
    b.addOperator({ op, version: 2, inputs: [a, c], outputs: [o], options: { fusedActivationFunction: ActivationFunctionType.RELU } });
    b.setInputs([a, c]).setOutputs([o]);
    return b.buildDef();
  }
  const inputs = [Int8Array.of(-128, -5, 0, 127), Int8Array.of(127, 9, -128, 1)];

  it('declines them in supports() with the reason (was a native RangeError in prepare: a table of act_max − act_min + 1 entries); ops-reference serves them', () => {
    for (const op of [BuiltinOperator.ADD, BuiltinOperator.MUL] as const)
      for (const [zpIn, zpOut] of [
        [0, 255],
        [0, 32767],
        [0, 65535],
        [-300, 0],
        [0, -129],
      ] as const) {
        const def = model(op, zpIn, zpOut);
        const r = runBoth(def, inputs);
        expect(r.served, `${op} ${zpIn} ${zpOut}`).toBe(0);
        expect(r.got[0]).toEqual(r.ref[0]);
        const resolver = registerReferenceOps(new OpResolver());
        resolver.registerAll(wasm().kernels, { fallback: true });
        const it = new MicroInterpreter(def, resolver, {
          planner: createPlanner('greedy'),
          arenaBacking: wasm().arenaBacking,
        }).allocateTensors();
        const bad =
          zpOut === 0
            ? `input 1 (tensor 0) zero point ${zpIn} outside int8 [-128, 127]`
            : `output (tensor 2) zero point ${zpOut} outside int8 [-128, 127]`;
        expect(JSON.stringify(it.nodes()[0])).toContain(bad);
      }
    // in range, the same node is served
    expect(runBoth(model(BuiltinOperator.ADD, 0, 127), inputs).served).toBe(1);
  });
});
