/**
 * TFLite's recurrent builtins that TFLM lacks (issue 20): RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
 * BIDIRECTIONAL_SEQUENCE_RNN and the full LSTM kernel, float32, each following TFLite's kernel
 * (basic_rnn.cc, unidirectional_sequence_rnn.cc, bidirectional_sequence_rnn.cc, lstm.cc + lstm_eval.cc)
 * and checked against TFLite 2.9.
 */
import type { Registration } from '@micrort/core';
import { BIDIRECTIONAL_SEQUENCE_RNN } from '../kernels/bidirectional-sequence-rnn.js';
import { LSTM } from '../kernels/lstm.js';
import { RNN } from '../kernels/rnn.js';
import { UNIDIRECTIONAL_SEQUENCE_RNN } from '../kernels/unidirectional-sequence-rnn.js';

/** Kernels of this group, in registration order. */
export const tfliteRecurrentKernels: Registration[] = [RNN, UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN, LSTM];
