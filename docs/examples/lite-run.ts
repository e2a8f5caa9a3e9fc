// The high-level API: load a model, run it on a typed array and on an image, read named outputs with
// their labels. The same model run TFLM-style shows why @micrort/lite keeps its own copy of the inputs.
import { BuiltinOperator, MicroInterpreter, ModelBuilder, TensorType, composeRuntime, loadModel as loadModelDef } from '@micrort/core';
import { loadModel } from '@micrort/lite';
import { referencePackage } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';

/** y = x + 3 in three ADDs (any .tflite file works the same way: loadModel(url) or loadModel(bytes)). */
function addThree(): Uint8Array {
  const b = new ModelBuilder();
  const f = (name: string, data?: Float32Array) =>
    b.addTensor({ name, type: TensorType.FLOAT32, shape: data ? [1] : [1, 4], ...(data ? { data } : {}) });
  const [x, one, a, c, y] = [f('x'), f('one', Float32Array.of(1)), f('a'), f('c'), f('y')] as const;
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, one], outputs: [a] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [a, one], outputs: [c] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [c, one], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

export async function main(): Promise<{ lite: number[][]; tflm: number[][]; kernels: string[] }> {
  const bytes = addThree();

  // @micrort/lite: ops-wasm in front of ops-reference where WebAssembly SIMD128 runs (kernels: 'auto').
  const model = await loadModel(bytes);
  const first = model.run(Float32Array.of(1, 2, 3, 4)); // one input: one value; else a list, or an object by name
  const again = model.run(); // no inputs: the last ones again (they survive invoke)
  // outputs by name (the signature's, else the tensor's); .data is a copy, .values() dequantized, .top(k) labelled
  const lite = [Array.from(first['y']!.data as Float32Array), Array.from(again['y']!.values())]; // [[4, 5, 6, 7], [4, 5, 6, 7]]
  const kernels = model.kernels; // ['ops-reference', 'ops-signal', 'ops-mediapipe', 'ops-wasm']
  model.dispose();

  // TFLM-style: the planner reuses the input's bytes once ADD #0 has read them (as TFLM does), so a second
  // invoke() without setInput() reads what ADD #1 wrote there.
  const runtime = composeRuntime([referencePackage]);
  const it = new MicroInterpreter(loadModelDef(bytes), runtime.resolver, { planner: new GreedyPlanner(), arena: 'auto' });
  it.allocateTensors();
  it.setInput(0, Float32Array.of(1, 2, 3, 4));
  it.invoke();
  const once = Array.from(it.output(0).data as Float32Array); // [4, 5, 6, 7]
  it.invoke();
  const twice = Array.from(it.output(0).data as Float32Array); // [6, 7, 8, 9]: the input held x + 2 by then
  return { lite, tflm: [once, twice], kernels };
}
