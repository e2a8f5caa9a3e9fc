import type { Registration } from '@micrort/core';
import { CIRCULAR_BUFFER } from '../kernels/circular-buffer.js';
import { TFLM_DECODE } from '../kernels/decode.js';

/** TFLM's kernel-directory custom ops (CIRCULAR_BUFFER, TFLM_DECODE), in registration order. */
export const tflmCustomKernels: Registration[] = [CIRCULAR_BUFFER as Registration, TFLM_DECODE as Registration];
