/**
 * ops-wasm inside the interpreter: the arena in WebAssembly memory, zero-copy tensors, packed weights
 * counted in the arena report, nothing allocated per invoke, several interpreters side by side, a clear
 * error without the arena backing, and a clear refusal where SIMD128 is missing.
 */
import { describe, expect, it } from 'vitest';
import { KernelError, MicroInterpreter, OpResolver, Padding } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import {
  buildChain,
  buildConv,
  buildLstm,
  buildUint8Chain,
  randomConvCase,
  randomRowsConvCase,
  runBoth,
  wasm,
} from '../src/__tests__/single-op.js';
import { PROVIDER, WasmUnsupportedError, detectFeatures, isWasmArena, loadWasmKernels, requireFeatures } from '../src/index.js';

function wasmInterpreter(def = buildChain().def) {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  return new MicroInterpreter(def, resolver, { planner: createPlanner('greedy'), arenaBacking: wasm().arenaBacking }).allocateTensors();
}

describe('ops-wasm in the interpreter', () => {
  it('serves every node of the chain, in place in WebAssembly memory, with the outputs of ops-reference', () => {
    const { def, input } = buildChain();
    const it_ = wasmInterpreter(def);
    expect(it_.nodes().map((n) => n.provider)).toEqual(Array(5).fill(PROVIDER));
    expect(isWasmArena(it_.input(0).data.buffer)).toBe(true);
    expect(it_.output(0).data.buffer).toBe(it_.input(0).data.buffer);
    const r = runBoth(def, [input]);
    expect(r.got[0]).toEqual(r.ref[0]);
  });

  it('counts the packed weights in the arena report (persistent bytes per node)', () => {
    const { def } = buildChain();
    const reference = new MicroInterpreter(def, registerReferenceOps(new OpResolver()), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    const it_ = wasmInterpreter(def);
    const u = it_.arenaUsage();
    const conv = u.perNode.find((n) => n.op === 'CONV_2D')!;
    const fc = u.perNode.find((n) => n.op === 'FULLY_CONNECTED')!;
    // CONV_2D: 7 channels x 9 taps x 8 (5 input channels rounded up) packed weights plus requantization blocks
    expect(conv.persistentBytes).toBeGreaterThan(7 * 9 * 8);
    // FULLY_CONNECTED: 10 x 448 packed weights plus requantization blocks
    expect(fc.persistentBytes).toBeGreaterThan(10 * 448);
    expect(u.persistentBufferBytes).toBeGreaterThan(reference.arenaUsage().persistentBufferBytes + 10 * 448);
    expect(u.arenaBytes).toBeGreaterThanOrEqual(u.usedBytes);
  });

  it('invoke() allocates nothing', () => {
    const { input } = buildChain();
    const it_ = wasmInterpreter();
    it_.setInput(0, input);
    const m = measureAllocation(() => it_.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('a uint8 network (QUANTIZE, PAD, MAX_POOL_2D, MUL, CONCATENATION, AVERAGE_POOL_2D, MEAN, SOFTMAX, DEQUANTIZE) runs wholly on ops-wasm with the outputs of ops-reference, and its invoke allocates nothing', () => {
    const { def, input } = buildUint8Chain();
    const it_ = wasmInterpreter(def);
    expect(it_.nodes().map((n) => n.provider)).toEqual(Array(10).fill(PROVIDER));
    const r = runBoth(def, [input]);
    expect(r.served).toBe(10);
    expect(r.got).toEqual(r.ref);
    // the softmax is not degenerate: several classes get a share
    expect(new Set(r.ref[1]).size).toBeGreaterThan(2);
    it_.input(0).bytes.set(new Uint8Array(input.buffer));
    const m = measureAllocation(() => it_.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('an int8 LSTM invoke (one qs8_lstm call, time-major with several batches) allocates nothing', () => {
    const { def, inputs } = buildLstm(5, { timeMajor: true, B: 2 });
    const it_ = wasmInterpreter(def);
    expect(it_.nodes()[0]!.provider).toBe(PROVIDER);
    it_.input(0).bytes.set(new Uint8Array(inputs[0]!.buffer));
    const m = measureAllocation(() => it_.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('an int8 CONV_2D in the rows layout (3x3 over 3 channels, windows in the padding too) equals ops-reference and its invoke allocates nothing', () => {
    const c = { ...randomRowsConvCase(2), kH: 3, kW: 3, inC: 3, inH: 13, inW: 13, padding: Padding.SAME, batches: 1 };
    const { def, input } = buildConv(c)!;
    const it_ = wasmInterpreter(def);
    expect(it_.nodes()[0]!.provider).toBe(PROVIDER);
    const r = runBoth(def, [input]);
    expect(r.got, JSON.stringify(c)).toEqual(r.ref);
    it_.input(0).bytes.set(new Uint8Array(input.buffer));
    const m = measureAllocation(() => it_.invoke(), { warmup: 500, trials: 7, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('several interpreters coexist, each with its own memory, and stay correct when interleaved', () => {
    const chain = buildChain(11);
    const conv = buildConv({ ...randomConvCase(3, false), inH: 9, inW: 9, seed: 3 })!;
    const a = wasmInterpreter(chain.def);
    const b = wasmInterpreter(conv.def);
    const c = wasmInterpreter(chain.def);
    expect(new Set([a, b, c].map((i) => i.input(0).data.buffer)).size).toBe(3);
    const expectA = runBoth(chain.def, [chain.input]).ref[0];
    const expectB = runBoth(conv.def, [conv.input]).ref[0];
    for (let round = 0; round < 3; round++) {
      a.setInput(0, chain.input);
      b.setInput(0, conv.input);
      c.setInput(0, chain.input);
      a.invoke();
      b.invoke();
      c.invoke();
      expect(Int8Array.from(a.output(0).data as Int8Array)).toEqual(expectA);
      expect(Int8Array.from(b.output(0).data as Int8Array)).toEqual(expectB);
      expect(Int8Array.from(c.output(0).data as Int8Array)).toEqual(expectA);
    }
  });

  it('without the arena backing, prepare fails with a KernelError that says what to pass', () => {
    const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
    const it_ = new MicroInterpreter(buildChain().def, resolver, { planner: createPlanner('greedy'), arena: 1 << 20 });
    expect(() => it_.allocateTensors()).toThrow(KernelError);
    const again = new MicroInterpreter(buildChain().def, resolver, { planner: createPlanner('greedy') });
    expect(() => again.allocateTensors()).toThrow(/arenaBacking: wasm.arenaBacking/);
  });

  it('declines with WasmUnsupportedError where WebAssembly.validate refuses SIMD128, and where there is no WebAssembly', async () => {
    const noSimd = detectFeatures(() => false);
    expect(noSimd).toEqual({ webAssembly: true, simd128: false, relaxedSimd: false });
    expect(() => requireFeatures(noSimd)).toThrow(WasmUnsupportedError);
    expect(() => requireFeatures(noSimd)).toThrow(/lacks SIMD128/);
    expect(() => requireFeatures(detectFeatures(null))).toThrow(/no WebAssembly/);
    await expect(loadWasmKernels({ validate: () => false })).rejects.toThrow(WasmUnsupportedError);
    expect(detectFeatures().simd128).toBe(true); // Node 20 has it
    const loaded = await loadWasmKernels();
    expect(loaded.kernels.length).toBeGreaterThan(0);
  });
});
