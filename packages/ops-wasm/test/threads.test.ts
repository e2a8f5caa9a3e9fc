/**
 * Threads: ops-wasm with a pool of workers gives the same bytes as one thread (every kernel that splits
 * its work, integer and float32, forced to split even small nodes), invoke allocates nothing, and a worker that fails
 * or dies is a WasmThreadError, never a hang. Where shared memory is missing the loader falls back to
 * one thread.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, Padding, TensorType, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import {
  buildAdd,
  buildConv,
  buildFullyConnected,
  randomConvCase,
  randomDw3x3Case,
  randomRowsConvCase,
} from '../src/__tests__/single-op.js';
import { buildConvF32, randomConvCaseF32 } from '../src/__tests__/single-op-float.js';
import { buildBatchMatMul, randomBatchMatMulCase } from '../src/__tests__/single-op-batch-matmul.js';
import { buildChain16, buildConv16, buildFullyConnected16, randomQuant16 } from '../src/__tests__/single-op-16x8.js';
import {
  buildTransposeConvF32,
  buildTransposeConvQ,
  randomTransposeConvCase,
  randomTransposeConvQuant,
  type TransposeConvCase,
} from '../src/__tests__/single-op-tconv.js';
import { C, Fn } from '../src/threads/control.js';
import { WasmThreadError, threadsAvailable } from '../src/threads/pool.js';
import { PROVIDER, loadWasmKernels, loadWasmKernelsSync, type WasmKernels } from '../src/index.js';

const one = loadWasmKernelsSync({ threads: 1, minMacs: 0 });
// every node that can split does, however small
const many = await loadWasmKernels({ threads: 3, minMacs: 0, parallelMinMacs: 0 });
afterAll(() => many.dispose());

function run(w: WasmKernels, def: ModelDef, inputs: ArrayBufferView[]): { out: Uint8Array; it: MicroInterpreter } {
  const it = new MicroInterpreter(def, registerReferenceOps(new OpResolver()).registerAll(w.kernels, { fallback: true }), {
    planner: createPlanner('greedy'),
    arenaBacking: w.arenaBacking,
  }).allocateTensors();
  inputs.forEach((x, i) => it.input(i).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength)));
  it.invoke();
  return { out: it.output(0).bytes.slice(), it };
}

describe.skipIf(!threadsAvailable())('ops-wasm threads', () => {
  let chunksAtStart = 0;
  it('loads the threaded build with a pool of workers', () => {
    chunksAtStart = Atomics.load(many.pool!.control, C.WorkerChunks);
    expect(many.threads).toBe(3);
    expect(many.variant).toBe('simd-threads');
    expect(many.pool?.ready).toBe(2);
    expect(one.pool).toBeNull();
  });

  it('CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD give the bytes of one thread', () => {
    let ran = 0;
    for (let seed = 1; ran < 60; seed++) {
      const m = buildConv(randomConvCase(seed, seed % 3 === 0));
      if (!m) continue;
      expect(run(many, m.def, [m.input]).out, `conv seed ${seed}`).toEqual(run(one, m.def, [m.input]).out);
      ran++;
    }
    // the rows layout (qs8_conv's extendRows) over the threads' pixel ranges
    for (let seed = 1, rows = 0; rows < 20; seed++) {
      const m = buildConv({ ...randomRowsConvCase(seed), inH: 13, inW: 11, batches: 2 });
      if (!m) continue;
      expect(run(many, m.def, [m.input]).out, `rows conv seed ${seed}`).toEqual(run(one, m.def, [m.input]).out);
      rows++;
    }
    // 3x3 depthwise (run3x3): the threads' pixel ranges start and end inside rows
    for (let seed = 1, n = 0; n < 30; seed++) {
      const m = buildConv(randomDw3x3Case(seed));
      if (!m) continue;
      expect(run(many, m.def, [m.input]).out, `3x3 depthwise seed ${seed}`).toEqual(run(one, m.def, [m.input]).out);
      n++;
    }
    for (let seed = 1; seed <= 30; seed++) {
      const m = buildFullyConnected(seed);
      expect(run(many, m.def, [m.input]).out, m.desc).toEqual(run(one, m.def, [m.input]).out);
      const a = buildAdd(seed);
      expect(run(many, a.def, a.inputs).out, a.desc).toEqual(run(one, a.def, a.inputs).out);
    }
  });

  it('float32 CONV_2D and DEPTHWISE_CONV_2D give the bytes of one thread', () => {
    for (const depthwise of [false, true]) {
      let ran = 0;
      for (let seed = 1; ran < 40; seed++) {
        const m = buildConvF32(randomConvCaseF32(seed, depthwise));
        if (!m) continue;
        expect(run(many, m.def, m.inputs).out, `${depthwise ? 'depthwise ' : ''}conv seed ${seed}`).toEqual(run(one, m.def, m.inputs).out);
        ran++;
      }
    }
  });

  it('float32 BATCH_MATMUL gives the bytes of one thread', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const m = buildBatchMatMul(randomBatchMatMulCase(seed, TensorType.FLOAT32, 40));
      expect(run(many, m.def, m.inputs).out, `batch matmul seed ${seed}`).toEqual(run(one, m.def, m.inputs).out);
    }
  });

  it('float32 TRANSPOSE_CONV (output rows split across threads) gives the bytes of one thread', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const c = randomTransposeConvCase(seed, false);
      const m = buildTransposeConvF32(
        seed % 4 === 0 ? { ...c, inH: 17, outH: c.padding === 0 ? 17 * c.strideH : 16 * c.strideH + c.kH } : c,
      );
      expect(run(many, m.def, m.inputs).out, `transpose conv seed ${seed}`).toEqual(run(one, m.def, m.inputs).out);
    }
  });

  it.each([
    ['int8', TensorType.INT8],
    ['int16', TensorType.INT16],
  ])('%s BATCH_MATMUL (rows of every output matrix split across threads) gives the bytes of one thread', (_, type) => {
    let served = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const m = buildBatchMatMul(randomBatchMatMulCase(seed, type, 40));
      const got = run(many, m.def, m.inputs);
      expect(got.out, `batch matmul seed ${seed}`).toEqual(run(one, m.def, m.inputs).out);
      if (got.it.nodes()[0]!.provider === PROVIDER) served++;
    }
    expect(served).toBeGreaterThanOrEqual(30);
  });

  it.each([
    ['int8', false, false],
    ['uint8', true, false],
    ['16x8', false, true],
  ])('%s TRANSPOSE_CONV (output rows split across threads) gives the bytes of one thread', (_, uint8, int16) => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = randomTransposeConvCase(seed, false);
      // every fourth case taller (17 input rows: more bands than threads)
      const c: TransposeConvCase = seed % 4 === 0 ? { ...r, inH: 17, outH: r.padding === 0 ? 17 * r.strideH : 16 * r.strideH + r.kH } : r;
      const m = buildTransposeConvQ(c, randomTransposeConvQuant(seed, uint8, int16));
      const got = run(many, m.def, [m.input]);
      expect(got.it.nodes()[0]!.provider, `transpose conv seed ${seed}`).toBe(PROVIDER);
      expect(got.out, `transpose conv seed ${seed}`).toEqual(run(one, m.def, [m.input]).out);
    }
  });

  it('16x8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED (output pixels split across threads) give the bytes of one thread', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const q = randomQuant16(seed, ['int64', 'int32', 'none']);
      const conv = buildConv16({ ...randomConvCase(seed, false), batches: 2 }, q);
      const dw = buildConv16({ ...randomConvCase(seed, true), batches: 2 }, { ...q, bias: q.bias === 'int32' ? 'none' : q.bias });
      const fc = buildFullyConnected16(seed, q, { batches: 7 });
      for (const m of [conv, dw, fc]) {
        if (!m) continue;
        const got = run(many, m.def, [m.input]);
        expect(got.it.nodes()[0]!.provider, `16x8 seed ${seed}`).toBe(PROVIDER);
        expect(got.out, `16x8 seed ${seed}`).toEqual(run(one, m.def, [m.input]).out);
      }
    }
    const chain = buildChain16();
    const { it: it_ } = run(many, chain.def, [chain.input]);
    expect(it_.output(0).bytes).toEqual(run(one, chain.def, [chain.input]).out);
    const r = measureAllocation(() => it_.invoke(), { warmup: 300, trials: 7, iterations: 500 });
    expect(r.medianTrialBytes, `16x8 chain: heap deltas per trial: ${r.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('the workers took chunks of the jobs above (not only the main thread)', () => {
    // checked once over every random case above, not per op: a worker that sleeps through a few small
    // jobs on a loaded machine is not an error, and the bytes above are checked either way
    expect(Atomics.load(many.pool!.control, C.WorkerChunks) - chunksAtStart).toBeGreaterThan(0);
  });

  it('jobs of two interpreters alternating (new instances, other parameters) each give the bytes of one thread', () => {
    // A worker late from one job (preempted after its last chunk) must never claim a chunk of the next,
    // which may run on another interpreter's memory with other parameters: each claim carries the job's tag.
    const cases = [buildConv({ ...randomConvCase(3, false), batches: 2 }), buildConv({ ...randomConvCase(11, true), batches: 2 })];
    const models = cases.filter((m) => m !== null);
    const runs = models.map((m) => ({ m, a: run(many, m.def, [m.input]), want: run(one, m.def, [m.input]).out }));
    for (let i = 0; i < 400; i++) {
      for (const r of runs) {
        r.a.it.invoke();
        const got = r.a.it.output(0).bytes;
        if (!got.every((v, j) => v === r.want[j])) expect.fail(`invoke ${i}: outputs differ from one thread`);
      }
    }
  });

  it('invoke on several threads allocates nothing (CONV_2D, int8 and int16 BATCH_MATMUL, int8 and 16x8 TRANSPOSE_CONV)', () => {
    const conv = buildConv({ ...randomConvCase(7, false), batches: 1 });
    const tc: TransposeConvCase = {
      ...randomTransposeConvCase(3, false),
      ...{ batches: 1, inH: 17, inW: 6, inC: 11, outC: 13, kH: 3, kW: 3, strideH: 2, strideW: 2, outH: 34, outW: 12 },
      ...{ padding: Padding.SAME, bias: true, dynamicFilter: false },
    };
    const models: [string, ModelDef, ArrayBufferView[]][] = [
      ...(conv ? [['conv', conv.def, [conv.input]] as [string, ModelDef, ArrayBufferView[]]] : []),
      ...[TensorType.INT8, TensorType.INT16].map((t): [string, ModelDef, ArrayBufferView[]] => {
        const m = buildBatchMatMul({
          ...randomBatchMatMulCase(5, t, 40),
          lhs: [3, 24, 16],
          rhs: [3, 16, 9],
          out: [3, 24, 9],
          adjX: false,
          adjY: false,
        });
        return [`batch matmul ${t}`, m.def, m.inputs];
      }),
      ...[false, true].map((int16): [string, ModelDef, ArrayBufferView[]] => {
        const m = buildTransposeConvQ(tc, randomTransposeConvQuant(3, false, int16));
        return [`transpose conv${int16 ? ' 16x8' : ''}`, m.def, [m.input]];
      }),
    ];
    expect(models.length).toBe(5);
    for (const [name, def, inputs] of models) {
      const before = Atomics.load(many.pool!.control, C.WorkerChunks);
      const { it: it_ } = run(many, def, inputs);
      expect(it_.nodes()[0]!.provider, name).toBe(PROVIDER);
      const r = measureAllocation(() => it_.invoke(), { warmup: 300, trials: 7, iterations: 500 });
      expect(r.medianTrialBytes, `${name}: heap deltas per trial: ${r.deltas.join(', ')}`).toBeLessThan(4096);
      expect(Atomics.load(many.pool!.control, C.WorkerChunks) - before, name).toBeGreaterThan(0);
    }
  });

  it('a chunk that throws in a worker is a WasmThreadError naming the worker, and the pool goes on', async () => {
    const w = await loadWasmKernels({ threads: 2 });
    try {
      const x = w.pool!;
      expect(() => x.run(null as never, 0, Fn.TestThrow, 0, 0, 0, 0, 4, 1, 4)).toThrow(WasmThreadError);
      expect(() => x.run(null as never, 0, Fn.TestThrow, 0, 0, 0, 0, 4, 1, 4)).toThrow(/worker 1: test: a chunk threw/);
    } finally {
      w.dispose();
    }
  });

  it('a worker that dies holding a chunk is a WasmThreadError after the stall timeout, and every later job throws at once', async () => {
    const w = await loadWasmKernels({ threads: 2, stallTimeoutMs: 300 });
    const x = w.pool!;
    const t0 = Date.now();
    expect(() => x.run(null as never, 0, Fn.TestDie, 0, 0, 0, 0, 4, 1, 4)).toThrow(WasmThreadError);
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(() => x.run(null as never, 0, Fn.Add, 0, 0, 0, 0, 4, 1, 4)).toThrow(WasmThreadError);
    w.dispose();
  });

  it('a worker that died between jobs fails the next job at once', async () => {
    const w = await loadWasmKernels({ threads: 2 });
    const x = w.pool!;
    x.terminate();
    await new Promise((r) => setTimeout(r, 50));
    expect(() => x.run(null as never, 0, Fn.Add, 0, 0, 0, 0, 4, 1, 4)).toThrow(WasmThreadError);
  });
});

describe('without shared memory', () => {
  it('falls back to one thread and the plain SIMD128 build', () => {
    const g = globalThis as { SharedArrayBuffer?: unknown };
    const saved = g.SharedArrayBuffer;
    delete g.SharedArrayBuffer;
    try {
      const w = loadWasmKernelsSync({ threads: 4 });
      expect(w.threads).toBe(1);
      expect(w.variant).toBe('simd');
      expect(w.pool).toBeNull();
    } finally {
      g.SharedArrayBuffer = saved;
    }
  });
});
