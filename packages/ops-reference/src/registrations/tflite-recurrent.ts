/**
 * TFLite's recurrent builtins that TFLM lacks (issue 20): RNN, UNIDIRECTIONAL_SEQUENCE_RNN,
 * BIDIRECTIONAL_SEQUENCE_RNN, the full LSTM kernel and BIDIRECTIONAL_SEQUENCE_LSTM, float32, each following TFLite's kernel
 * (basic_rnn.cc, unidirectional_sequence_rnn.cc, bidirectional_sequence_rnn.cc, lstm.cc + lstm_eval.cc, bidirectional_sequence_lstm.cc)
 * and checked against TFLite 2.9.
 */
import type { Registration } from '@micrort/core';
import { BIDIRECTIONAL_SEQUENCE_LSTM } from '../kernels/bidirectional-sequence-lstm.js';
import { BIDIRECTIONAL_SEQUENCE_RNN } from '../kernels/bidirectional-sequence-rnn.js';
import { LSTM } from '../kernels/lstm.js';
import { RNN } from '../kernels/rnn.js';
import { UNIDIRECTIONAL_SEQUENCE_RNN } from '../kernels/unidirectional-sequence-rnn.js';

/** Kernels of this group, in registration order. */
export const tfliteRecurrentKernels: Registration[] = [
  RNN,
  UNIDIRECTIONAL_SEQUENCE_RNN,
  BIDIRECTIONAL_SEQUENCE_RNN,
  LSTM,
  BIDIRECTIONAL_SEQUENCE_LSTM,
];
