/**
 * Nodes whose inputs have data-dependent shapes (WHERE, UNIQUE, NON_MAX_SUPPRESSION → SLICE, TOPK_V2 with
 * a runtime k: core's declareShapeBound / setActualShape) with ops-wasm in front of ops-reference, as
 * `--ops wasm` composes them. ops-wasm's kernels size their work in prepare (no
 * `Registration.dynamicInputShapes`), and the producer's bound is known only after the provider was
 * chosen, so core asks the next provider before such a node prepares: ops-reference's CONCATENATION,
 * RELU, RELU6, LOGISTIC, HARD_SWISH (which follow actual dims) serve them, and `nodes()` / `check()` say
 * why ops-wasm left them. Every output (dims and bytes) equals ops-reference's alone, invoke after invoke.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel, type ArenaBacking } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { booleanMaskModel, nmsInputs, nmsTailModel, runtimeTopKModel } from '@micrort/test-support/data-dependent-models';
import { PROVIDER, loadWasmKernelsSync } from '../src/index.js';

const wasm = loadWasmKernelsSync({ threads: 1 });
afterAll(() => wasm.dispose());

function interpreter(bytes: Uint8Array, withWasm: boolean): MicroInterpreter {
  const resolver = registerReferenceOps(new OpResolver());
  if (withWasm) resolver.registerAll(wasm.kernels, { fallback: true });
  const backing: { arenaBacking?: ArenaBacking } = withWasm ? { arenaBacking: wasm.arenaBacking } : {};
  return new MicroInterpreter(loadModel(bytes), resolver, { planner: createPlanner('greedy'), arena: 'auto', ...backing });
}

/** Runs both interpreters over `sets`, comparing every output's dims and bytes; returns output `watch`'s dims per run. */
function compareWithReference(bytes: Uint8Array, sets: ArrayBufferView[][], watch = 0): string[] {
  const ours = interpreter(bytes, true).allocateTensors();
  const ref = interpreter(bytes, false).allocateTensors();
  const seen: string[] = [];
  for (const inputs of sets) {
    inputs.forEach((x, i) => {
      const raw = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
      ours.setInput(i, raw);
      ref.setInput(i, raw);
    });
    ours.invoke();
    ref.invoke();
    for (let j = 0; j < ref.outputsSize; j++) {
      const a = ours.output(j);
      const b = ref.output(j);
      expect(Array.from(a.dims), `output ${j} dims`).toEqual(Array.from(b.dims));
      expect(a.bytes.slice(0, a.byteLength), `output ${j} bytes`).toEqual(b.bytes.slice(0, b.byteLength));
    }
    seen.push(Array.from(ours.output(watch).dims).join('x'));
  }
  ours.dispose();
  ref.dispose();
  return seen;
}

/** The provider serving each node of `op` and ops-wasm's reason for leaving it. */
function servedBy(bytes: Uint8Array, op: string): { provider: string; reason: string | undefined }[] {
  const interp = interpreter(bytes, true).allocateTensors();
  const out = interp
    .nodes()
    .filter((n) => n.op === op)
    .map((n) => ({ provider: n.provider, reason: n.declined?.find((d) => d.provider === PROVIDER)?.reason }));
  interp.dispose();
  return out;
}

describe('data-dependent input shapes with ops-wasm in front: the next provider serves the node', () => {
  for (const v5 of [false, true]) {
    const op = v5 ? 'NON_MAX_SUPPRESSION_V5' : 'NON_MAX_SUPPRESSION_V4';
    it(`${op} → SLICE → GATHER → EXPAND_DIMS → CONCATENATION (constant and runtime max_output_size)`, () => {
      const bytes = nmsTailModel({ v5 });
      expect(servedBy(bytes, 'CONCATENATION')).toEqual([
        {
          provider: '@micrort/ops-reference',
          reason: expect.stringMatching(/^input 0 \(tensor \d+, kept_boxes\) has a shape that depends on data \(at most \[5, 4\]\)/),
        },
      ]);
      const sets = [1, 2, 3, 4].map((seed) => {
        const { boxes, scores } = nmsInputs(8, seed);
        if (seed === 4) scores.fill(0.05); // nothing above the score threshold
        return [boxes, scores];
      });
      const kept = compareWithReference(bytes, sets);
      expect(kept[3]).toBe('0x4');
      expect(new Set(kept).size).toBeGreaterThan(1);
      const { boxes, scores } = nmsInputs(8, 7);
      const runtime = [5, 0, 8, 2].map((m) => [boxes, scores, Int32Array.from([m])]);
      expect(compareWithReference(nmsTailModel({ v5, maxOutput: 'input' }), runtime, 2)).toEqual(['5', '0', '8', '2']);
    });
  }

  it('WHERE → GATHER → RELU, RELU6, LOGISTIC, HARD_SWISH (ops-wasm has float kernels for each)', () => {
    const sets = [
      [1.5, -2, 3.25, -4, 0.5, 0, 7, -8],
      [-1, -2, -3, -4, -5, -6, -7, -8],
      [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
    ].map((v) => [Float32Array.from(v)]);
    for (const op of ['RELU', 'RELU6', 'LOGISTIC', 'HARD_SWISH'] as const) {
      const bytes = booleanMaskModel(8, BuiltinOperator[op]);
      expect(servedBy(bytes, op), op).toEqual([
        {
          provider: '@micrort/ops-reference',
          reason: expect.stringMatching(/positives\) has a shape that depends on data \(at most \[8\]\)/),
        },
      ]);
      expect(compareWithReference(bytes, sets), op).toEqual(['4', '0', '8']);
    }
  });

  it('TOPK_V2 with a runtime k → RELU', () => {
    const x = Float32Array.from([0.5, -1, 3, 3, 0, 2, -4, 1, 1, -1, 6, 0.25]);
    const sets = [3, 0, 6, 1].map((k) => [x, Int32Array.from([k])]);
    expect(compareWithReference(runtimeTopKModel(2, 6), sets)).toEqual(['2x3', '2x0', '2x6', '2x1']);
  });

  it('the same ops on fixed shapes stay on ops-wasm', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [8] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [8] });
    const z = b.addTensor({ name: 'z', type: TensorType.FLOAT32, shape: [16] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
    b.addOperator({ op: BuiltinOperator.CONCATENATION, inputs: [x, y], outputs: [z], options: { axis: 0, fusedActivationFunction: 0 } });
    const bytes = b.setInputs([x]).setOutputs([z]).build();
    expect([...servedBy(bytes, 'RELU'), ...servedBy(bytes, 'CONCATENATION')]).toEqual([
      { provider: PROVIDER, reason: undefined },
      { provider: PROVIDER, reason: undefined },
    ]);
  });
});
