import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { describe, expect, it } from 'vitest';
import { int, pick, rng, runBoth, runInPlace, wasm } from '../__tests__/single-op.js';

const OPS = [
  ['LOGISTIC', BuiltinOperator.LOGISTIC, -128, 256],
  ['TANH', BuiltinOperator.TANH, 0, 128],
  ['HARD_SWISH', BuiltinOperator.HARD_SWISH, 0, 0],
  ['LEAKY_RELU', BuiltinOperator.LEAKY_RELU, 0, 0],
  ['GELU', BuiltinOperator.GELU, 0, 0],
  ['EXP', BuiltinOperator.EXP, 0, 0],
  ['LOG', BuiltinOperator.LOG, 0, 0],
  ['ELU', BuiltinOperator.ELU, 0, 0],
] as const;

/** Every byte value once, then random ones (the shape's element count is n). */
function allBytes(r: () => number, n: number): Int8Array {
  return Int8Array.from({ length: n }, (_, i) => (i < 256 ? i - 128 : int(r, -128, 127)));
}

/**
 * A LOGISTIC or TANH of `shape` with TFLM's required int8 output quantization (or, `uint8`, TFLite's
 * uint8: LOGISTIC's output scale 1/256, TANH's any), or a HARD_SWISH with an output scale from 1/128 of
 * the input's up, random input scales and zero points.
 */
function build(seed: number, which: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7, uint8: boolean): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const [name, code, zp8, den] = OPS[which];
  const shape = pick(r, [[257], [1, 16, 33], [2, 3, 7, 11], [4, 64]]);
  const n = shape.reduce((a, b) => a * b, 1);
  const inQ = { scale: pick(r, [0.1, 0.0234, 1 / 16, 0.5, 0.003, 2.5]), zeroPoint: int(r, -128, 127) + (uint8 ? 128 : 0) };
  const outQ =
    which >= 2
      ? { scale: inQ.scale * pick(r, [0.0079, 0.02, 0.3, 1, 2.7]), zeroPoint: int(r, -128, 127) + (uint8 ? 128 : 0) }
      : uint8
        ? { scale: which === 0 ? 1 / 256 : pick(r, [1 / 128, 0.01, 0.0078]), zeroPoint: int(r, 0, 255) }
        : { scale: 1 / den, zeroPoint: zp8 };
  const type = uint8 ? TensorType.UINT8 : TensorType.INT8;
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type, shape, quantization: inQ });
  const y = b.addTensor({ name: 'y', type, shape, quantization: outQ });
  const alpha = pick(r, [0.1, 0.2, 0, 0.01, 1.5, 0.3]);
  const approximate = r() < 0.5;
  const options = which === 3 ? { options: { alpha } } : which === 4 ? { options: { approximate } } : {};
  b.addOperator({ op: code, inputs: [x], outputs: [y], ...options });
  b.setInputs([x]).setOutputs([y]);
  const bytes = allBytes(r, n);
  return { def: b.buildDef(), inputs: [bytes], desc: JSON.stringify({ seed, name, uint8, shape, inQ, outQ, alpha, approximate }) };
}

describe('int8 and uint8 LOGISTIC / TANH / HARD_SWISH / LEAKY_RELU / GELU, int8 EXP / LOG / ELU (wasm lut_bytes) equal ops-reference byte for byte', () => {
  for (const uint8 of [false, true])
    for (const which of [0, 1, 2, 3, 4] as const)
      it(`${OPS[which][0]} ${uint8 ? 'uint8' : 'int8'}: 40 random input quantizations, every input byte`, () => {
        for (let seed = 1; seed <= 40; seed++) {
          const m = build(seed * 4 + which, which, uint8);
          const r = runBoth(m.def, m.inputs);
          expect(r.served, m.desc).toBe(1);
          expect(r.got[0], m.desc).toEqual(r.ref[0]);
        }
      });
  for (const which of [5, 6, 7] as const)
    it(`${OPS[which][0]} int8 (TFLite has no uint8 one): 40 random input and output quantizations, every input byte`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const m = build(seed * 4 + which, which, false);
        const r = runBoth(m.def, m.inputs);
        expect(r.served, m.desc).toBe(1);
        expect(r.got[0], m.desc).toEqual(r.ref[0]);
      }
    });
});

describe('8-bit lookup kernels: declines and in place', () => {
  it('an int8 output quantized unlike TFLM requires falls back to ops-reference, which reports it', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [8], quantization: { scale: 0.1, zeroPoint: 0 } });
    const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [8], quantization: { scale: 1 / 128, zeroPoint: 0 } });
    b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [x], outputs: [y] });
    b.setInputs([x]).setOutputs([y]);
    const reason = wasm()
      .kernels.filter((k) => k.builtinCode === BuiltinOperator.LOGISTIC && k.name?.endsWith('lut8'))
      .map((k) => {
        const it = new MicroInterpreter(b.buildDef(), new OpResolver().registerAll([k]), { planner: createPlanner('greedy') });
        try {
          it.allocateTensors();
          return 'served';
        } catch (e) {
          return String(e);
        }
      });
    expect(reason.join()).toMatch(/TFLM requires 1\/256, -128/);
  });

  it('HARD_SWISH with an output scale below input scale / 128 falls back to ops-reference, which reports it', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [8], quantization: { scale: 1, zeroPoint: 0 } });
    const y = b.addTensor({ name: 'y', type: TensorType.INT8, shape: [8], quantization: { scale: 1 / 256, zeroPoint: 0 } });
    b.addOperator({ op: BuiltinOperator.HARD_SWISH, inputs: [x], outputs: [y] });
    b.setInputs([x]).setOutputs([y]);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const it_ = new MicroInterpreter(b.buildDef(), resolver, { planner: createPlanner('greedy'), arenaBacking: wasm().arenaBacking });
    expect(() => it_.allocateTensors()).toThrow(/output multiplier exponent 2 > 0/);
  });

  it('runs in place in a chain (LOGISTIC, TANH, TANH) under inPlace: true, with the same bytes as ops-reference', () => {
    const b = new ModelBuilder();
    const q = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });
    const x = b.addTensor({ name: 'x', type: TensorType.INT8, shape: [3, 100], quantization: q(0.07, 5) });
    const l = b.addTensor({ name: 'l', type: TensorType.INT8, shape: [3, 100], quantization: q(1 / 256, -128) });
    const t1 = b.addTensor({ name: 't1', type: TensorType.INT8, shape: [3, 100], quantization: q(1 / 128, 0) });
    const t2 = b.addTensor({ name: 't2', type: TensorType.INT8, shape: [3, 100], quantization: q(1 / 128, 0) });
    b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [x], outputs: [l] });
    b.addOperator({ op: BuiltinOperator.TANH, inputs: [l], outputs: [t1] });
    b.addOperator({ op: BuiltinOperator.TANH, inputs: [t1], outputs: [t2] });
    b.setInputs([x]).setOutputs([t2]);
    const def = b.buildDef();
    const input = allBytes(rng(9), 300);
    const { got, ref } = runInPlace(def, input);
    expect(got).toEqual(ref);
  });
});
