/**
 * SUB, int8 and TFLite's uint8, in WebAssembly: ADD's kernel (add.ts, assembly/int8/add.ts) with TFLM's
 * SUB op data (kernel-support's calculateOpDataSub: the multipliers computed in float as TFLM's, in double
 * for TFLite's uint8) and the second input's rounded part subtracted: the verified affine rounding with a
 * negative second coefficient, or the three roundings with a subtraction.
 */
import type { Registration } from '@micrort/core';
import { DEFAULT_KERNEL_OPTIONS, type KernelOptions } from '../options.js';
import { addSubRegistration } from './add.js';

/** The SUB registration. */
export function createSub(options: Readonly<KernelOptions> = DEFAULT_KERNEL_OPTIONS): Registration {
  return addSubRegistration(options, true) as Registration;
}
