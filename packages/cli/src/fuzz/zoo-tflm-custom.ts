/**
 * Seeds for TFLM's custom ops beyond the audio front end: the signal library's back end (SignalFramer,
 * SignalOverlapAdd, SignalDelay, SignalStacker, SignalRfft/SignalIrfft int32, SignalIrfft int16 and
 * float32, from @micrort/ops-signal) and TFLM's kernel-directory ops CIRCULAR_BUFFER and TFLM_DECODE
 * (LUT, prune and Huffman, from @micrort/ops-reference). Options are FlexBuffers maps as TFLM's Python
 * ops write them; CIRCULAR_BUFFER runs every invoke (cycles_max 1), so a seed's invoke completes.
 */
import { TensorType } from '@micrort/core';
import { encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { Zoo, lcg } from './zoo-common.js';

/** The signal library's stateful back end and inverse FFTs. */
export function signalBackEndNet(): Uint8Array {
  const z = new Zoo('signal library back end (framer, overlap-add, delay, stacker, irfft)');
  const i16 = (name: string, shape: number[]) => z.t({ name, type: TensorType.INT16, shape });
  const audio = i16('audio', [2, 32]);
  const frames = i16('frames', [2, 4, 16]);
  const framesValid = z.bool('frames/valid', []);
  z.custom('SignalFramer', [audio], [frames, framesValid], flexEncode({ frame_size: 16, frame_step: 8, prefill: true }));
  const rebuilt = i16('overlap_add', [2, 32]);
  z.custom('SignalOverlapAdd', [frames], [rebuilt], flexEncode({ T: TensorType.INT16, frame_step: 8 }));
  const delayed = i16('delay', [2, 32]);
  z.custom('SignalDelay', [rebuilt], [delayed], flexEncode({ delay_length: 5 }));
  const features = i16('features', [6]);
  const stacked = i16('stacked', [18]);
  const stackedValid = z.bool('stacked/valid', []);
  z.custom(
    'SignalStacker',
    [features],
    [stacked, stackedValid],
    flexEncode({ num_channels: 6, stacker_left_context: 1, stacker_right_context: 1, stacker_step: 1 }),
  );
  const spectrum16 = i16('spectrum16', [2, 34]);
  const time16 = i16('irfft16', [2, 32]);
  z.custom('SignalIrfft', [spectrum16], [time16], flexEncode({ T: TensorType.INT16, fft_length: 32 }));
  const wave32 = z.t({ name: 'wave32', type: TensorType.INT32, shape: [24] });
  const spec32 = z.t({ name: 'rfft32', type: TensorType.INT32, shape: [26] });
  const back32 = z.t({ name: 'irfft32', type: TensorType.INT32, shape: [24] });
  z.custom('SignalRfft', [wave32], [spec32], flexEncode({ T: TensorType.INT32, fft_length: 24 }));
  z.custom('SignalIrfft', [spec32], [back32], flexEncode({ T: TensorType.INT32, fft_length: 24 }));
  const specF = z.f32('spectrumF', [22]);
  const timeF = z.f32('irfftF', [20]);
  z.custom('SignalIrfft', [specF], [timeF], flexEncode({ T: TensorType.FLOAT32, fft_length: 20 }));
  return z.build([audio, features, spectrum16, wave32, specF], [delayed, framesValid, stacked, stackedValid, time16, back32, timeF]);
}

/** CIRCULAR_BUFFER and TFLM_DECODE (LUT int8, per-channel prune int8, Huffman int16). */
export function tflmCustomNet(): Uint8Array {
  const z = new Zoo('TFLM custom ops: CIRCULAR_BUFFER, TFLM_DECODE');
  const x = z.i8('x', [1, 1, 1, 4], 0.05, 2);
  const history = z.i8('history', [1, 3, 1, 4], 0.05, 2);
  z.custom('CIRCULAR_BUFFER', [x], [history], flexEncode({ cycles_max: 1 }));
  const u8 = (name: string, bytes: number[]) => z.t({ name, type: TensorType.UINT8, shape: [bytes.length], data: Uint8Array.from(bytes) });
  const dcm = (type: number, ...rest: number[]) => [type, 1, 0, 0, ...rest, ...new Array<number>(12 - rest.length).fill(0)];
  const lutOut = z.i8('decoded/lut', [4, 4], 0.1, 0);
  const lut = [u8('lut/encoded', lcg(6, 31, 0, 255)), u8('lut/ancillary', [...dcm(0, 1, 3, 8), ...lcg(8, 32, 0, 255)])];
  const pruneOut = z.t({
    name: 'decoded/prune',
    type: TensorType.INT8,
    shape: [2, 8],
    quantization: { scale: [0.1, 0.2], zeroPoint: [-3, 4], quantizedDimension: 0 },
  });
  const prune = [u8('prune/encoded', [0b10110010, 0b01101111]), u8('prune/ancillary', [...dcm(2, 1), ...lcg(10, 33, 0, 255)])];
  // Huffman: 8 symbols of 3 bits each (a one-level table of 8 32-bit entries, "symbol found", count 3)
  const huffOut = z.t({ name: 'decoded/huffman', type: TensorType.INT16, shape: [8] });
  const entries = Array.from({ length: 8 }, (_, s) => (0x80000000 | (3 << 27) | ((1000 * s - 3000) & 0xffff)) >>> 0);
  const huffTable = entries.flatMap((e) => [e & 0xff, (e >>> 8) & 0xff, (e >>> 16) & 0xff, e >>> 24]);
  const huffman = [
    u8('huffman/encoded', [0b00010100, 0b11100101, 0b11011100, 0, 0, 0, 0, 0]),
    u8('huffman/ancillary', [...dcm(1, 1, (2 << 4) | 1), ...huffTable]),
  ];
  z.custom('TFLM_DECODE', [...lut, ...prune, ...huffman], [lutOut, pruneOut, huffOut]);
  return z.build([x], [history, lutOut, pruneOut, huffOut]);
}
