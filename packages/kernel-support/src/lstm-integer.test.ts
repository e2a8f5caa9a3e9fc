/**
 * The integer-LSTM arithmetic against TFLite's own unit tests (kernels/internal/tensor_utils_test.cc:
 * QuantTanh4Test, QuantSigmoidTest, QuantMul16bitOut15ShiftTest, QuantMul16bitOut19ShiftTest,
 * QuantMul8bitArbitrarySclaeTest, QuantAddTest), plus gemmlowp's int16 logistic and tanh over every
 * int16 input: symmetric, and within 12 LSBs of the real functions for 0..6 integer bits.
 */
import { describe, expect, it } from 'vitest';
import { cwiseAddInt16, cwiseMulShiftInt16, cwiseMulToInt8, gemmlowpLogisticInt16, gemmlowpTanhInt16 } from './lstm-integer.js';

const MUL_IN1 = [
  2491, 32767, -32768, 32767, -32768, 32767, 32767, -32768, -32768, 2157, 4545, 14835, 1285, 29498, 26788, 2907, 7877, 6331, 8775, 3001,
  1399, 4683, 1437, 1853, 12163, 4927, 7977, 3001, 16612, 4791,
];
const MUL_IN2 = [
  -1156, 32767, -32768, -32768, 32767, 2308, 64, 220, -288, -10132, -964, 1016, -120, 844, 2944, -4640, -2392, 736, -4352, 4352, 5180, -232,
  -428, 8276, -412, -1308, -1196, -5044, 1612, -10044,
];

describe('gemmlowp int16 logistic and tanh (tensor_utils ApplySigmoid / ApplyTanh)', () => {
  it('ApplyTanh(4, ..): TFLite QuantTanh4Test', () => {
    const input = [
      -5, 163, -31, -5, 54, 90, 1, 2, -4, -42, -8, 29, 0, 47, 150, -26, -36, 9, -73, 25, 14, -2, -1, 29, -10, -12, -18, -29, 51, -92,
    ];
    const expected = [
      -76, 2596, -496, -76, 856, 1436, 24, 36, -64, -672, -120, 456, 0, 752, 2400, -412, -576, 148, -1168, 400, 216, -36, -24, 456, -164,
      -192, -292, -456, 820, -1476,
    ];
    expect(input.map((x) => gemmlowpTanhInt16(x, 4))).toEqual(expected);
  });

  it('ApplySigmoid: TFLite QuantSigmoidTest', () => {
    const input = [
      -10500, 1398, -6963, -7404, 485, -5401, -1757, -7668, -19248, -9692, -24249, -17923, -15840, -10026, 5249, -89, 1787, -16178, -6691,
      -19524, -13439, -24048, -1123, 32767, -17267, -3378, 823, 11482, -11139, 7508,
    ];
    const expected = [
      2339, 19152, 5063, 4617, 17350, 6917, 12921, 4371, 299, 2813, 89, 409, 673, 2605, 25646, 16207, 19904, 615, 5353, 273, 1187, 91,
      14153, 32756, 475, 9983, 18026, 30898, 2023, 28246,
    ];
    expect(input.map((x) => gemmlowpLogisticInt16(x, 3))).toEqual(expected);
  });

  it('every int16 input: odd tanh, logistic(-x) = 1 - logistic(x), close to the real functions', () => {
    expect(gemmlowpLogisticInt16(0, 3)).toBe(16384);
    let worst = 0;
    for (let x = -32767; x <= 32767; x++) {
      const l = gemmlowpLogisticInt16(x, 3);
      if (x !== 0) expect(l + gemmlowpLogisticInt16(-x, 3)).toBe(32767);
      worst = Math.max(worst, Math.abs(l - 32768 / (1 + Math.exp(-x / 4096))));
      for (let bits = 0; bits <= 6; bits++) {
        const t = gemmlowpTanhInt16(x, bits);
        if (t !== -gemmlowpTanhInt16(-x, bits)) expect.fail(`tanh(${x}, ${bits} bits) is not odd`);
        worst = Math.max(worst, Math.abs(t - 32768 * Math.tanh(x / 2 ** (15 - bits))));
      }
    }
    expect(worst).toBeLessThan(12.5);
  });
});

describe('tensor_utils element-wise int16 helpers', () => {
  const a = Int16Array.from(MUL_IN1);
  const b = Int16Array.from(MUL_IN2);

  it('CwiseMul with a 15 and a 19 bit shift: TFLite QuantMul16bitOut15ShiftTest / 19ShiftTest', () => {
    const out = new Int16Array(30);
    cwiseMulShiftInt16(a, b, 30, 15, out);
    expect(Array.from(out)).toEqual([
      -88, 32766, -32768, -32767, -32767, 2308, 64, -220, 288, -667, -134, 460, -5, 760, 2407, -412, -575, 142, -1165, 399, 221, -33, -19,
      468, -153, -197, -291, -462, 817, -1469,
    ]);
    cwiseMulShiftInt16(a, b, 30, 19, out);
    expect(Array.from(out)).toEqual([
      -5, 2048, 2048, -2048, -2048, 144, 4, -14, 18, -42, -8, 29, 0, 47, 150, -26, -36, 9, -73, 25, 14, -2, -1, 29, -10, -12, -18, -29, 51,
      -92,
    ]);
  });

  it('CwiseMul to int8 with a zero point: TFLite QuantMul8bitArbitrarySclaeTest', () => {
    const out = new Int8Array(30);
    cwiseMulToInt8(a, b, 30, Int32Array.of(1970324837, -15), 0, 3, out);
    expect(Array.from(out)).toEqual([
      -84, 127, 127, -128, -128, 127, 56, -128, 127, -128, -126, 127, -7, 127, 127, -128, -128, 127, -128, 127, 127, -33, -20, 127, -128,
      -128, -128, -128, 127, -128,
    ]);
  });

  it('CwiseAdd saturates: TFLite QuantAddTest', () => {
    const x = Int16Array.from([20000, -20000, 2491, 32767]);
    const y = Int16Array.from([20000, -20000, -1156, 32767]);
    const out = new Int16Array(4);
    cwiseAddInt16(x, y, 4, out);
    expect(Array.from(out)).toEqual([32767, -32768, 1335, 32767]);
  });
});
