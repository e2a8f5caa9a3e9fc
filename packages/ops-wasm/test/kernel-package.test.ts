import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType, composeRuntime, composeRuntimeAsync, loadModel, withOptions } from '@micrort/core';
import { referencePackage } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';
import { PROVIDER, WasmUnsupportedError, isWasmArena, wasmPackage } from '../src/index.js';

function model() {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 8] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 8] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, x], outputs: [y] });
  return loadModel(b.setInputs([x]).setOutputs([y]).build());
}

describe('wasmPackage', () => {
  it.each([
    ['composeRuntime (sync compile)', async () => composeRuntime([referencePackage, wasmPackage])],
    ['composeRuntimeAsync', () => composeRuntimeAsync([referencePackage, wasmPackage])],
  ])('%s: its kernels in front, the arena in WebAssembly memory', async (_, compose) => {
    const rt = await compose();
    expect(rt.packages.map((p) => [p.name, p.join])).toEqual([
      ['ops-reference', 'register'],
      ['ops-wasm', 'fallback'],
    ]);
    expect(rt.interpreterOptions.arenaBacking).toBeDefined();
    const it = rt.createInterpreter(model(), { planner: new GreedyPlanner() }).allocateTensors();
    expect(isWasmArena(it.input(0).bytes.buffer)).toBe(true);
    it.setInput(0, Float32Array.of(1, 2, 3, 4, 5, 6, 7, 8));
    it.invoke();
    expect(it.nodes()[0]!.provider).toBe(PROVIDER);
    expect(Array.from(it.output(0).data as Float32Array)).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
    it.dispose();
  });

  it('without SIMD128 both creations throw WasmUnsupportedError', async () => {
    const refuse = withOptions(wasmPackage, { validate: () => false });
    expect(() => composeRuntime([referencePackage, refuse])).toThrow(WasmUnsupportedError);
    await expect(composeRuntimeAsync([referencePackage, refuse])).rejects.toBeInstanceOf(WasmUnsupportedError);
  });
});
