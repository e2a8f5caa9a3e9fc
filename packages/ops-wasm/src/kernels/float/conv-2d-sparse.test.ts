/**
 * float32 1x1 CONV_2D with mostly zero weights (assembly/float/sparse-gemm.ts): the outputs equal the dense
 * kernel's bit for bit (the same additions in the same order, zero products left out), agree with
 * ops-reference, and split across threads the same. A sparse layer requests a scratch buffer of its
 * transposed pixel blocks (K x 64 bytes per thread, laid out by parallel.ts's threadSlots), a direct dense
 * one none and a gathering dense one four rows of about K floats per thread: that is how the tests know
 * which path ran.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { Padding } from '@micrort/core';
import { loadWasmKernelsSync, type WasmKernels } from '../../index.js';
import { PROVIDER } from '../../provider.js';
import { threadSlots } from '../parallel.js';
import { SPARSE_BLOCK_CHANNEL_BYTES } from './weight-pack-sparse.js';
import { buildConvF32, compareWithReference, randomConvCaseF32, type ConvCaseF32 } from '../../__tests__/single-op-float.js';
import { rng } from '../../__tests__/single-op.js';

const sparse1 = loadWasmKernelsSync({ minMacs: 0, threads: 1 });
const dense1 = loadWasmKernelsSync({ minMacs: 0, threads: 1, sparseMinZeros: 2 });
const sparse2 = loadWasmKernelsSync({ minMacs: 0, threads: 2, parallelMinMacs: 0 });

/** The outputs' bytes of `def` on `kernels` in front of ops-reference (every node served by ops-wasm), and whether it ran sparse. */
function run(def: ModelDef, inputs: Float32Array[], kernels: WasmKernels): { out: Uint8Array; sparse: boolean } {
  const it = new MicroInterpreter(def, registerReferenceOps(new OpResolver()).registerAll(kernels.kernels, { fallback: true }), {
    planner: createPlanner('greedy'),
    arenaBacking: kernels.arenaBacking,
  }).allocateTensors();
  expect(it.nodes().every((n) => n.provider === PROVIDER)).toBe(true);
  inputs.forEach((x, i) => it.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
  it.invoke();
  const [, kH, kW, inC] = def.subgraphs[0]!.tensors[1]!.shape;
  const sparseBytes = threadSlots(kH! * kW! * inC! * SPARSE_BLOCK_CHANNEL_BYTES, kernels.threads).bytes;
  return { out: Uint8Array.from(it.output(0).bytes), sparse: it.arenaUsage().perNode[0]!.scratchBytes === sparseBytes };
}

/** The fraction of the filter's (tensor 1's) weights that are zero. */
function zerosOf(def: ModelDef): number {
  const data = def.buffers[def.subgraphs[0]!.tensors[1]!.buffer]!.data!;
  const w = new Float32Array(Uint8Array.from(data).buffer);
  return w.filter((x) => x === 0).length / w.length;
}

/** A random direct 1x1 case (stride 1, no padding) with `zeros` of its weights zero. */
function sparseCase(seed: number, zeros: number): ConvCaseF32 {
  const r = rng(seed * 31 + 5);
  const base = randomConvCaseF32(seed, false);
  return {
    ...base,
    kH: 1,
    kW: 1,
    strideH: 1,
    strideW: 1,
    dilH: 1,
    dilW: 1,
    padding: r() < 0.5 ? Padding.SAME : Padding.VALID,
    // pixel counts around the 16-pixel blocks, depths around the 4x4 transposes
    inH: 1 + Math.floor(r() * 6),
    inW: 1 + Math.floor(r() * 13),
    inC: 1 + Math.floor(r() * 70),
    outC: 1 + Math.floor(r() * 40),
    dynamicFilter: false,
    zeros,
  };
}

describe('CONV_2D float32 with sparse weights (wasm)', () => {
  it('equals the dense kernel bit for bit and ops-reference within 1e-5 + 1e-4·|b|, on 120 random 1x1 layers with 50-97 % zeros', () => {
    let ran = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const zeros = 0.5 + (seed % 10) * 0.05;
      const c = sparseCase(seed, zeros);
      const m = buildConvF32(c)!;
      const s = run(m.def, m.inputs, sparse1);
      const d = run(m.def, m.inputs, dense1);
      expect([s.sparse, d.sparse]).toEqual([zerosOf(m.def) >= 0.5, false]);
      if (s.sparse) ran++;
      expect(Buffer.from(s.out).equals(Buffer.from(d.out)), JSON.stringify(c)).toBe(true);
      expect(compareWithReference(m.def, m.inputs, 1), JSON.stringify(c)).toBeNull();
    }
    expect(ran).toBeGreaterThan(100);
  });

  it('gives the same bytes on two threads as on one (blocks of 16 pixels inside 4-pixel-aligned chunks)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const c = { ...sparseCase(seed, 0.75), inH: 3 + (seed % 5), inW: 11 + seed, batches: 1 + (seed % 2) };
      const m = buildConvF32(c)!;
      const one = run(m.def, m.inputs, sparse1);
      const two = run(m.def, m.inputs, sparse2);
      expect(two.sparse).toBe(true);
      expect(Buffer.from(two.out).equals(Buffer.from(one.out)), JSON.stringify(c)).toBe(true);
    }
  });

  it('leaves layers with fewer zeros, strided or padded 1x1 and larger windows to the dense kernel', () => {
    const dense = (c: ConvCaseF32) => {
      const m = buildConvF32(c)!;
      const r = run(m.def, m.inputs, sparse1);
      expect(Buffer.from(r.out).equals(Buffer.from(run(m.def, m.inputs, dense1).out))).toBe(true);
      return !r.sparse;
    };
    expect(dense({ ...sparseCase(3, 0.3), inC: 40, outC: 24 })).toBe(true);
    expect(dense({ ...sparseCase(3, 0.9), inC: 40, outC: 24, strideH: 2, inH: 6 })).toBe(true);
    expect(dense({ ...sparseCase(3, 0.9), inC: 40, outC: 24, kH: 3, kW: 3, inH: 5, inW: 5, padding: Padding.SAME })).toBe(true);
    expect(dense({ ...sparseCase(3, 0.9), inC: 40, outC: 24 })).toBe(false);
  });
});
