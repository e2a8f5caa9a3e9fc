/**
 * EXP (tflite-micro kernels/exp.cc; reference_ops::Exp; TFLite's exp.cc): float32 y = expf(x), here exp
 * in double rounded to float32; int8 and int16 (TFLite after 2.9, LiteRT; TFLM refuses them) through TFLite's lookup
 * tables of expf (lut-unary-common.ts). Identical shapes.
 */
import { BuiltinOperator, expF32 } from '@micrort/core';
import { lutUnaryKernel } from './lut-unary-common.js';

function run(x: Float32Array, y: Float32Array, count: number): void {
  for (let i = 0; i < count; i++) y[i] = expF32(x[i]!);
}

/** EXP reference kernel: float32, int8, int16 (zero points 0). */
export const EXP = lutUnaryKernel({
  name: 'EXP',
  builtinCode: BuiltinOperator.EXP,
  version: 2,
  sameShape: true,
  runFloat: run,
  transform: () => expF32,
});
