/**
 * Test helpers shared by the math, comparison, logic and reduction kernel tests: tensor spec builders,
 * TFLM's test-side quantization (round half away from zero, then the zero point, clamped to the type),
 * a one-call runner, and checks for "within one quantization step".
 */
import { expect } from 'vitest';
import { KernelError, TensorType, type BuiltinOptions, type Registration } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';

/** A float32 tensor (an output when `data` is omitted). */
export function f32(shape: number[], data?: number[], constant = false): HarnessTensorSpec {
  return { type: TensorType.FLOAT32, shape, data, constant };
}

/** An int32 tensor. */
export function i32(shape: number[], data?: number[], constant = false): HarnessTensorSpec {
  return { type: TensorType.INT32, shape, data, constant };
}

/** A bool tensor (0/1 bytes). */
export function bool(shape: number[], data?: (number | boolean)[]): HarnessTensorSpec {
  return { type: TensorType.BOOL, shape, data: data?.map((v) => (v ? 1 : 0)) };
}

/** An int64 tensor. */
export function i64(shape: number[], data?: bigint[]): HarnessTensorSpec {
  return { type: TensorType.INT64, shape, data };
}

/** A quantized int8 or int16 tensor with raw `data`. */
export function q(
  type: TensorType.INT8 | TensorType.INT16 | TensorType.UINT8,
  shape: number[],
  scale: number,
  zeroPoint: number,
  data?: number[],
  constant = false,
): HarnessTensorSpec {
  return { type, shape, data, scale, zeroPoint, constant };
}

/** TFLM's test quantization of real values: round(v / scale) + zero point, clamped to the type. */
export function quantize(
  values: number[],
  scale: number,
  zeroPoint: number,
  type: TensorType.INT8 | TensorType.INT16 = TensorType.INT8,
): number[] {
  const [lo, hi] = type === TensorType.INT8 ? [-128, 127] : [-32768, 32767];
  return values.map((v) => {
    const r = v / Math.fround(scale);
    const x = (r < 0 ? -Math.round(-r) : Math.round(r)) + zeroPoint;
    return x < lo ? lo : x > hi ? hi : x;
  });
}

/** Real values of raw quantized ones. */
export function dequantize(values: ArrayLike<number>, scale: number, zeroPoint: number): number[] {
  return Array.from(values, (v) => (v - zeroPoint) * Math.fround(scale));
}

/** A harness over `tensors`, with inputs and outputs given by index. */
export function harness(
  registration: Registration,
  tensors: HarnessTensorSpec[],
  inputs: number[],
  outputs: number[],
  builtinData: BuiltinOptions | null = null,
): KernelHarness {
  return new KernelHarness({ registration, tensors, inputs, outputs, builtinData });
}

/** Runs init, prepare and invoke and returns output 0 as numbers (bools as 0/1). */
export function run(
  registration: Registration,
  tensors: HarnessTensorSpec[],
  inputs: number[],
  outputs: number[],
  builtinData: BuiltinOptions | null = null,
): number[] {
  return harness(registration, tensors, inputs, outputs, builtinData).invoke().outputArray();
}

/** The KernelError thrown by `fn` (fails the test when it throws something else or nothing). */
export function kernelError(fn: () => unknown): KernelError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(KernelError);
    return e as KernelError;
  }
  throw new Error('expected a KernelError, nothing was thrown');
}

/** Expects every quantized result within `steps` of the exact real result quantized the same way. */
export function expectWithinSteps(got: ArrayLike<number>, want: number[], steps = 1): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++)
    expect(Math.abs(got[i]! - want[i]!), `element ${i}: got ${got[i]}, want ${want[i]}`).toBeLessThanOrEqual(steps);
}

/** Expects float32 results within the conformance tolerance |got - want| <= 1e-5 + 1e-4 * |want|. */
export function expectFloatClose(got: ArrayLike<number>, want: ArrayLike<number>): void {
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++)
    expect(Math.abs(got[i]! - want[i]!), `element ${i}: got ${got[i]}, want ${want[i]}`).toBeLessThanOrEqual(
      1e-5 + 1e-4 * Math.abs(want[i]!),
    );
}
