import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, KernelError, MicroInterpreter, OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { buildLstm, int8s, rng, runBoth, wasm, type LstmCase } from '../__tests__/single-op.js';
import { PROVIDER } from '../provider.js';

/** Outputs of several invokes in a row (the states carried from one to the next), with or without ops-wasm. */
function runSequence(def: ReturnType<typeof buildLstm>['def'], inputs: Int8Array[], withWasm: boolean) {
  const resolver = registerReferenceOps(new OpResolver());
  if (withWasm) resolver.registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(withWasm ? { arenaBacking: wasm().arenaBacking } : {}),
  }).allocateTensors();
  const outs = inputs.map((x) => {
    it_.input(0).bytes.set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
    it_.invoke();
    return Int8Array.from(it_.output(0).bytes);
  });
  return { outs, provider: it_.nodes()[0]!.provider, check: JSON.stringify(it_.check()) };
}

/** Asserts that ops-wasm serves the LSTM of `seed` / `fixed` and matches ops-reference over three invokes. */
function expectExact(seed: number, fixed: Partial<LstmCase> = {}): void {
  const m = buildLstm(seed, fixed);
  const r = rng(seed + 1000);
  const n = m.inputs[0]!.length;
  const inputs = [m.inputs[0]!, int8s(r, n), int8s(r, n)];
  const ref = runSequence(m.def, inputs, false);
  const got = runSequence(m.def, inputs, true);
  expect(got.provider, m.desc).toBe(PROVIDER);
  expect(got.outs, m.desc).toEqual(ref.outs);
}

describe('UNIDIRECTIONAL_SEQUENCE_LSTM int8 (qs8_lstm) equals ops-reference byte for byte', () => {
  it('on 60 random LSTMs: odd input and state sizes, several batches, batch- or time-major, cell clipping', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const m = buildLstm(seed);
      const r = runBoth(m.def, m.inputs);
      expect(r.served, m.desc).toBe(1);
      expect(r.got[0], m.desc).toEqual(r.ref[0]);
    }
  });

  it('over three invokes in a row (the hidden and cell states carried over), every branch of the step', () => {
    let seed = 100;
    for (const timeMajor of [false, true])
      for (const B of [1, 3])
        for (const cellClip of [0, 0.5, 3]) for (const S of [1, 8, 13, 16, 37]) expectExact(seed++, { timeMajor, B, cellClip, S, T: 4 });
  });

  it('cell scales across the tanh rescaling (right shift, multiplier 3 << shift up to 24576, non-powers of two) and hidden scales that make left shifts', () => {
    let seed = 300;
    for (const cellScale of [2 ** -16, 2 ** -13, 2 ** -11, 0.00037, 2 ** -2, 0.7, 2]) expectExact(seed++, { cellScale, cellClip: 0 });
    // the output gate x tanh(cell) product into the hidden state: (2^-30 / 2^-33) = 8, a left shift of 3 (int32 wrap as TFLM)
    for (const hiddenScale of [2 ** -33, 2 ** -31, 1e-5, 0.05]) expectExact(seed++, { hiddenScale, S: 21 });
  });

  it('declines a cell scale whose tanh rescaling leaves int16 (ops-reference serves it, same bytes)', () => {
    const m = buildLstm(7, { cellScale: 4, S: 5 });
    const got = runSequence(m.def, m.inputs, true);
    expect(got.provider).toBe('@micrort/ops-reference');
    expect(got.check).toMatch(/tanh rescaling multiplier 49152 does not fit in int16/);
    expect(got.outs).toEqual(runSequence(m.def, m.inputs, false).outs);
  });

  it('throws a KernelError, as ops-reference and TFLM do, for a cell gate activation other than TANH', () => {
    const m = buildLstm(9, { activation: ActivationFunctionType.RELU });
    expect(() => runSequence(m.def, m.inputs, true)).toThrow(KernelError);
    expect(() => runSequence(m.def, m.inputs, true)).toThrow(/cell gate activation RELU/);
    expect(() => runSequence(m.def, m.inputs, false)).toThrow(/cell gate activation RELU/);
  });
});
