/**
 * QUANTIZE float32 → int4 (TFLite after 2.9, AffineQuantizeToInt4) in a model: the output tensor holds
 * the packed nibbles (two per byte, low nibble first), and a DEQUANTIZE behind it reads them back.
 * benchmarks' tflite-types.litert.test.ts compares the op with LiteRT.js.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, TensorType, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from '@micrort/test-support/conformance';

function model(withDequantize: boolean): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [5] });
  const q = b.addTensor({ name: 'q', type: TensorType.INT4, shape: [5], quantization: { scale: 0.5, zeroPoint: 1 } });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [x], outputs: [q] });
  let out = q;
  if (withDequantize) {
    out = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [5] });
    b.addOperator({ op: BuiltinOperator.DEQUANTIZE, inputs: [q], outputs: [out] });
  }
  return b.setInputs([x]).setOutputs([out]).build();
}

function run(bytes: Uint8Array): Uint8Array {
  const interp = new MicroInterpreter(loadModel(bytes), referenceResolver(), { planner: createPlanner('greedy') }).allocateTensors();
  interp.setInput(0, new Uint8Array(Float32Array.from([-1, 0.5, 0.74, 100, -100]).buffer));
  interp.invoke();
  const out = interp.output(0).bytes.slice();
  interp.dispose();
  return out;
}

describe('QUANTIZE float32 → int4', () => {
  it('rounds, clamps to [-8, 7] and packs two per byte, low nibble first', () => {
    // q = round(x / 0.5) + 1: -1, 2, 2 (1.48 → 1), 7 (101 clamped), -8 (-199 clamped).
    expect(Array.from(run(model(false)))).toEqual([0x2f, 0x72, 0x08]);
  });

  it('DEQUANTIZE reads the packed values back: 0.5 × (q − 1)', () => {
    expect(Array.from(new Float32Array(run(model(true)).buffer))).toEqual([-1, 0.5, 0.5, 3, -4.5]);
  });
});
