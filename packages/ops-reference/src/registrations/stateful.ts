import type { Registration } from '@micrort/core';
import { SVDF } from '../kernels/svdf.js';
import { UNIDIRECTIONAL_SEQUENCE_LSTM } from '../kernels/unidirectional-sequence-lstm.js';

/** Kernels of this group, in registration order. */
export const statefulKernels: Registration[] = [SVDF as Registration, UNIDIRECTIONAL_SEQUENCE_LSTM as Registration];
