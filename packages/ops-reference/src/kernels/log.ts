/**
 * LOG (tflite-micro kernels/elementwise.cc: LogEval; TFLite's elementwise.cc): float32 y = logf(x), here
 * log in double rounded to float32 (log of 0 is -inf, of a negative number NaN, as logf); int8 and int16
 * (TFLite after 2.9, LiteRT; TFLM refuses them) through TFLite's lookup tables (lut-unary-common.ts) of
 * LogLUTPrepare's function: logf(x) for x > 0, and for x <= 0 the output type's lowest value
 * (type minimum − output zero point) × output scale, in float32.
 */
import { BuiltinOperator, type Tensor } from '@micrort/core';
import { logLutTransform } from '@micrort/kernel-support';
import { lutUnaryKernel } from './lut-unary-common.js';

function run(x: Float32Array, y: Float32Array, count: number): void {
  for (let i = 0; i < count; i++) y[i] = Math.log(x[i]!);
}

/** LogLUTPrepare's transform for `output` (kernel-support's logLutTransform). */
function logTransform(output: Tensor): (x: number) => number {
  return logLutTransform(output.type, output.params.scale, output.params.zeroPoint);
}

/** LOG reference kernel: float32, int8, int16 (zero points 0). */
export const LOG = lutUnaryKernel({ name: 'LOG', builtinCode: BuiltinOperator.LOG, version: 2, runFloat: run, transform: logTransform });
