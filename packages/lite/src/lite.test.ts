import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  InputError,
  MicroInterpreter,
  ModelBuilder,
  ModelError,
  OpResolver,
  TensorType,
  loadModel as loadModelDef,
  writeModel,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { GreedyPlanner } from '@micrort/planners';
import { FLOWER_LABELS, buildLabelledUint8Classifier } from '@micrort/test-support/tflite-metadata';
import { readZipDirectory } from '@micrort/metadata';
import { ModelFetchError, loadModel, resizePixels, type Pixels } from './index.js';

/** x float32[1,64] → +1 → +1 → +1 → y: the greedy planner puts the second sum where x was (x is dead by then). */
function addChain(): Uint8Array {
  const F = TensorType.FLOAT32;
  const b = new ModelBuilder({ description: 'x + 3 in three ADDs' });
  const x = b.addTensor({ name: 'x', type: F, shape: [1, 64] });
  const one = b.addTensor({ name: 'one', type: F, shape: [1], data: Float32Array.of(1) });
  const a = b.addTensor({ name: 'a', type: F, shape: [1, 64] });
  const c = b.addTensor({ name: 'c', type: F, shape: [1, 64] });
  const y = b.addTensor({ name: 'y', type: F, shape: [1, 64] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, one], outputs: [a] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [a, one], outputs: [c] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [c, one], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** The chain with a signature naming its input `features` and output `scores`. */
function addChainWithSignature(): Uint8Array {
  const def = loadModelDef(addChain());
  const sg = def.subgraphs[0]!;
  def.signatureDefs = [
    {
      signatureKey: 'serving_default',
      subgraphIndex: 0,
      inputs: [{ name: 'features', tensorIndex: sg.inputs[0]! }],
      outputs: [{ name: 'scores', tensorIndex: sg.outputs[0]! }],
    },
  ];
  return writeModel(def);
}

const ramp = Float32Array.from({ length: 64 }, (_, i) => i / 8 - 4);

/** A 16x16 RGBA picture. */
function picture(): Pixels {
  const data = new Uint8ClampedArray(16 * 16 * 4);
  for (let i = 0; i < 256; i++) data.set([(i * 7) % 256, (i * 3) % 256, 255 - i, 255], i * 4);
  return { width: 16, height: 16, data };
}

describe('@micrort/lite', () => {
  it('loads bytes, names inputs and outputs after the tensors, runs on a typed array', async () => {
    const model = await loadModel(addChain());
    expect(model.inputs.map((i) => [i.name, i.type, i.shape])).toEqual([['x', 'float32', [1, 64]]]);
    expect(model.outputs.map((o) => o.name)).toEqual(['y']);
    const out = model.run(ramp);
    expect(Array.from(out['y']!.data as Float32Array)).toEqual(Array.from(ramp, (v) => v + 3));
    expect(out['y']!.shape).toEqual([1, 64]);
    model.dispose();
  });

  it('inputs survive invoke(): a second run without inputs gives the same outputs (TFLM-style invoke() does not)', async () => {
    // The TFLM-style interpreter: the planner reuses x's bytes once x is consumed, as TFLM does.
    const it = new MicroInterpreter(loadModelDef(addChain()), registerReferenceOps(new OpResolver()), { planner: new GreedyPlanner() });
    it.allocateTensors();
    it.setInput(0, ramp);
    it.invoke();
    const first = Array.from(it.output(0).data as Float32Array);
    expect(Array.from(it.input(0).data as Float32Array)).not.toEqual(Array.from(ramp)); // overwritten
    it.invoke();
    expect(Array.from(it.output(0).data as Float32Array)).not.toEqual(first);

    const model = await loadModel(addChain());
    const a = Array.from(model.run(ramp)['y']!.data as Float32Array);
    const b = Array.from(model.run()['y']!.data as Float32Array);
    expect(b).toEqual(a);
    expect(a).toEqual(first);
    // the same memory as TFLM's plan: staging costs no arena
    expect(model.interpreter.arenaUsage().headBytes).toBe(it.arenaUsage().headBytes);

    // opting into TFLM's reuse: each run must be given its inputs
    const tflm = await loadModel(addChain(), { reuseInputMemory: true });
    expect(Array.from(tflm.run(ramp)['y']!.data as Float32Array)).toEqual(first);
    expect(Array.from(tflm.run()['y']!.data as Float32Array)).not.toEqual(first);
    model.dispose();
    tflm.dispose();
  });

  it("names inputs and outputs after the model's signature; inputs by name", async () => {
    const model = await loadModel(addChainWithSignature());
    expect(model.inputs[0]).toMatchObject({ name: 'features', tensorName: 'x' });
    expect(model.outputs[0]).toMatchObject({ name: 'scores', tensorName: 'y' });
    expect(Object.keys(model.run({ features: ramp }))).toEqual(['scores']);
    expect(Array.from(model.run({ x: ramp })['scores']!.data as Float32Array)[0]).toBe(-1);
    expect(() => model.run({ nope: ramp })).toThrow(/the model has no input "nope" \(its inputs: features\)/);
    await expect(loadModel(addChainWithSignature(), { signature: 'train' })).rejects.toThrow(
      /no signature "train" \(it has "serving_default"\)/,
    );
    model.dispose();
  });

  it('a uint8 classifier with metadata: an image resized and normalized, the top 5 named; same bytes as the interpreter', async () => {
    const bytes = buildLabelledUint8Classifier();
    const model = await loadModel(bytes);
    expect(model.kernels).toContain('ops-wasm'); // Node 20 has SIMD128: 'auto' picks ops-wasm…
    expect(model.servedBy()).toEqual([
      { package: 'ops-reference', nodes: 2 }, // RESHAPE and the 40-MAC FULLY_CONNECTED (under minMacs)…
      { package: 'ops-wasm', nodes: 6 }, // …the three uint8 CONV_2D, the DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and SOFTMAX: said so
    ]);
    expect(model.inputs[0]).toMatchObject({ name: 'image', type: 'uint8', image: { layout: 'nhwc', height: 16, width: 16, channels: 3 } });
    expect(model.inputs[0]!.normalization).toEqual({ mean: [127.5], std: [127.5] });
    expect(model.outputs[0]!.labels).toEqual(FLOWER_LABELS);
    expect(model.metadata?.metadata?.name).toBe('flower classifier (test)');

    // a 32x32 picture: resized to 16x16, (p − 127.5) / 127.5, quantized (scale 1/128, zero point 128)
    const big = new Uint8ClampedArray(32 * 32 * 4);
    for (let i = 0; i < 32 * 32; i++) big.set([(i * 5) % 256, (i * 11) % 256, i % 256, 255], i * 4);
    const top = model.classify({ width: 32, height: 32, data: big });
    expect(top).toHaveLength(5);
    expect(top.map((t) => t.label).sort()).toEqual([...FLOWER_LABELS].sort());
    expect(top[0]!.score).toBeGreaterThanOrEqual(top[1]!.score);

    const small = resizePixels({ width: 32, height: 32, data: big }, 16, 16);
    const expected = new Uint8Array(16 * 16 * 3);
    for (let p = 0; p < 256; p++)
      for (let c = 0; c < 3; c++) {
        const r = (small.data[p * 4 + c]! - 127.5) / 127.5 / (1 / 128);
        expected[p * 3 + c] = Math.max(0, Math.min(255, (r < 0 ? -Math.round(-r) : Math.round(r)) + 128));
      }
    const it = new MicroInterpreter(loadModelDef(bytes), registerReferenceOps(new OpResolver()), { planner: new GreedyPlanner() });
    it.allocateTensors();
    it.setInput(0, expected);
    it.invoke();
    const out = model.run({ width: 32, height: 32, data: big })['probabilities']!;
    expect(Array.from(out.data as Uint8Array)).toEqual(Array.from(it.output(0).data as Uint8Array));
    expect(Array.from(out.values())).toEqual(Array.from(it.output(0).data as Uint8Array, (q) => q / 256));
    expect(out.top(1)[0]!.label).toBe(top[0]!.label);
    model.dispose();
  });

  it('real values for a quantized input are quantized; a typed array of its type is copied; wrong inputs are InputErrors', async () => {
    const model = await loadModel(buildLabelledUint8Classifier(), { kernels: 'reference' });
    expect(model.kernels).not.toContain('ops-wasm');
    const raw = Uint8Array.from({ length: 768 }, (_, i) => i % 256);
    const real = Float32Array.from(raw, (q) => (q - 128) / 128);
    expect(Array.from(model.run(real)['probabilities']!.data as Uint8Array)).toEqual(
      Array.from(model.run(raw)['probabilities']!.data as Uint8Array),
    );
    expect(() => model.run(new Float32Array(5))).toThrow(InputError);
    expect(() => model.run(new Float32Array(5))).toThrow(/input 0 \(image, uint8\[1,16,16,3\]\) has 768 elements, got 5/);
    expect(() => model.run(new Int16Array(768))).toThrow(/takes a Uint8Array \(or real values as a Float32Array\), got a Int16Array/);
    expect(() => model.run({ width: 4, height: 4, data: new Uint8Array(3) })).toThrow(/needs 64 RGBA bytes, got 3/);
    model.dispose();
    const chain = await loadModel(addChain());
    expect(() => chain.run(picture())).toThrow(/is not an image/);
    chain.dispose();
  });

  it('a broken label file does not stop the model: its classes by index, metadataError says why', async () => {
    const bytes = buildLabelledUint8Classifier();
    const entry = readZipDirectory(bytes)!.find((e) => e.name === 'labels.txt')!;
    bytes[entry.dataOffset + 3] = bytes[entry.dataOffset + 3]! ^ 0x40;
    const model = await loadModel(bytes);
    expect(model.outputs[0]!.labels).toBeNull();
    expect(model.metadataError).toMatch(/^MetadataError: .*\(labels\.txt\)$/);
    expect(model.classify(new Uint8Array(768))[0]!.label).toBeUndefined();
    model.dispose();
  });

  it('loads from a URL; a failed fetch and a bad file are typed errors', async () => {
    const bytes = buildLabelledUint8Classifier();
    const server = createServer((req, res) => {
      if (req.url === '/flowers.tflite') res.end(Buffer.from(bytes));
      else if (req.url === '/broken.tflite') res.end(Buffer.from(bytes.subarray(0, 40)));
      else {
        res.statusCode = 404;
        res.end('not found');
      }
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const model = await loadModel(`${base}/flowers.tflite`);
      expect(model.outputs[0]!.labels).toEqual(FLOWER_LABELS);
      model.dispose();
      await expect(loadModel(new URL('/missing.tflite', base))).rejects.toThrow(ModelFetchError);
      await expect(loadModel(`${base}/missing.tflite`)).rejects.toThrow(/could not fetch the model from .*missing\.tflite: HTTP 404/);
      await expect(loadModel(`${base}/broken.tflite`)).rejects.toThrow(ModelError);
    } finally {
      server.close();
    }
  });

  it('resizes with half-pixel centres: halving averages each 2x2 block', () => {
    const src = { width: 4, height: 2, data: Uint8ClampedArray.from({ length: 32 }, (_, i) => (i % 4 === 3 ? 255 : i * 8)) };
    const half = resizePixels(src, 2, 1);
    const avg = (x: number, c: number) =>
      Math.round(
        (src.data[x * 2 * 4 + c]! + src.data[(x * 2 + 1) * 4 + c]! + src.data[(4 + x * 2) * 4 + c]! + src.data[(4 + x * 2 + 1) * 4 + c]!) /
          4,
      );
    expect(Array.from(half.data)).toEqual([avg(0, 0), avg(0, 1), avg(0, 2), 255, avg(1, 0), avg(1, 1), avg(1, 2), 255]);
    expect(resizePixels(src, 4, 2)).toBe(src);
  });
});
