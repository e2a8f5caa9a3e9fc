/**
 * The TFLite oracle (packages/test-support/src/tflite-oracle.ts) itself: it runs real and built models, agrees with
 * TFLM's recorded float outputs and with ops-reference, checks input sizes, and names TFLite's refusal.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType } from '@micrort/core';
import { compareBytes, hasConformance, modelDir, readBytes, readManifest, SKIP_REASON } from '@micrort/test-support/conformance';
import { compareWithTflite, ORACLE_SKIP_REASON, oracleAvailable, runTflite, TfliteOracle } from '@micrort/test-support/tflite-oracle';
import { join } from 'node:path';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

function floatModel(): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [2, 3] });
  const w = b.addTensor({
    name: 'w',
    type: TensorType.FLOAT32,
    shape: [4, 3],
    data: new Float32Array([0.5, -1, 2, 0.25, 0.75, -0.5, 1.5, 0, -2, -0.125, 1, 1]),
  });
  const bias = b.addTensor({ name: 'b', type: TensorType.FLOAT32, shape: [4], data: new Float32Array([0.1, -0.2, 0.3, 0]) });
  const h = b.addTensor({ name: 'h', type: TensorType.FLOAT32, shape: [2, 4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [2, 4] });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [x, w, bias], outputs: [h] });
  b.addOperator({ op: BuiltinOperator.RELU, inputs: [h], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

describe.skipIf(!oracleAvailable)('TFLite oracle', () => {
  it('runs a built float model and agrees with ops-reference', () => {
    const bytes = floatModel();
    const input = new Float32Array([1, 2, 3, -1, 0.5, -0.25]);
    const res = runTflite(bytes, [new Uint8Array(input.buffer)]);
    expect(res.inputs).toEqual([{ index: 0, name: 'x', dtype: 'float32', shape: [2, 3], byteLength: 24 }]);
    expect(res.outputs.map((o) => [o.dtype, o.shape])).toEqual([['float32', [2, 4]]]);
    const cmp = compareWithTflite(bytes, [new Uint8Array(input.buffer)]);
    expect(cmp.pass).toBe(true);
    expect(cmp.expected).toEqual(res.outputBytes);
    // a value the relu keeps and one it clamps, so the comparison is not of zeros
    const out = new Float32Array(res.outputBytes[0]!.slice().buffer);
    expect(out[0]).toBeCloseTo(0.5 - 2 + 6 + 0.1, 5);
    expect(out[2]).toBe(0);
  });

  it('reuses one interpreter for several input sets and checks input sizes', () => {
    const oracle = new TfliteOracle(floatModel());
    const a = oracle.run([new Uint8Array(new Float32Array([1, 0, 0, 0, 1, 0]).buffer)]);
    const b = oracle.run([new Uint8Array(new Float32Array([0, 0, 1, 0, 0, 0]).buffer)]);
    expect(new Float32Array(a[0]!.buffer)[0]).toBeCloseTo(0.6, 6);
    expect(new Float32Array(b[0]!.buffer)[0]).toBeCloseTo(2.1, 6);
    expect(() => oracle.run([new Uint8Array(8)])).toThrow(/input 0 \(x, float32 \[2,3\]\) takes 24 bytes, got 8/);
    expect(() => oracle.run([])).toThrow(/model has 1 inputs, got 0/);
  });

  it('reports what TFLite refuses', () => {
    expect(() => new TfliteOracle(new Uint8Array(64))).toThrow(/Failed to create tflite model/);
  });

  it.skipIf(!hasConformance)('agrees with TFLM on hello_world_float (every case)', () => {
    const name = 'hello_world_float';
    const bytes = readBytes(join(modelDir(name), 'model.tflite'));
    const oracle = new TfliteOracle(bytes);
    readManifest(name).cases.forEach((c, k) => {
      const inputs = c.inputs.map((s) => readBytes(join(modelDir(name), `case${k}`, s.file)));
      const outs = oracle.run(inputs);
      c.outputs.forEach((s, j) => {
        const expected = readBytes(join(modelDir(name), `case${k}`, s.file));
        expect(compareBytes(s.dtype, outs[j]!, expected, j).pass).toBe(true);
      });
    });
  });
  if (!hasConformance) it.skip(SKIP_REASON, () => {});
});
