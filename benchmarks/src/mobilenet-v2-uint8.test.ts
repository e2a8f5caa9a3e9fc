import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, loadModel, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { loadWasmKernelsSync } from '@micrort/ops-wasm';
import { createPlanner } from '@micrort/planners';
import { buildMobileNetV2Uint8 } from './mobilenet-v2-uint8.js';

/** Every node's output bytes (the linear plan keeps them all) and the nodes ops-wasm ran. */
function run(model: ModelDef, wasm: boolean): { outputs: Uint8Array[]; served: string[] } {
  const w = wasm ? loadWasmKernelsSync({ threads: 1 }) : null;
  const resolver = registerReferenceOps(new OpResolver());
  if (w) resolver.registerAll(w.kernels, { fallback: true });
  const interp = new MicroInterpreter(model, resolver, {
    planner: createPlanner('linear'),
    ...(w ? { arenaBacking: w.arenaBacking } : {}),
  }).allocateTensors();
  const x = interp.input(0).bytes;
  for (let i = 0; i < x.length; i++) x[i] = (i * 2654435761) >>> 24;
  interp.invoke();
  const outputs = interp.nodes().map((n) => interp.tensor(n.outputs[0]!).bytes.slice());
  return {
    outputs,
    served: interp
      .nodes()
      .filter((n) => n.provider === '@micrort/ops-wasm')
      .map((n) => n.op),
  };
}

describe('the uint8 MobileNetV2-shaped model', () => {
  it('runs on ops-wasm (every CONV_2D, DEPTHWISE_CONV_2D, ADD, the AVERAGE_POOL_2D and the SOFTMAX) with every intermediate equal to ops-reference, byte for byte', () => {
    // a small input keeps the test fast; the layer structure is the same at 224
    const model = loadModel(buildMobileNetV2Uint8({ size: 64, classes: 10 }));
    const ref = run(model, false);
    const got = run(model, true);
    expect(got.served.filter((op) => op === 'CONV_2D')).toHaveLength(35);
    expect(got.served.filter((op) => op === 'DEPTHWISE_CONV_2D')).toHaveLength(17);
    expect(got.served.filter((op) => op === 'ADD')).toHaveLength(10);
    expect(got.served.filter((op) => op === 'AVERAGE_POOL_2D' || op === 'SOFTMAX')).toHaveLength(2);
    got.outputs.forEach((o, i) => expect(o, `node ${i}`).toEqual(ref.outputs[i]));
    // seeded weights: the activations are not degenerate (neither all clamped nor constant)
    expect(new Set(ref.outputs[20]!).size).toBeGreaterThan(8);
    expect(new Set(ref.outputs[ref.outputs.length - 1]!).size).toBeGreaterThan(1);
  });
});
