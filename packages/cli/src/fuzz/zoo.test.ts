import { MicroInterpreter, TensorType, loadModel, writeModel, type ModelDef } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { composeOps } from '../runtime.js';
import { describe, expect, it } from 'vitest';
import { GUARD_SKIPPED, executeCase, resizeDynamicInputs } from './execute.js';
import { generateCase } from './generate.js';
import { buildCorpus } from './corpus.js';
import { DEF_MUTATORS, cloneDef } from './mutate-def.js';
import { Rng } from './rng.js';
import { zooModels } from './zoo.js';

const zoo = zooModels();
const seed = (name: string) => zoo.find((m) => m.name === name)!;

/** The seed families of issue 20: dynamic shapes, strings, hybrid, composite and blockwise weights. */
const FAMILIES = ['zoo:dynamic_batch', 'zoo:dynamic_dilated_conv', 'zoo:strings', 'zoo:hybrid', 'zoo:composite', 'zoo:blockwise'];

function interpreter(bytes: Uint8Array, ops = 'reference'): MicroInterpreter {
  const runtime = composeOps(ops);
  return runtime.createInterpreter(loadModel(bytes), { ...runtime.interpreterOptions, planner: createPlanner('greedy') });
}

describe('fuzz seed zoo', () => {
  it.each(zoo.map((m) => [m.name, m] as const))('%s loads, allocates, invokes and passes the determinism and guard checks', (_, m) => {
    // Stored shapes (no resizing): every seed must run as written.
    expect(executeCase(m.bytes, { maxArenaBytes: 1 << 22, inputSeed: 1, resizeInputs: false })).toMatchObject({ result: 'ok' });
  });

  it.each(FAMILIES)('%s runs with the WebAssembly kernels too (determinism re-run in WebAssembly memory, no guard views)', (name) => {
    expect(executeCase(seed(name).bytes, { maxArenaBytes: 1 << 22, inputSeed: 2, resizeInputs: false, ops: 'wasm' })).toMatchObject({
      result: 'ok',
      detail: GUARD_SKIPPED,
    });
  });

  it('the families of issue 20 are all in the zoo', () => {
    expect(zoo.map((m) => m.name)).toEqual(expect.arrayContaining(FAMILIES));
  });
});

describe('dynamic-shape seeds', () => {
  it('the stored model keeps -1 signatures, placeholder and empty shapes', () => {
    const def = loadModel(seed('zoo:dynamic_batch').bytes);
    const sg = def.subgraphs[0]!;
    expect(Array.from(sg.tensors[sg.inputs[0]!]!.shapeSignature!)).toEqual([-1, 4]);
    expect(Array.from(sg.tensors[sg.outputs[0]!]!.shape)).toEqual([]);
  });

  it('dynamic_batch resized to batch 3: the shape subgraph is folded in prepare and the empty output is sized [2, 3, 2, 3]', () => {
    const interp = interpreter(seed('zoo:dynamic_batch').bytes);
    interp.resizeInputTensor(0, [3, 4]);
    interp.allocateTensors();
    (interp.input(0).data as Float32Array).set(Float32Array.from({ length: 12 }, (_, i) => i / 12));
    interp.invoke();
    expect(Array.from(interp.output(0).dims)).toEqual([2, 3, 2, 3]);
    expect(Array.from(interp.output(1).dims)).toEqual([3, 6]);
    // out[k, b] = reshape(fc)[b] + [1, 2, 3] for both copies k: the broadcast repeats the batch.
    const out = interp.output(0).data as Float32Array;
    expect(Array.from(out.subarray(0, 18))).toEqual(Array.from(out.subarray(18, 36)));
  });

  it('dynamic_dilated_conv resized to [2, 11, 10, 2] gives [2, 7, 6, 3] (paddings and crops from SHAPE)', () => {
    const interp = interpreter(seed('zoo:dynamic_dilated_conv').bytes);
    interp.resizeInputTensor(0, [2, 11, 10, 2]);
    interp.allocateTensors();
    interp.invoke();
    expect(Array.from(interp.output(0).dims)).toEqual([2, 7, 6, 3]);
  });

  it.each(['zoo:dynamic_batch', 'zoo:dynamic_dilated_conv'])('%s: the fuzzer resizes its -1 input and the case runs', (name) => {
    const outcomes: string[] = [];
    for (let inputSeed = 1; inputSeed <= 12; inputSeed++) {
      const interp = interpreter(seed(name).bytes);
      const resized = resizeDynamicInputs(interp, inputSeed);
      const o = executeCase(seed(name).bytes, { maxArenaBytes: 1 << 22, inputSeed });
      expect(o.result, `${resized}: ${o.message}`).not.toBe('failure');
      if (resized && o.result === 'ok') outcomes.push(resized);
    }
    expect(new Set(outcomes).size).toBeGreaterThan(1);
  });
});

describe('string seed', () => {
  it('gathers strings, looks them up both ways and reads a string input', () => {
    const interp = interpreter(seed('zoo:strings').bytes).allocateTensors();
    (interp.input(0).data as Int32Array).set([0, 3, 9]); // 9 is clamped to 4
    interp.setInputStrings(1, ['zeta', 'nope']);
    interp.invoke();
    expect(interp.outputStrings(0)).toEqual(['ten', '?', 'forty']);
    expect(Array.from(interp.output(1).data as BigInt64Array)).toEqual([10n, 30n, 40n]);
    expect(Array.from(interp.output(2).data as BigInt64Array)).toEqual([99n, -7n]);
    expect(Array.from(interp.output(3).data as BigInt64Array)).toEqual([4n]);
  });
});

describe('hybrid and blockwise seeds', () => {
  it('hybrid: float32 activations with int8 per-tensor and per-channel weights', () => {
    const def = loadModel(seed('zoo:hybrid').bytes);
    const weights = def.subgraphs[0]!.tensors.filter((t) => t.type === TensorType.INT8);
    expect(weights.map((t) => t.quantization!.scale.length)).toEqual([1, 5, 4, 4, 5]);
    const sg = def.subgraphs[0]!;
    expect(Array.from(sg.outputs, (i) => sg.tensors[i]!.type)).toEqual([TensorType.FLOAT32, TensorType.FLOAT32, TensorType.FLOAT32]);
  });

  it('blockwise: int4 weights whose float16 scales are another tensor survive the fuzzer’s clone and rewrite', () => {
    const def = loadModel(seed('zoo:blockwise').bytes);
    const again = loadModel(writeModel(cloneDef(def)));
    const blockwise = (d: ModelDef) =>
      d.subgraphs[0]!.tensors.filter((t) => t.quantization?.details?.kind === 'blockwise').map((t) => t.quantization!.details);
    expect(blockwise(def)).toHaveLength(2);
    expect(blockwise(again)).toEqual(blockwise(def));
  });
});

describe('mutating the new seeds', () => {
  const corpus = buildCorpus({ conformanceDir: null, models: FAMILIES });

  it.each(FAMILIES)('every structure-aware mutator that applies to %s writes a model the pipeline handles', (name) => {
    const def = loadModel(seed(name).bytes);
    const rng = new Rng(20, FAMILIES.indexOf(name));
    const applied: string[] = [];
    for (const [mutator, , label] of DEF_MUTATORS) {
      for (let k = 0; k < 6; k++) {
        const copy = cloneDef(def);
        if (mutator(copy, rng) === null) continue;
        applied.push(label);
        let bytes: Uint8Array;
        try {
          bytes = writeModel(copy);
        } catch {
          continue; // the writer refuses some impossible defs; the campaign then runs the seed's bytes
        }
        const o = executeCase(bytes, { maxArenaBytes: 1 << 22, inputSeed: k + 1 });
        expect(o.result, `${label}: ${o.failure} ${o.message ?? ''} ${o.detail ?? ''}`).not.toBe('failure');
      }
    }
    // (zoo:composite keeps its constants in the decomposition subgraphs, which mutations pick less often)
    const expected = ['shape', 'shape signature', 'type', 'quantization', 'operator tensor indices', 'options'];
    for (const label of name === 'zoo:composite' ? expected : [...expected, 'constant data']) expect(applied, label).toContain(label);
  });

  it('generated cases of the new seeds (def, bytes and both) end ok or in a typed error', () => {
    const failures: string[] = [];
    const models = new Set<string>();
    for (let index = 0; index < 300; index++) {
      const c = generateCase(corpus, 2020, index);
      models.add(c.model);
      const o = executeCase(c.bytes, { maxArenaBytes: c.maxArenaBytes, inputSeed: c.inputSeed, inPlace: c.inPlace });
      if (o.result === 'failure')
        failures.push(`${c.model} case ${index}: ${o.failure} ${o.message ?? ''} ${o.detail ?? ''} (${c.mutations.join('; ')})`);
    }
    expect(failures).toEqual([]);
    expect([...models].sort()).toEqual([...FAMILIES].sort());
  });

  it.each(['zoo:composite', 'zoo:stablehlo'])('%s keeps its builtin_options_2 through the clone and rewrite, and they mutate', (name) => {
    const def = loadModel(seed(name).bytes);
    const options2 = (d: ModelDef) =>
      JSON.stringify(
        d.subgraphs.map((sg) => sg.operators.map((o) => o.builtinOptions2 ?? null)),
        (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v),
      );
    expect(options2(loadModel(writeModel(cloneDef(def))))).toBe(options2(def));
    const options = DEF_MUTATORS.find(([, , l]) => l === 'options')![0];
    const rng = new Rng(7, 7);
    const seen: string[] = [];
    for (let k = 0; k < 200; k++) seen.push(options(cloneDef(def), rng) ?? '');
    expect(seen.some((w) => w.includes('.builtin_options_2.'))).toBe(true);
  });

  it('the blockwise details mutate (scale index, zero points, block size)', () => {
    const def = loadModel(seed('zoo:blockwise').bytes);
    const quantization = DEF_MUTATORS.find(([, , l]) => l === 'quantization')![0];
    const rng = new Rng(5, 5);
    const seen = new Set<string>();
    for (let k = 0; k < 400; k++) {
      const what = quantization(cloneDef(def), rng);
      const m = what?.match(/details(\.\w+)?/);
      if (m) seen.add(m[0]);
    }
    expect([...seen].sort()).toEqual(['details', 'details.block_size', 'details.scales', 'details.zero_points']);
  });
});
