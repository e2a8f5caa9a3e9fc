/**
 * QUANTIZE between integer types, int8 RSQRT, int8 PRELU and int8 / int16 SQUARED_DIFFERENCE inside the
 * interpreter: a chain of them (int16 -> int8, RSQRT, PRELU with a per-channel constant alpha, an int8
 * SQUARED_DIFFERENCE, int8 -> int16, an int16 SQUARED_DIFFERENCE, int16 -> int32) runs wholly on ops-wasm
 * with ops-reference's bytes, and invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { int, int8s, rng, runBoth, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

const SHAPE = [1, 10, 100];

function buildChain() {
  const b = new ModelBuilder();
  const t = (name: string, type: TensorType, scale: number, zeroPoint: number) =>
    b.addTensor({ name, type, shape: SHAPE, quantization: { scale, zeroPoint } });
  const x = t('x', TensorType.INT16, 2 ** -12, 0);
  const q = t('q', TensorType.INT8, 1 / 32, -128);
  const r = t('r', TensorType.INT8, 0.05, -100);
  const alpha = b.addTensor({
    name: 'alpha',
    type: TensorType.INT8,
    shape: [100],
    quantization: { scale: 1 / 128, zeroPoint: 3 },
    data: int8s(rng(11), 100),
  });
  const p = t('p', TensorType.INT8, 0.04, -20);
  const d = t('d', TensorType.INT8, 0.5, -128);
  const e16 = t('e16', TensorType.INT16, 2 ** -8, 0);
  const s16 = t('s16', TensorType.INT16, 2 ** -6, 0);
  const o32 = t('o32', TensorType.INT32, 2 ** -10, 5);
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [x], outputs: [q] });
  b.addOperator({ op: BuiltinOperator.RSQRT, inputs: [q], outputs: [r] });
  b.addOperator({ op: BuiltinOperator.PRELU, inputs: [r, alpha], outputs: [p] });
  b.addOperator({ op: BuiltinOperator.SQUARED_DIFFERENCE, inputs: [p, q], outputs: [d] });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [d], outputs: [e16] });
  b.addOperator({ op: BuiltinOperator.SQUARED_DIFFERENCE, inputs: [e16, x], outputs: [s16] });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [s16], outputs: [o32] });
  b.setInputs([x]).setOutputs([o32]);
  return b.buildDef();
}

describe('quantized elementwise chain in the interpreter', () => {
  it('runs on ops-wasm with the bytes of ops-reference, and invoke allocates nothing', () => {
    const def = buildChain();
    const r = rng(5);
    const x = Int16Array.from({ length: 1000 }, () => int(r, -32768, 32767));
    const input = new Int8Array(x.buffer);
    const both = runBoth(def, [input]);
    expect(both.served).toBe(7);
    expect(both.got).toEqual(both.ref);
    // not a constant output: the chain keeps many distinct values
    expect(new Set(new Int32Array(both.ref[0]!.buffer)).size).toBeGreaterThan(50);

    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const interp = new MicroInterpreter(def, resolver, {
      planner: createPlanner('greedy'),
      arenaBacking: wasm().arenaBacking,
    }).allocateTensors();
    expect(interp.nodes().map((n) => n.provider)).toEqual(Array(7).fill(PROVIDER));
    interp.input(0).bytes.set(new Uint8Array(input.buffer));
    const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
