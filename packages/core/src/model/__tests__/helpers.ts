// Test helpers for the model layer (not part of the package build: src/**/__tests__ is excluded by tsconfig).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { BuiltinOperator } from '../../builtin-ops.js';
import { ModelError } from '../../errors.js';
import { ActivationFunctionType, Padding } from '../../options.js';
import { TensorType } from '../../types.js';
import { ModelBuilder } from '../model-builder.js';
import type { ModelDef } from '../model-def.js';

/** `<repo>/../shared/conformance`, found relative to this file (packages/core/src/model/__tests__). */
export const CONFORMANCE_DIR = fileURLToPath(new URL('../../../../../../shared/conformance/', import.meta.url));

/** Model folders of the conformance suite that hold a model.tflite (empty when the suite is absent). */
export function conformanceModels(): string[] {
  if (!existsSync(CONFORMANCE_DIR)) return [];
  return readdirSync(CONFORMANCE_DIR)
    .filter((d) => existsSync(`${CONFORMANCE_DIR}${d}/model.tflite`))
    .sort();
}

/** Bytes of a conformance model, copied to a fresh 16-byte-aligned ArrayBuffer. */
export function readConformanceModel(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${CONFORMANCE_DIR}${name}/model.tflite`));
}

export function readConformanceJson<T>(name: string, file: string): T {
  return JSON.parse(readFileSync(`${CONFORMANCE_DIR}${name}/${file}`, 'utf8')) as T;
}

/** A small int8 model touching most of the format: per-channel conv, options with vectors, metadata. */
export function smallModelBuilder(): ModelBuilder {
  const b = new ModelBuilder({ description: 'small test model' });
  const q = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });
  const input = b.addTensor({ name: 'input', type: TensorType.INT8, shape: [1, 4, 4, 2], quantization: q(0.5, -1) });
  const filter = b.addTensor({
    name: 'conv/filter',
    type: TensorType.INT8,
    shape: [3, 1, 1, 2],
    data: new Int8Array([1, -2, 3, -4, 5, -6]),
    quantization: { scale: [0.1, 0.2, 0.3], zeroPoint: [0, 0, 0], quantizedDimension: 0 },
  });
  const bias = b.addTensor({
    name: 'conv/bias',
    type: TensorType.INT32,
    shape: [3],
    data: new Int32Array([10, -20, 30]),
    quantization: { scale: [0.05, 0.1, 0.15], zeroPoint: [0, 0, 0] },
  });
  const conv = b.addTensor({ name: 'conv', type: TensorType.INT8, shape: [1, 4, 4, 3], quantization: q(0.25, 2) });
  b.addOperator({
    op: BuiltinOperator.CONV_2D,
    version: 3,
    inputs: [input, filter, bias],
    outputs: [conv],
    options: { padding: Padding.SAME, strideW: 1, strideH: 1, fusedActivationFunction: ActivationFunctionType.RELU },
  });
  const newShape = b.addTensor({ name: 'shape', type: TensorType.INT32, shape: [2], data: new Int32Array([1, 48]) });
  const flat = b.addTensor({ name: 'flat', type: TensorType.INT8, shape: [1, 48], quantization: q(0.25, 2) });
  b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [conv, newShape], outputs: [flat], options: { newShape: new Int32Array([1, 48]) } });
  const weights = b.addTensor({
    name: 'fc/weights',
    type: TensorType.INT8,
    shape: [2, 48],
    data: new Int8Array(96).map((_, i) => (i * 7) % 255),
    quantization: q(0.02, 0),
  });
  const logits = b.addTensor({ name: 'logits', type: TensorType.INT8, shape: [1, 2], quantization: q(0.1, 0) });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [flat, weights, -1], outputs: [logits], options: {} });
  const probs = b.addTensor({ name: 'probs', type: TensorType.INT8, shape: [1, 2], quantization: q(1 / 256, -128) });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [logits], outputs: [probs], options: { beta: 1 } });
  b.addMetadata('min_runtime_version', new TextEncoder().encode('1.5.0\0'));
  return b.setInputs([input]).setOutputs([probs]);
}

/** A ModelDef without its buffers (compare those with {@link expectSameBuffers}), for toEqual checks. */
export function withoutBuffers(def: ModelDef): unknown {
  return { ...def, buffers: def.buffers.length };
}

/** Buffer contents equal byte for byte (ignores `zeroCopy` and the external offset/size form). */
export function expectSameBuffers(a: ModelDef, b: ModelDef): void {
  expect(b.buffers.length).toBe(a.buffers.length);
  for (let i = 0; i < a.buffers.length; i++) {
    const x = a.buffers[i]!.data;
    const y = b.buffers[i]!.data;
    expect(y.byteLength, `buffer ${i} length`).toBe(x.byteLength);
    let firstDiff = -1;
    for (let k = 0; k < x.byteLength; k++) {
      if (x[k] !== y[k]) {
        firstDiff = k;
        break;
      }
    }
    expect(firstDiff, `buffer ${i} first differing byte`).toBe(-1);
  }
}

/** Runs `fn` and requires it to throw a ModelError (returned for further checks). */
export function expectModelError(fn: () => unknown): ModelError {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, 'expected a ModelError, nothing was thrown').toBeDefined();
  if (!(thrown instanceof ModelError)) throw thrown;
  return thrown;
}

// --- raw FlatBuffers navigation, for byte-level corruption tests --------------------------------------

export function u32(bytes: Uint8Array, pos: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset).getUint32(pos, true);
}

export function setU32(bytes: Uint8Array, pos: number, value: number): void {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(pos, value >>> 0, true);
}

/** Position of the root table. */
export function rootTable(bytes: Uint8Array): number {
  return u32(bytes, 0);
}

/** Position of the vtable of the table at `table`. */
export function vtableOf(bytes: Uint8Array, table: number): number {
  return table - new DataView(bytes.buffer, bytes.byteOffset).getInt32(table, true);
}

/** Absolute position of field `id` of the table at `table` (throws when absent). */
export function fieldPos(bytes: Uint8Array, table: number, id: number): number {
  const vt = vtableOf(bytes, table);
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  const rel = 4 + 2 * id < dv.getUint16(vt, true) ? dv.getUint16(vt + 4 + 2 * id, true) : 0;
  if (rel === 0) throw new Error(`field ${id} absent`);
  return table + rel;
}

/** Follows the uoffset stored at `pos`. */
export function deref(bytes: Uint8Array, pos: number): number {
  return pos + u32(bytes, pos);
}

/** Position of element `i` (a table) of the table vector in field `id` of `table`. */
export function tableVectorElement(bytes: Uint8Array, table: number, id: number, i: number): number {
  const vec = deref(bytes, fieldPos(bytes, table, id));
  return deref(bytes, vec + 4 + 4 * i);
}

/** A deterministic PRNG (mulberry32) for randomized tests. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
