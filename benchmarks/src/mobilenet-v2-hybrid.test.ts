import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, OpResolver, TensorType, loadModel, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { loadWasmKernelsSync } from '@micrort/ops-wasm';
import { createPlanner } from '@micrort/planners';
import { buildMobileNetV2Hybrid } from './mobilenet-v2-hybrid.js';

/** Every node's output bytes (the linear plan keeps them all) and the nodes ops-wasm ran. */
function run(model: ModelDef, wasm: boolean): { outputs: Uint8Array[]; served: string[] } {
  const w = wasm ? loadWasmKernelsSync({ threads: 1 }) : null;
  const resolver = registerReferenceOps(new OpResolver());
  if (w) resolver.registerAll(w.kernels, { fallback: true });
  const interp = new MicroInterpreter(model, resolver, {
    planner: createPlanner('linear'),
    ...(w ? { arenaBacking: w.arenaBacking } : {}),
  }).allocateTensors();
  const x = interp.input(0).data as Float32Array;
  for (let i = 0; i < x.length; i++) x[i] = ((i * 2654435761) >>> 24) / 128 - 1;
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

describe('the hybrid MobileNetV2-shaped model (float32 activations x int8 weights)', () => {
  it('has int8 weights in every CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, per channel in the convolutions', () => {
    const def = loadModel(buildMobileNetV2Hybrid({ size: 64, classes: 10 }));
    const sg = def.subgraphs[0]!;
    const counts = new Map<number, number>();
    for (const op of sg.operators) {
      const code = def.operatorCodes[op.opcodeIndex]!.builtinCode;
      if (code !== BuiltinOperator.CONV_2D && code !== BuiltinOperator.DEPTHWISE_CONV_2D && code !== BuiltinOperator.FULLY_CONNECTED)
        continue;
      const w = sg.tensors[op.inputs[1]!]!;
      expect(sg.tensors[op.inputs[0]!]!.type).toBe(TensorType.FLOAT32);
      expect(w.type).toBe(TensorType.INT8);
      const q = w.quantization!;
      // per output channel in the convolutions (dimension 0, or 3 for the depthwise filter), one scale in the classifier
      if (code === BuiltinOperator.FULLY_CONNECTED) expect(q.scale.length).toBe(1);
      else expect(q.scale.length).toBe(w.shape[q.quantizedDimension]);
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    const hybrid = [...counts.values()].reduce((a, b) => a + b, 0);
    expect(hybrid).toBe(35 + 17 + 1);
  });

  it('runs on ops-wasm (every CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED) with every intermediate equal to ops-reference, bit for bit', () => {
    // a small input keeps the test fast; the layer structure is the same at 224
    const model = loadModel(buildMobileNetV2Hybrid({ size: 64, classes: 10 }));
    const ref = run(model, false);
    const got = run(model, true);
    expect(got.served.filter((op) => op === 'CONV_2D')).toHaveLength(35);
    expect(got.served.filter((op) => op === 'DEPTHWISE_CONV_2D')).toHaveLength(17);
    expect(got.served.filter((op) => op === 'FULLY_CONNECTED')).toHaveLength(1);
    got.outputs.forEach((o, i) => expect(o, `node ${i}`).toEqual(ref.outputs[i]));
    // seeded weights: the activations are not degenerate (neither all clamped nor constant)
    expect(new Set(new Float32Array(ref.outputs[20]!.buffer)).size).toBeGreaterThan(100);
    expect(new Set(new Float32Array(ref.outputs[ref.outputs.length - 1]!.buffer)).size).toBeGreaterThan(1);
  });
});
