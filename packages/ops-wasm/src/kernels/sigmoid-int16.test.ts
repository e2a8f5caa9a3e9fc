/**
 * int16 LOGISTIC and TANH (qs16_logistic / qs16_tanh) against ops-reference (TFLM's reference kernels),
 * byte for byte: every int16 input under the power-of-two scales and under general multipliers, random
 * quantizations and shapes (lengths not multiples of 8), -32768 and 32767; the declines; in place.
 */
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, type ModelDef } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { describe, expect, it } from 'vitest';
import { int, pick, rng, runBoth, runInPlace, wasm } from '../__tests__/single-op.js';
import { CONSTANT_TABLES_BYTES, packSigmoid16Table } from '../constant-tables.js';
import { READ_SLACK } from '../wasm-arena.js';
import { LOGISTIC_SPEC, TANH_SPEC, int16ActivationParams } from '@micrort/kernel-support';

const OPS = [
  ['LOGISTIC', BuiltinOperator.LOGISTIC],
  ['TANH', BuiltinOperator.TANH],
] as const;

const OUT_Q = { scale: 2 ** -15, zeroPoint: 0 };

function model(code: BuiltinOperator, shape: number[], inScale: number, outQ = OUT_Q): ModelDef {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape, quantization: { scale: inScale, zeroPoint: 0 } });
  const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape, quantization: outQ });
  b.addOperator({ op: code, inputs: [x], outputs: [y] });
  b.setInputs([x]).setOutputs([y]);
  return b.buildDef();
}

const bytes = (x: Int16Array) => new Int8Array(x.buffer, x.byteOffset, x.byteLength);
const int16 = (b: Int8Array) => new Int16Array(Int8Array.from(b).buffer);

/** Every int16 value, in order. */
const EVERY = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);

/** A random input scale of each kind: power-of-two shortcuts, other powers of two, log-uniform general ones, near the limit. */
function randomScale(r: () => number): number {
  const kind = int(r, 0, 4);
  if (kind === 0) return pick(r, [2 ** -12, 2 ** -11]);
  if (kind === 1) return 2 ** -int(r, 1, 20);
  if (kind === 2) return Math.exp(Math.log(1e-7) + r() * (Math.log(2.6) - Math.log(1e-7)));
  if (kind === 3) return pick(r, [32767 / 12288, 2.6666, 0.0003, 1 / 3000, 1e-12]);
  return Math.fround(r() * 0.01);
}

describe('int16 LOGISTIC / TANH (wasm qs16_logistic / qs16_tanh) equal ops-reference byte for byte', () => {
  for (const [name, code] of OPS) {
    it(`${name}: every int16 input under the power-of-two scales and general multipliers`, () => {
      // 2^-12 (both) and 2^-11 (TANH) are TFLM's power-of-two path; the rest its multiplier and shift
      for (const scale of [2 ** -12, 2 ** -11, 2 ** -13, 2 ** -10, 0.0003, 1 / 3000, 0.1234, 2.5, 1e-6, 2 ** -24]) {
        const r = runBoth(model(code, [65536], scale), [bytes(EVERY)]);
        expect(r.served, `${name} scale ${scale}`).toBe(1);
        expect(int16(r.got[0]!), `${name} scale ${scale}`).toEqual(int16(r.ref[0]!));
      }
    });

    it(`${name}: 60 random quantizations and shapes, with -32768 and 32767`, () => {
      for (let seed = 1; seed <= 60; seed++) {
        const r = rng(seed * 7 + code);
        const scale = randomScale(r);
        const shape = pick(r, [[1], [7], [9], [2, 13], [1, 5, 5, 3], [3, 100], [4, 1023], [1, 8, 8, 16]]);
        const n = shape.reduce((a, b) => a * b, 1);
        const x = Int16Array.from({ length: n }, () => (r() < 0.1 ? pick(r, [-32768, 32767, 0, -1, 1]) : int(r, -32768, 32767)));
        const desc = JSON.stringify({ name, seed, scale, shape });
        const q = int16ActivationParams(
          scale,
          code === BuiltinOperator.TANH ? TANH_SPEC.int16MaxPotLeftShift : LOGISTIC_SPEC.int16MaxPotLeftShift,
        );
        const tiny = typeof q !== 'string' && q.multiplier === 0 && q.leftShift > 1; // declined (see below)
        const res = runBoth(model(code, shape, scale), [bytes(x)]);
        expect(res.served, desc).toBe(tiny ? 0 : 1);
        expect(int16(res.got[0]!), desc).toEqual(int16(res.ref[0]!));
      }
    });
  }

  it('the packed table holds TFLM sigmoid table values and slopes', () => {
    const words = new Int32Array(256);
    packSigmoid16Table(words);
    expect([words[0]! & 0xffff, words[0]! >> 16]).toEqual([0, 683]); // 32768 - 32768, 33451 - 32768
    expect([(words[254]! << 16) >> 16, words[254]! >> 16]).toEqual([32766, 1]); // 65534, 65535 - 65534
    expect(words[255]).toBe(32767);
  });

  it('the packed table is in the memory past the arena and its slack, written once by the backing', () => {
    const words = new Int32Array(256);
    packSigmoid16Table(words);
    for (const bytes of [0, 4096, 65536 - READ_SLACK - CONSTANT_TABLES_BYTES, 65536 - READ_SLACK]) {
      const buffer = wasm().arenaBacking.allocate(bytes);
      expect(buffer.byteLength - CONSTANT_TABLES_BYTES, `arena of ${bytes} bytes`).toBeGreaterThanOrEqual(bytes + READ_SLACK);
      expect(new Int32Array(buffer, buffer.byteLength - CONSTANT_TABLES_BYTES, 256), `arena of ${bytes} bytes`).toEqual(words);
    }
  });
});

describe('int16 LOGISTIC / TANH: declines and in place', () => {
  const reasons = (def: ModelDef, code: BuiltinOperator): string[] =>
    wasm()
      .kernels.filter((k) => k.builtinCode === code && k.name?.endsWith('wasm-int16'))
      .map((k) => {
        const it_ = new MicroInterpreter(def, new OpResolver().registerAll([k]), { planner: createPlanner('greedy') });
        try {
          it_.allocateTensors();
          return 'served';
        } catch (e) {
          return String(e);
        }
      });

  it('declines what TFLM refuses (zero points, output scale, multipliers above 32767), naming it', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [8], quantization: { scale: 2 ** -12, zeroPoint: 3 } });
    const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [8], quantization: OUT_Q });
    b.addOperator({ op: BuiltinOperator.TANH, inputs: [x], outputs: [y] });
    b.setInputs([x]).setOutputs([y]);
    expect(reasons(b.buildDef(), BuiltinOperator.TANH).join()).toMatch(/int16 zero points 3 and 0 \(TFLM requires 0\)/);
    expect(
      reasons(model(BuiltinOperator.LOGISTIC, [8], 2 ** -12, { scale: 2 ** -14, zeroPoint: 0 }), BuiltinOperator.LOGISTIC).join(),
    ).toMatch(/output scale .* \(TFLM requires 2\^-15\)/);
    expect(reasons(model(BuiltinOperator.LOGISTIC, [8], 4), BuiltinOperator.LOGISTIC).join()).toMatch(/too large for the int16 lookup/);
  });

  it('leaves a scale that rescales to multiplier 0 to ops-reference (TFLM multiplies by 3 << 31 then)', () => {
    const def = model(BuiltinOperator.TANH, [16], 1e-15);
    expect(reasons(def, BuiltinOperator.TANH).join()).toMatch(/multiplier 0 after 31 doublings/);
    const x = Int16Array.from({ length: 16 }, (_, i) => i * 4097 - 32768);
    const r = runBoth(def, [bytes(x)]);
    expect(r.served).toBe(0);
    expect(r.got).toEqual(r.ref);
  });

  it('runs in place in a chain (LOGISTIC, TANH, TANH) under inPlace: true, with the same bytes as ops-reference', () => {
    const b = new ModelBuilder();
    const q = (scale: number) => ({ quantization: { scale, zeroPoint: 0 } });
    const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [3, 333], ...q(0.0007) });
    const l = b.addTensor({ name: 'l', type: TensorType.INT16, shape: [3, 333], ...q(2 ** -15) });
    const t1 = b.addTensor({ name: 't1', type: TensorType.INT16, shape: [3, 333], ...q(2 ** -15) });
    const t2 = b.addTensor({ name: 't2', type: TensorType.INT16, shape: [3, 333], ...q(2 ** -15) });
    b.addOperator({ op: BuiltinOperator.LOGISTIC, inputs: [x], outputs: [l] });
    b.addOperator({ op: BuiltinOperator.TANH, inputs: [l], outputs: [t1] });
    b.addOperator({ op: BuiltinOperator.TANH, inputs: [t1], outputs: [t2] });
    b.setInputs([x]).setOutputs([t2]);
    const def = b.buildDef();
    const r = rng(11);
    const input = Int16Array.from({ length: 999 }, () => int(r, -32768, 32767));
    const { got, ref } = runInPlace(def, bytes(input));
    expect(int16(got)).toEqual(int16(ref));
    // the chain moves the values (not a constant output)
    expect(new Set(int16(ref)).size).toBeGreaterThan(50);
  });
});
