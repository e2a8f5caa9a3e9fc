/**
 * RFFT2D and COMPLEX_ABS against TensorFlow Lite itself (the TFLite oracle, packages/test-support/src/tflite-oracle.ts):
 * TFLite's kernels are the spec for these ops TFLM lacks. The oracle cannot return complex64 tensors, so
 * the model splits the spectrum with REAL and IMAG (TFLite builtins, ops-reference's REAL and IMAG on
 * micrort's side) and also outputs COMPLEX_ABS of it.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, OpResolver, TensorType } from '@micrort/core';
import { compareWithTflite, ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { registerReferenceOps } from '../src/index.js';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const resolver = () => registerReferenceOps(new OpResolver());

function spectrumModel(shape: number[], fft: [number, number]): Uint8Array {
  const b = new ModelBuilder();
  const F = TensorType.FLOAT32;
  const outShape = [...shape.slice(0, -2), fft[0], (fft[1] >> 1) + 1];
  const x = b.addTensor({ name: 'x', type: F, shape });
  const len = b.addTensor({ name: 'fft_length', type: TensorType.INT32, shape: [2], data: Int32Array.from(fft) });
  const z = b.addTensor({ name: 'spectrum', type: TensorType.COMPLEX64, shape: outShape });
  const re = b.addTensor({ name: 're', type: F, shape: outShape });
  const im = b.addTensor({ name: 'im', type: F, shape: outShape });
  const mag = b.addTensor({ name: 'magnitude', type: F, shape: outShape });
  b.addOperator({ op: BuiltinOperator.RFFT2D, inputs: [x, len], outputs: [z] });
  b.addOperator({ op: BuiltinOperator.REAL, inputs: [z], outputs: [re] });
  b.addOperator({ op: BuiltinOperator.IMAG, inputs: [z], outputs: [im] });
  b.addOperator({ op: BuiltinOperator.COMPLEX_ABS, inputs: [z], outputs: [mag] });
  return b.setInputs([x]).setOutputs([re, im, mag]).build();
}

describe.skipIf(!oracleAvailable)('RFFT2D, COMPLEX_ABS vs TFLite', () => {
  const cases: { shape: number[]; fft: [number, number] }[] = [
    { shape: [4, 4], fft: [4, 4] },
    { shape: [2, 6, 12], fft: [8, 16] }, // zero-padded
    { shape: [1, 3, 40, 20], fft: [32, 8] }, // rows and columns cropped
    { shape: [10, 3], fft: [8, 8] }, // rows cropped, columns zero-padded
    { shape: [64, 64], fft: [64, 64] },
    { shape: [5, 2, 128], fft: [2, 128] },
    { shape: [3, 1, 400], fft: [1, 512] }, // YAMNet's 1-D RFFT of each frame: height 1
    { shape: [6, 16], fft: [1, 16] }, // height 1, rows cropped
    { shape: [2, 1, 2], fft: [1, 2] }, // the smallest: height 1, width 2
  ];
  for (const c of cases) {
    it(`input [${c.shape.join(', ')}], fft_length [${c.fft.join(', ')}]`, () => {
      let seed = c.shape.reduce((a, b) => a * 31 + b, 7);
      const n = c.shape.reduce((a, b) => a * b, 1);
      const x = Float32Array.from({ length: n }, () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 20 - 10);
      const cmp = compareWithTflite(spectrumModel(c.shape, c.fft), [new Uint8Array(x.buffer)], resolver);
      for (const o of cmp.outputs) expect(o.pass, JSON.stringify(o)).toBe(true);
      // not a comparison of zeros
      expect(new Float32Array(cmp.expected[2]!.slice().buffer).some((v) => v > 1)).toBe(true);
    });
  }
});
