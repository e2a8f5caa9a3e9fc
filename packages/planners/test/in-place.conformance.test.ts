/**
 * In-place mode on the real models (reference kernels, plus ops-signal for the audio preprocessor): with
 * `inPlace: true` every output the allocator pairs with a dying input is run on that input's bytes (a
 * test planner that always shares), and the results stay bit-exact with TFLM (float32 within the
 * tolerance); greedy and optimal with in-place pairs give valid plans never larger than without them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, inPlacePartners, type BufferRequirement, type MemoryPlan, type MemoryPlanner } from '@micrort/core';
import { createPlanner, lowerBound } from '@micrort/planners';
import {
  CONFORMANCE_DIR,
  SKIP_REASON,
  compareBytes,
  hasConformance,
  listModels,
  loadConformanceModel,
  readBytes,
  readManifest,
  referenceResolver,
  setCaseInputs,
} from '@micrort/test-support/conformance';

/**
 * Plans each in-place chain as one buffer (its first input widened to the chain's lifetime and largest
 * size) with greedy, then puts every output of the chain at that offset: every pair the allocator permits
 * is really aliased, which exercises each declared kernel on real data. The interpreter validates it.
 */
class AlwaysShare implements MemoryPlanner {
  readonly name = 'always-share';
  plan(buffers: readonly BufferRequirement[], options: { alignment: number }): MemoryPlan {
    const partner = inPlacePartners(buffers);
    // Plan the pairs as one buffer: drop each output and let its input cover both lifetimes.
    const merged = buffers.map((b) => ({ ...b, inPlaceOf: undefined }));
    const root = (i: number): number => (partner[i]! >= 0 ? root(partner[i]!) : i);
    buffers.forEach((b, i) => {
      if (partner[i]! < 0) return;
      const r = merged[root(i)]!;
      r.lastUsed = Math.max(r.lastUsed, b.lastUsed);
      r.size = Math.max(r.size, b.size);
    });
    const kept = buffers.map((_, i) => i).filter((i) => partner[i]! < 0);
    const base = createPlanner('greedy').plan(
      kept.map((i) => merged[i]!),
      options,
    );
    const offsets = new Int32Array(buffers.length);
    kept.forEach((i, k) => (offsets[i] = base.offsets[k]!));
    buffers.forEach((_, i) => partner[i]! >= 0 && (offsets[i] = offsets[root(i)]!));
    return { offsets, headBytes: base.headBytes };
  }
}

function allocateInPlace(name: string, planner: MemoryPlanner): MicroInterpreter {
  return new MicroInterpreter(loadConformanceModel(name), referenceResolver(), { planner, inPlace: true }).allocateTensors();
}

function runInPlace(name: string, planner: MemoryPlanner) {
  const interp = allocateInPlace(name, planner);
  setCaseInputs(interp, name, 0);
  interp.invoke();
  const m = readManifest(name);
  const outputs = m.cases[0]!.outputs.map((spec, j) =>
    compareBytes(spec.dtype, interp.output(j).bytes, readBytes(join(CONFORMANCE_DIR!, name, 'case0', spec.file)), j),
  );
  return { interp, outputs };
}

const strip = (reqs: readonly BufferRequirement[]) => reqs.map(({ inPlaceOf: _drop, ...r }) => r);

describe.skipIf(!hasConformance)('in-place planning on the conformance models', () => {
  it.each(hasConformance ? listModels() : [])('%s: every pair aliased, same outputs', (name) => {
    const { interp, outputs } = runInPlace(name, new AlwaysShare());
    expect(
      outputs.every((o) => o.pass),
      JSON.stringify(outputs),
    ).toBe(true);
    for (const p of interp.memoryPlan().inPlacePairs)
      expect(interp.tensor(p.output).bytes.byteOffset, `t${p.output} on t${p.input}`).toBe(interp.tensor(p.input).bytes.byteOffset);
  });

  it.each(hasConformance ? listModels() : [])('%s: greedy and optimal with pairs: valid, no larger than without', (name) => {
    for (const plannerName of ['greedy', 'optimal']) {
      const { requirements, plan } = allocateInPlace(name, createPlanner(plannerName)).memoryPlan();
      const plain = strip(requirements);
      expect(plan.headBytes, plannerName).toBeLessThanOrEqual(createPlanner(plannerName).plan(plain, { alignment: 16 }).headBytes);
      expect(plan.headBytes).toBeGreaterThanOrEqual(lowerBound(requirements));
      expect(lowerBound(requirements)).toBeLessThanOrEqual(lowerBound(plain));
    }
  });

  it('pairs exist where the graph allows them, never on graph inputs', () => {
    const pairs = (name: string) => allocateInPlace(name, createPlanner('greedy')).memoryPlan().inPlacePairs;
    expect(pairs('mobilenet_v2_quantized_1x3x224x224').length).toBe(11); // 10 residual ADDs + RESHAPE
    expect(pairs('person_detect').length).toBe(2); // RESHAPE, then SOFTMAX into the graph output
    expect(pairs('dtln_noise_suppression').length).toBe(1); // LOGISTIC
    expect(pairs('audio_preprocessor_int8').length).toBe(9); // RESHAPE, 2 CAST, MUL, ADD, DIV, ADD, MINIMUM, MAXIMUM
    expect(pairs('simple_add_model')).toEqual([]); // its ADD reads the graph inputs
  });
});

if (!hasConformance) {
  describe('in-place planning on the conformance models', () => {
    it.skip(SKIP_REASON, () => {});
  });
}
