/**
 * Test support for the data-movement kernels that only move bytes (PACK, GATHER, MIRROR_PAD): random
 * types of every element size, input bytes for them, and the byte-for-byte comparison with ops-reference.
 */
import { TensorType, type ModelDef } from '@micrort/core';
import { expect } from 'vitest';
import { int, int8s, runBoth } from './single-op.js';

/** The types drawn, with their element sizes (1, 2, 4 and 8 bytes). */
export const BYTE_TYPES = [
  [TensorType.INT8, 1],
  [TensorType.UINT8, 1],
  [TensorType.INT16, 2],
  [TensorType.FLOAT32, 4],
  [TensorType.INT32, 4],
  [TensorType.INT64, 8],
] as const;

/** A random type of {@link BYTE_TYPES}, or of `extra` when given. */
export function randomByteType(
  r: () => number,
  extra: readonly (readonly [TensorType, number])[] = [],
): { type: TensorType; size: number } {
  const all = [...BYTE_TYPES, ...extra];
  const [type, size] = all[int(r, 0, all.length - 1)]!;
  return { type, size };
}

/** Tensor fields that quantize int8 and uint8 tensors (ModelBuilder's), none for the others. */
export function quantFor(type: TensorType) {
  return type === TensorType.INT8 || type === TensorType.UINT8 ? { quantization: { scale: 0.5, zeroPoint: 1 } } : {};
}

/** Random bytes of `n` elements (float32: finite values, no NaN payloads; bool: 0 or 1). */
export function randomElementBytes(r: () => number, type: TensorType, size: number, n: number): Int8Array {
  if (type === TensorType.BOOL) return Int8Array.from({ length: n }, () => int(r, 0, 1));
  return type === TensorType.FLOAT32 ? new Int8Array(Float32Array.from({ length: n }, () => r() * 200 - 100).buffer) : int8s(r, n * size);
}

/** Runs `def` on both packages; expects ops-wasm to serve `nodes` nodes and every output to equal ops-reference's byte for byte. */
export function expectSameBytes(def: ModelDef, inputs: Int8Array[], nodes: number, desc: string): Int8Array[] {
  const run = runBoth(def, inputs);
  expect(run.served, desc).toBe(nodes);
  expect(run.got.length, desc).toBe(run.ref.length);
  run.got.forEach((g, i) => expect(g, `${desc} output ${i}`).toEqual(run.ref[i]));
  return run.got;
}
