/**
 * A model whose input has a dynamic batch (shape_signature -1), resized before allocateTensors(): ops-wasm's
 * CONV_2D and DEPTHWISE_CONV_2D (int8, float32 and hybrid) size their outputs from the input as
 * ops-reference does (the stored batch-1 output shape is a hint; an output stored without a shape is
 * inferred), serve every node and give ops-reference's outputs.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, Padding, TensorType, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { int8s, rng, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

type Kind = 'int8' | 'float32' | 'hybrid';

/** input [-1, 12, 10, 8] → CONV_2D 3x3 to 32 channels → DEPTHWISE_CONV_2D 3x3 stride 2; `emptyOutputs` stores the two outputs without a shape. */
function model(kind: Kind, emptyOutputs: boolean): ModelDef {
  const r = rng(kind.length * 7 + (emptyOutputs ? 1 : 0));
  const b = new ModelBuilder();
  const act = kind === 'int8' ? TensorType.INT8 : TensorType.FLOAT32;
  const q = (zp: number) => (kind === 'int8' ? { quantization: { scale: 0.05, zeroPoint: zp } } : {});
  const weightType = kind === 'float32' ? TensorType.FLOAT32 : TensorType.INT8;
  const weights = (shape: number[], axis: number) => {
    const n = shape.reduce((p, v) => p * v, 1);
    if (kind === 'float32') {
      const f = Float32Array.from({ length: n }, () => r() - 0.5);
      return { type: weightType, shape, data: new Uint8Array(f.buffer) };
    }
    const c = shape[axis]!;
    const quantization = {
      scale: Array.from({ length: c }, () => 0.005 + r() * 0.01),
      zeroPoint: Array(c).fill(0),
      quantizedDimension: axis,
    };
    return { type: weightType, shape, data: new Uint8Array(int8s(r, n).buffer), quantization };
  };
  const biasOf = (c: number) =>
    kind === 'int8'
      ? {
          type: TensorType.INT32,
          shape: [c],
          data: new Uint8Array(Int32Array.from({ length: c }, () => Math.round((r() - 0.5) * 400)).buffer),
        }
      : { type: TensorType.FLOAT32, shape: [c], data: new Uint8Array(Float32Array.from({ length: c }, () => r() - 0.5).buffer) };
  const x = b.addTensor({ name: 'x', type: act, shape: [1, 12, 10, 8], shapeSignature: [-1, 12, 10, 8], ...q(3) });
  const y = b.addTensor({ name: 'y', type: act, shape: emptyOutputs ? [] : [1, 12, 10, 32], ...q(-2) });
  const z = b.addTensor({ name: 'z', type: act, shape: emptyOutputs ? [] : [1, 6, 5, 32], ...q(1) });
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    inputs: [x, b.addTensor({ name: 'w', ...weights([32, 3, 3, 8], 0) }), b.addTensor({ name: 'b1', ...biasOf(32) })],
    outputs: [y],
    options: { padding: Padding.SAME, strideH: 1, strideW: 1 },
  });
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [y, b.addTensor({ name: 'dw', ...weights([1, 3, 3, 32], 3) }), b.addTensor({ name: 'b2', ...biasOf(32) })],
    outputs: [z],
    options: { padding: Padding.SAME, strideH: 2, strideW: 2, depthMultiplier: 1 },
  });
  return b.setInputs([x]).setOutputs([y, z]).buildDef();
}

function run(def: ModelDef, withWasm: boolean, batch: number, input: Uint8Array) {
  const resolver = registerReferenceOps(new OpResolver());
  if (withWasm) resolver.registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(withWasm ? { arenaBacking: wasm().arenaBacking } : {}),
  });
  it_.resizeInputTensor(0, [batch, 12, 10, 8]);
  it_.allocateTensors();
  it_.input(0).bytes.set(input);
  it_.invoke();
  return {
    dims: [0, 1].map((i) => Array.from(it_.output(i).dims)),
    bytes: [0, 1].map((i) => Uint8Array.from(it_.output(i).bytes)),
    providers: it_.nodes().map((n) => n.provider),
  };
}

describe('ops-wasm convolutions after resizing a dynamic batch', () => {
  for (const kind of ['int8', 'float32', 'hybrid'] as const)
    for (const emptyOutputs of [false, true])
      it(`${kind}${emptyOutputs ? ', outputs stored without a shape' : ''}: batch 3 gives [3, 12, 10, 32] and [3, 6, 5, 32] on ops-wasm, equal to ops-reference`, () => {
        const def = model(kind, emptyOutputs);
        const elems = 3 * 12 * 10 * 8;
        const input =
          kind === 'int8'
            ? new Uint8Array(int8s(rng(9), elems).buffer)
            : new Uint8Array(Float32Array.from({ length: elems }, (_, i) => Math.sin(i) * 2).buffer);
        const got = run(def, true, 3, input);
        const ref = run(def, false, 3, input);
        expect(got.providers).toEqual([PROVIDER, PROVIDER]);
        expect(got.dims).toEqual([
          [3, 12, 10, 32],
          [3, 6, 5, 32],
        ]);
        expect(got.dims).toEqual(ref.dims);
        if (kind === 'float32') {
          const a = new Float32Array(got.bytes[1]!.buffer);
          const e = new Float32Array(ref.bytes[1]!.buffer);
          for (let i = 0; i < e.length; i++)
            expect(Math.abs(a[i]! - e[i]!), `element ${i}`).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(e[i]!));
        } else {
          expect(got.bytes).toEqual(ref.bytes);
        }
      });
});
