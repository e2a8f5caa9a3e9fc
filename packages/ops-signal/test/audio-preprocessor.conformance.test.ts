/**
 * The audio_preprocessor_int8 conformance model (TFLM's micro_speech front end: window, FFT, energy,
 * mel filterbank, noise reduction, PCAN, log) end to end through the MicroInterpreter with
 * ops-reference + ops-signal: all three cases byte-equal to TFLM and every intermediate of case 0 equal
 * (test-support's describeConformanceModels), the noise-estimate state reset between runs, and invoke()
 * allocation-free.
 */
import { describe, expect, it } from 'vitest';
import { OpResolver } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { SKIP_REASON, hasConformance, makeInterpreter, setCaseInputs } from '@micrort/test-support/conformance';
import { describeConformanceModels } from '@micrort/test-support/conformance-models-suite';
import { measureAllocation } from '@micrort/test-support/alloc';
import { PROVIDER, registerSignalOps } from '../src/index.js';

const MODEL = 'audio_preprocessor_int8';

function resolver(): OpResolver {
  return registerSignalOps(registerReferenceOps(new OpResolver()));
}

describeConformanceModels({ label: 'ops-signal', provider: PROVIDER, resolver, models: [MODEL], requireServed: true });

describe.skipIf(!hasConformance)(`${MODEL} through ops-reference + ops-signal${hasConformance ? '' : ` (${SKIP_REASON})`}`, () => {
  it('keeps the noise estimate across invokes and reset() restores the first result', () => {
    const interp = makeInterpreter(MODEL, { resolver });
    setCaseInputs(interp, MODEL, 0);
    interp.invoke();
    const first = Uint8Array.from(interp.output(0).bytes);
    const noise = interp.tensor(32).data as Uint32Array; // signal_filter_bank_spectral_subtraction1
    const firstNoise = Uint32Array.from(noise);
    // the planner reuses the input's memory after its last reader: set it again before each invoke
    setCaseInputs(interp, MODEL, 0);
    interp.invoke();
    expect(Array.from(noise)).not.toEqual(Array.from(firstNoise));
    interp.reset();
    setCaseInputs(interp, MODEL, 0);
    interp.invoke();
    expect(Array.from(interp.output(0).bytes)).toEqual(Array.from(first));
    expect(Array.from(noise)).toEqual(Array.from(firstNoise));
  });

  it('invoke() of the whole model allocates nothing', () => {
    const interp = makeInterpreter(MODEL, { resolver });
    setCaseInputs(interp, MODEL, 0);
    const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 5, iterations: 200 });
    expect(m.medianTrialBytes, `heap deltas per 200 invokes: ${m.deltas.join(', ')}`).toBeLessThan(2048);
  });
});
