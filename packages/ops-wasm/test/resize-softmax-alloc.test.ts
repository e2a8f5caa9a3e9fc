/**
 * The resize kernels and uint8 → int16 SOFTMAX inside the interpreter: a network of int8, int16, uint8 and
 * float32 RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR nodes and a uint8 → int16 SOFTMAX runs wholly on
 * ops-wasm with ops-reference's outputs, and its invoke allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { int8s, rng, runBoth, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

function buildNetwork() {
  const b = new ModelBuilder();
  const size = (h: number, w: number) =>
    b.addTensor({ name: `size_${h}x${w}`, type: TensorType.INT32, shape: [2], data: Int32Array.of(h, w) });
  const q = { scale: 0.05, zeroPoint: 3 };
  const resize = (
    op: 'RESIZE_BILINEAR' | 'RESIZE_NEAREST_NEIGHBOR',
    x: number,
    type: TensorType,
    shape: number[],
    half: boolean,
    align = false,
  ) => {
    const y = b.addTensor({ name: `${op}_${x}`, type, shape, ...(type === TensorType.FLOAT32 ? {} : { quantization: q }) });
    b.addOperator({
      op: BuiltinOperator[op],
      version: 3,
      inputs: [x, size(shape[1]!, shape[2]!)],
      outputs: [y],
      options: { alignCorners: align, halfPixelCenters: half },
    });
    return y;
  };
  const x8 = b.addTensor({ name: 'x8', type: TensorType.INT8, shape: [1, 5, 6, 11], quantization: q });
  const xu = b.addTensor({ name: 'xu', type: TensorType.UINT8, shape: [1, 4, 4, 3], quantization: q });
  const xf = b.addTensor({ name: 'xf', type: TensorType.FLOAT32, shape: [2, 3, 3, 4] });
  const x16 = b.addTensor({ name: 'x16', type: TensorType.INT16, shape: [2, 3, 4, 9], quantization: { scale: 0.01, zeroPoint: 0 } });
  const a = resize('RESIZE_BILINEAR', x8, TensorType.INT8, [1, 13, 9, 11], true);
  const a2 = resize('RESIZE_NEAREST_NEIGHBOR', a, TensorType.INT8, [1, 7, 20, 11], false, true);
  const u = resize('RESIZE_BILINEAR', xu, TensorType.UINT8, [1, 9, 7, 3], false, true);
  const u2 = resize('RESIZE_NEAREST_NEIGHBOR', u, TensorType.UINT8, [1, 4, 12, 3], true);
  const sm = b.addTensor({
    name: 'softmax',
    type: TensorType.INT16,
    shape: [1, 4, 12, 3],
    quantization: { scale: 1 / 32768, zeroPoint: 0 },
  });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [u2], outputs: [sm], options: { beta: 1 } });
  const f = resize('RESIZE_NEAREST_NEIGHBOR', xf, TensorType.FLOAT32, [2, 8, 5, 4], true);
  const h = resize('RESIZE_BILINEAR', x16, TensorType.INT16, [2, 7, 10, 9], true);
  b.setInputs([x8, xu, xf, x16]).setOutputs([a2, sm, f, h]);
  const r = rng(5);
  const floats = Float32Array.from({ length: 72 }, () => r() * 4 - 2);
  return { def: b.buildDef(), inputs: [int8s(r, 330), int8s(r, 48), new Int8Array(floats.buffer), int8s(r, 2 * 216)] };
}

describe('resize and uint8 → int16 SOFTMAX in the interpreter', () => {
  it('run wholly on ops-wasm with the outputs of ops-reference, and invoke allocates nothing', () => {
    const { def, inputs } = buildNetwork();
    const r = runBoth(def, inputs);
    expect(r.served).toBe(7);
    expect(r.got).toEqual(r.ref);
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const interp = new MicroInterpreter(def, resolver, {
      planner: createPlanner('greedy'),
      arenaBacking: wasm().arenaBacking,
    }).allocateTensors();
    expect(interp.nodes().map((n) => n.provider)).toEqual(Array(7).fill(PROVIDER));
    inputs.forEach((x, i) => interp.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
    const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
