/**
 * Test helpers shared by the data-movement, shape and spatial kernel tests (registrations/data.ts):
 * terse tensor specs, a one-call KernelHarness, the invoke-error probe and a FlexBuffers map writer for
 * custom options.
 */
import { expect } from 'vitest';
import { AllocationType, KernelError, TensorType } from '@micrort/core';
import { KernelHarness } from '@micrort/core/testing';
import type { BuiltinOptions, Registration, ShapeRule } from '@micrort/core';
import type { HarnessTensorSpec } from '@micrort/core/testing';

export { expectFloatClose, prepareError, preparedShape } from './conv-testing.js';

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
  shapes: ShapeRule = 'computed',
): KernelHarness {
  const inputs = tensors.slice(0, inputCount).map((_, i) => i);
  const outputs = tensors.slice(inputCount).map((_, i) => inputCount + i);
  return new KernelHarness({ registration, tensors, inputs, outputs, builtinData, customInitialData, shapes });
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

/** A FlexBuffers map value: an integer, a bool, or a float (written as a double). */
export type FlexEntry = number | boolean | { float: number };

/**
 * Writes a FlexBuffers root map with 8-byte values, as flexbuffers::Builder lays one out (sorted key
 * strings, keys vector, map header, values, packed types, root). Integers are INT, booleans BOOL,
 * `{ float }` FLOAT (a double).
 */
export function flexMap(entries: Record<string, FlexEntry>): Uint8Array {
  const keys = Object.keys(entries).sort();
  const out: number[] = [];
  const keyPos: number[] = [];
  for (const key of keys) {
    keyPos.push(out.length);
    for (const ch of key) out.push(ch.charCodeAt(0));
    out.push(0);
  }
  // Keys vector (1-byte offsets), preceded by its length.
  out.push(keys.length);
  const keysPos = out.length;
  keys.forEach((_, i) => out.push(keysPos + i - keyPos[i]!));
  while (out.length % 8 !== 0) out.push(0);
  const le8 = (v: number | bigint) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigInt64(0, BigInt(v), true);
    return Array.from(b);
  };
  const header = out.length;
  out.push(...le8(header - keysPos), ...le8(1), ...le8(keys.length));
  const mapPos = out.length;
  const types: number[] = [];
  for (const key of keys) {
    const v = entries[key]!;
    if (typeof v === 'boolean') {
      out.push(...le8(v ? 1 : 0));
      types.push((26 << 2) | 3);
    } else if (typeof v === 'number') {
      out.push(...le8(v));
      types.push((1 << 2) | 3);
    } else {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, v.float, true);
      out.push(...b);
      types.push((3 << 2) | 3);
    }
  }
  out.push(...types);
  const rootPos = out.length;
  out.push(rootPos - mapPos, (9 << 2) | 3, 1);
  return Uint8Array.from(out);
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
