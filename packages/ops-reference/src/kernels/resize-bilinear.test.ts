import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import {
  OPS_SKIP_REASON,
  hasConformanceOps,
  makeInterpreter,
  modelDir,
  readBytes,
  readManifest,
  setCaseInputs,
} from '@micrort/test-support/conformance';
import { interpolationValues, interpolationValuesInteger } from '@micrort/kernel-support';
import { RESIZE_BILINEAR } from './resize-bilinear.js';
import { constI32, expectFloatClose, harness, preparedShape, prepareError, spec } from './__fixtures__/data-testing.js';

function resize(
  type: TensorType,
  inShape: number[],
  data: number[],
  size: [number, number],
  alignCorners = false,
  halfPixelCenters = false,
  q = {},
) {
  const out = [inShape[0]!, size[0], size[1], inShape[3]!];
  return harness(RESIZE_BILINEAR, [spec(type, inShape, data, q), constI32(size), spec(type, out, undefined, q)], 2, {
    alignCorners,
    halfPixelCenters,
  });
}

const TWO_BATCH_IN = [3, 6, 9, 12, 4, 10, 10, 16];
const TWO_BATCH_OUT = [3, 5, 6, 7, 9, 10, 9, 11, 12, 4, 8, 10, 8, 12, 14, 10, 14, 16];

describe('RESIZE_BILINEAR', () => {
  it('TFLM float tests: horizontal, vertical, 2-D, two batches, three channels', () => {
    expectFloatClose(resize(TensorType.FLOAT32, [1, 1, 2, 1], [3, 6], [1, 3]).invoke().outputArray(), [3, 5, 6]);
    expectFloatClose(resize(TensorType.FLOAT32, [1, 2, 1, 1], [3, 9], [3, 1]).invoke().outputArray(), [3, 7, 9]);
    expectFloatClose(
      resize(TensorType.FLOAT32, [1, 2, 2, 1], [3, 6, 9, 12], [3, 3]).invoke().outputArray(),
      [3, 5, 6, 7, 9, 10, 9, 11, 12],
    );
    expectFloatClose(resize(TensorType.FLOAT32, [2, 2, 2, 1], TWO_BATCH_IN, [3, 3]).invoke().outputArray(), TWO_BATCH_OUT);
    const three = resize(TensorType.FLOAT32, [1, 2, 2, 2], [3, 4, 6, 10, 9, 10, 12, 16], [3, 3]).invoke();
    expectFloatClose(three.outputArray(), [3, 4, 5, 8, 6, 10, 7, 8, 9, 12, 10, 14, 9, 10, 11, 14, 12, 16]);
  });

  it("blends float32 in TFLM's order and precision, bit for bit (not a once-rounded double blend)", () => {
    // 1x2 -> 1x3 without options: output x = 1 samples 2/3 of the way, with TFLM's float32 weights
    // wHi = float(2/3), wLo = 1 - wHi; the row weights are 1 and 0, so the reference's expression reduces to
    // float(float(a * wLo) + float(b * wHi)).
    const f = Math.fround;
    const wHi = f(2 / 3);
    const wLo = f(1 - wHi);
    const a = f(0.3);
    const b = f(0.9);
    const tflm = f(f(a * wLo) + f(b * wHi));
    // These inputs tell the two apart: 0.70000005 (TFLM) vs 0.69999999 (the exact blend rounded once).
    expect(tflm).not.toBe(f(a * wLo + b * wHi));
    const out = resize(TensorType.FLOAT32, [1, 1, 2, 1], [0.3, 0.9], [1, 3]).invoke().outputArray();
    expect(out[0]).toBe(a);
    expect(out[1]).toBe(tflm);
    // The reference adds its float rounding offset (+0.0f): a blend of negative zeros is +0, not -0.
    const zeros = resize(TensorType.FLOAT32, [1, 2, 2, 1], [-0, -0, -0, -0], [3, 3], false, true).invoke().outputArray();
    expect(zeros.every((v) => Object.is(v, 0))).toBe(true);
  });

  it('TFLM int8 tests give the same integers (10-bit fixed point, rounded half away from zero)', () => {
    const q = { scale: 1, zeroPoint: 0 };
    expect(resize(TensorType.INT8, [1, 1, 2, 1], [3, 6], [1, 3], false, false, q).invoke().outputArray()).toEqual([3, 5, 6]);
    expect(resize(TensorType.INT8, [2, 2, 2, 1], TWO_BATCH_IN, [3, 3], false, false, q).invoke().outputArray()).toEqual(TWO_BATCH_OUT);
    expect(resize(TensorType.INT8, [1, 1, 2, 1], [-3, -6], [1, 3], false, false, q).invoke().outputArray()).toEqual([-3, -5, -6]);
  });

  it('align_corners and half_pixel_centers (TFLite 2x2 -> 3x3 cases), float and int8', () => {
    const want = [1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4];
    expectFloatClose(resize(TensorType.FLOAT32, [1, 2, 2, 1], [1, 2, 3, 4], [3, 3], true).invoke().outputArray(), want);
    expectFloatClose(resize(TensorType.FLOAT32, [1, 2, 2, 1], [1, 2, 3, 4], [3, 3], false, true).invoke().outputArray(), want);
    // int8 with values x10: 15, 25, 35 round exactly
    const q = { scale: 0.1, zeroPoint: 0 };
    expect(resize(TensorType.INT8, [1, 2, 2, 1], [10, 20, 30, 40], [3, 3], true, false, q).invoke().outputArray()).toEqual(
      want.map((v) => v * 10),
    );
    expect(resize(TensorType.INT8, [1, 2, 2, 1], [10, 20, 30, 40], [3, 3], false, true, q).invoke().outputArray()).toEqual(
      want.map((v) => v * 10),
    );
  });

  it('int8 stays within one step of the float blend on a random 4x5 -> 7x3 half-pixel resize', () => {
    let s = 7;
    const data = Array.from({ length: 4 * 5 * 2 }, () => ((s = (Math.imul(s, 1103515245) + 12345) | 0) >>> 24) - 128);
    const qi = resize(TensorType.INT8, [1, 4, 5, 2], data, [7, 3], false, true, { scale: 1, zeroPoint: 0 }).invoke().outputArray();
    const fl = resize(TensorType.FLOAT32, [1, 4, 5, 2], data, [7, 3], false, true).invoke().outputArray();
    qi.forEach((v, i) => expect(Math.abs(v - fl[i]!)).toBeLessThanOrEqual(1));
  });

  it('int16 (TFLite): the integer blend over the whole int16 range, rounded half away from zero, exact in int64', () => {
    // 2x2 -> 4x4: sources at 0, 0.5, 1, 1 per axis; blends of the extremes land on halves.
    const data = [-32768, 32767, 32767, -32768];
    const out = resize(TensorType.INT16, [1, 2, 2, 1], data, [4, 4], false, false, { scale: 1, zeroPoint: 0 }).invoke().outputArray();
    const at = (y: number, x: number) => {
      const y0 = Math.floor(y),
        y1 = Math.min(y0 + 1, 1),
        x0 = Math.floor(x),
        x1 = Math.min(x0 + 1, 1);
      const [fy, fx] = [y - y0, x - x0];
      const v =
        data[y0 * 2 + x0]! * (1 - fy) * (1 - fx) +
        data[y0 * 2 + x1]! * (1 - fy) * fx +
        data[y1 * 2 + x0]! * fy * (1 - fx) +
        data[y1 * 2 + x1]! * fy * fx;
      return v < 0 ? -Math.round(-v) : Math.round(v);
    };
    const want = [0, 0.5, 1, 1].flatMap((y) => [0, 0.5, 1, 1].map((x) => at(y, x)));
    expect(Array.from(out)).toEqual(want);
    expect(out[1]).toBe(-1); // (−32768 + 32767) / 2 = −0.5, away from zero
    expect(out[5]).toBe(-1); // the centre: the four values sum to −2, / 4 = −0.5, away from zero
  });

  it('computes the source coordinates in float32 like TFLM, and the integer ones with C division', () => {
    // 2 -> 50 without options: y 25 scales by float32(2/50) to exactly 1 (in double 0.99999998).
    expect(interpolationValues(25, Math.fround(2 / 50), false, 2)).toEqual([1, 1, 0]);
    // half pixel at y 0 goes below 0: both neighbours clamp to row 0
    const [lo, hi, frac] = interpolationValues(0, Math.fround(2 / 3), true, 2);
    expect([lo, hi]).toEqual([0, 0]);
    expect(frac).toBeCloseTo(-1 / 6, 6);
    // integer: 0 * 683 + 341 - 512 = -171 -> lower 0 (truncation), upper 0
    expect(interpolationValuesInteger(0, 683, true, 2)).toEqual([-171, 0, 0]);
  });

  it('refuses int32, align_corners with half_pixel_centers, a non-constant or malformed size, a wrong output', () => {
    expect(prepareError(resize(TensorType.INT32, [1, 1, 1, 1], [1], [2, 2])).message).toMatch(
      /type int32 \(tensor \d+\); supported: float32, int8, uint8, int16/,
    );
    expect(prepareError(resize(TensorType.FLOAT32, [1, 1, 1, 1], [1], [2, 2], true, true)).message).toMatch(
      /If half_pixel_centers is True, align_corners must be False/,
    );
    const dynamic = harness(
      RESIZE_BILINEAR,
      [spec(TensorType.FLOAT32, [1, 1, 1, 1], [1]), spec(TensorType.INT32, [2], [2, 2]), spec(TensorType.FLOAT32, [1, 2, 2, 1])],
      2,
      { alignCorners: false, halfPixelCenters: false },
    );
    expect(prepareError(dynamic).message).toMatch(/must be constant/);
    const three = harness(
      RESIZE_BILINEAR,
      [spec(TensorType.FLOAT32, [1, 1, 1, 1], [1]), constI32([2, 2, 2]), spec(TensorType.FLOAT32, [1, 2, 2, 1])],
      2,
      { alignCorners: false, halfPixelCenters: false },
    );
    expect(prepareError(three).message).toMatch(/size must be a 1-D tensor of 2 values/);
    const wrong = harness(
      RESIZE_BILINEAR,
      [spec(TensorType.FLOAT32, [1, 1, 1, 1], [1]), constI32([2, 2]), spec(TensorType.FLOAT32, [1, 2, 3, 1])],
      2,
      { alignCorners: false, halfPixelCenters: false },
    );
    expect(preparedShape(wrong)).toEqual([1, 2, 2, 1]);
  });
});

describe('RESIZE_BILINEAR uint8 (TFLite: float32 blend plus 0.5, truncated)', () => {
  it('gives the TFLM test integers and rounds exact halves up', () => {
    const q = { scale: 1, zeroPoint: 0 };
    expect(resize(TensorType.UINT8, [1, 1, 2, 1], [3, 6], [1, 3], false, false, q).invoke().outputArray()).toEqual([3, 5, 6]);
    expect(resize(TensorType.UINT8, [2, 2, 2, 1], TWO_BATCH_IN, [3, 3], false, false, q).invoke().outputArray()).toEqual(TWO_BATCH_OUT);
    // align_corners 2 → 3: the middle is the exact half of its neighbours
    expect(resize(TensorType.UINT8, [1, 1, 2, 1], [0, 1], [1, 3], true, false, q).invoke().outputArray()).toEqual([0, 1, 1]);
    expect(resize(TensorType.UINT8, [1, 1, 2, 1], [250, 255], [1, 3], true, false, q).invoke().outputArray()).toEqual([250, 253, 255]);
  });
});

if (!hasConformanceOps) it.skip(`RESIZE_BILINEAR float32 vs TFLM bit for bit: ${OPS_SKIP_REASON}`, () => {});

describe.skipIf(!hasConformanceOps)('RESIZE_BILINEAR float32 vs TFLM (conformance-ops), bit for bit', () => {
  // The conformance-ops suite checks float32 within tolerance; the float kernel does TFLM's arithmetic, so
  // its bytes must equal TFLM's exactly.
  it.each(['resize_bilinear_f32', 'resize_bilinear_f32_half_pixel'])('%s', (name) => {
    const cases = readManifest(name, 'ops').cases;
    expect(cases.length).toBe(3);
    cases.forEach((c, k) => {
      const interp = makeInterpreter(name, { suite: 'ops' });
      setCaseInputs(interp, name, k, 'ops');
      interp.invoke();
      expect(interp.output(0).bytes).toEqual(readBytes(join(modelDir(name, 'ops'), `case${k}`, c.outputs[0]!.file)));
      interp.dispose();
    });
  });
});
