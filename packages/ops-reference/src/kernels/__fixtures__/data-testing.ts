/**
 * Test helpers shared by the data-movement, shape and spatial kernel tests (registrations/data.ts):
 * terse tensor specs, a one-call KernelHarness, the invoke-error probe and a FlexBuffers map writer for
 * custom options.
 */
import { expect } from 'vitest';
import { AllocationType, KernelError, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { BuiltinOptions, Registration } from '@micrort/core';
import type { HarnessTensorSpec } from '@micrort/core/testing';

export { expectFloatClose, prepareError } from './conv-testing.js';

/** A tensor spec; `data` makes it an input (or constant with `constant: true`). */
export function spec(
  type: TensorType,
  shape: number[],
  data?: ArrayLike<number> | ArrayLike<bigint>,
  extra: Partial<HarnessTensorSpec> = {},
): HarnessTensorSpec {
  return { type, shape, ...(data !== undefined ? { data } : {}), ...extra };
}

/** A constant int32 tensor (axes, sizes, paddings...); shape defaults to [data.length]. */
export function constI32(data: number[], shape: number[] = [data.length]): HarnessTensorSpec {
  return { type: TensorType.INT32, shape, data, constant: true };
}

/** A constant int64 tensor. */
export function constI64(data: number[], shape: number[] = [data.length]): HarnessTensorSpec {
  return { type: TensorType.INT64, shape, data: data.map((v) => BigInt(v)), constant: true };
}

/** A harness over `tensors`: inputs are the first `inputCount` tensors, outputs the rest. */
export function harness(
  registration: Registration,
  tensors: HarnessTensorSpec[],
  inputCount: number,
  builtinData: BuiltinOptions | null = null,
  customInitialData: Uint8Array | null = null,
): KernelHarness {
  const inputs = tensors.slice(0, inputCount).map((_, i) => i);
  const outputs = tensors.slice(inputCount).map((_, i) => inputCount + i);
  return new KernelHarness({ registration, tensors, inputs, outputs, builtinData, customInitialData });
}

/** The KernelError `h.invoke()` throws (after a successful prepare). */
export function invokeError(h: KernelHarness): KernelError {
  h.prepare();
  try {
    h.invoke();
  } catch (e) {
    expect(e).toBeInstanceOf(KernelError);
    return e as KernelError;
  }
  throw new Error('invoke did not throw');
}

/** 0, 1, ..., n - 1. */
export function iota(n: number, from = 0): number[] {
  return Array.from({ length: n }, (_, i) => from + i);
}

/** What `registration.inPlace` declares for the prepared harness `h` (called in a prepare-phase view of its context). */
export function declaredInPlace(h: KernelHarness, registration: Registration): number | readonly number[] | null {
  const ctx = { ...h.context, phase: 'prepare', getTensor: (i: number) => h.tensors[i]! } as typeof h.context;
  return registration.inPlace?.(ctx, h.node) ?? null;
}

/** Prepares `make()`, binds output 0 onto the bytes of input `position` (as in-place planning does), invokes. */
export function invokeAliased(make: () => KernelHarness, position: number): KernelHarness {
  const h = make().prepare();
  const input = h.tensors[h.node.inputs[position]!]!;
  const output = h.tensors[h.node.outputs[0]!]!;
  expect(output.byteLength).toBe(input.byteLength);
  output.bind(input.bytes.buffer, input.bytes.byteOffset, AllocationType.ArenaRw);
  return h.invoke();
}
