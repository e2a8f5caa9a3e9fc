/**
 * "invoke() allocates nothing" on the data-dependent-shape models (test-support's
 * data-dependent-models.ts): each model is invoked over inputs that alternate between two actual output
 * sizes, so every invoke sets new actual dims (in place, over the bytes planned at the bound).
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { referenceResolver } from '@micrort/test-support/conformance';
import {
  booleanMaskModel,
  dataDependentConsumersModel,
  maskedBinaryModel,
  maskedModel,
  nmsInputs,
  nmsTailModel,
  runtimeTopKModel,
  uniqueCountModel,
  valuesOf,
  whereGatherNdModel,
} from '@micrort/test-support/data-dependent-models';
import { BuiltinOperator, TensorType } from '@micrort/core';

type Inputs = ArrayBufferView[];

/** An interpreter of `bytes` and an invoke that alternates between input sets `a` and `b`. */
function alternating(bytes: Uint8Array, a: Inputs, b: Inputs): { interp: MicroInterpreter; run: () => void; dims: () => string } {
  const interp = new MicroInterpreter(loadModel(bytes), referenceResolver(), { planner: createPlanner('greedy'), arena: 'auto' });
  interp.allocateTensors();
  const targets = a.map((_, i) => interp.input(i).data as unknown as { set(v: ArrayLike<number>): void });
  let k = 0;
  const run = () => {
    const inputs = (k ^= 1) === 1 ? a : b;
    for (let i = 0; i < inputs.length; i++) targets[i]!.set(inputs[i] as unknown as ArrayLike<number>);
    interp.invoke();
  };
  return { interp, run, dims: () => Array.from(interp.output(0).dims).join('x') };
}

const nms = (seed: number, m?: number): Inputs => {
  const { boxes, scores } = nmsInputs(8, seed);
  if (seed === 2) scores.forEach((_, i) => (scores[i] = i === 1 ? 0.9 : 0.05));
  return m === undefined ? [boxes, scores] : [boxes, scores, Int32Array.from([m])];
};

const CASES: [string, () => ReturnType<typeof alternating>][] = [
  [
    'boolean mask (WHERE → SQUEEZE → CAST → GATHER → NEG, SHAPE)',
    () =>
      alternating(
        booleanMaskModel(8),
        [Float32Array.from([1, -2, 3, -4, 5, 0, 7, -8])],
        [Float32Array.from([-1, -2, -3, 4, -5, -6, -7, -8])],
      ),
  ],
  [
    'UNIQUE → CAST, SHAPE',
    () =>
      alternating(
        uniqueCountModel(10),
        [Int32Array.from([3, 1, 3, 2, 1, 7, 7, 3, 0, 2])],
        [Int32Array.from([5, 5, 5, 5, 5, 5, 5, 5, 5, 6])],
      ),
  ],
  [
    'TOPK_V2 with a runtime k → RELU',
    () => {
      const x = Float32Array.from([0.5, -1, 3, 3, 0, 2, -4, 1, 1, -1, 6, 0.25]);
      return alternating(runtimeTopKModel(2, 6), [x, Int32Array.from([4])], [x, Int32Array.from([1])]);
    },
  ],
  ['NON_MAX_SUPPRESSION_V4 → SLICE → GATHER', () => alternating(nmsTailModel(), nms(1), nms(2))],
  ['NON_MAX_SUPPRESSION_V5 → SLICE → GATHER', () => alternating(nmsTailModel({ v5: true }), nms(1), nms(2))],
  [
    'NON_MAX_SUPPRESSION_V5, runtime max_output_size',
    () => alternating(nmsTailModel({ v5: true, maxOutput: 'input' }), nms(3, 6), nms(3, 2)),
  ],
  // binary elementwise ops replan their broadcast from the actual dims at every invoke
  [
    'positives → EXPAND_DIMS → ADD of a [1, 3] constant (broadcast to [k, 3]), int8',
    () =>
      alternating(
        maskedBinaryModel(BuiltinOperator.ADD, 'grid', { type: TensorType.INT8 }),
        [valuesOf(TensorType.INT8, [27, -18, 45, -36, 9, 0, 63, -72])],
        [valuesOf(TensorType.INT8, [-9, 18, -27, -36, -45, -54, -63, -72])],
      ),
  ],
  [
    'positives MUL positives, float32',
    () =>
      alternating(
        maskedBinaryModel(BuiltinOperator.MUL, 'self'),
        [Float32Array.from([1, -2, 3, -4, 5, 0, 7, -8])],
        [Float32Array.from([-1, -2, -3, 4, -5, -6, -7, -8])],
      ),
  ],
  [
    'positives LESS a scalar, int32',
    () =>
      alternating(
        maskedBinaryModel(BuiltinOperator.LESS, 'scalar', { type: TensorType.INT32, outType: TensorType.BOOL }),
        [Int32Array.from([1, -2, 3, -4, 5, 0, 7, -8])],
        [Int32Array.from([-1, -2, -3, 4, -5, -6, -7, -8])],
      ),
  ],
  // reductions, SOFTMAX/LOG_SOFTMAX, TRANSPOSE, TILE, PACK/UNPACK, SELECT_V2, broadcast ADD of one masked tensor
  [
    'many consumers of one masked tensor (SUM, MEAN, REDUCE_MAX/PROD, SOFTMAX, TRANSPOSE, TILE, PACK, UNPACK, SELECT_V2, ADD, LOG_SOFTMAX)',
    () =>
      alternating(
        dataDependentConsumersModel(),
        [Float32Array.from([1, -2, 3, -4, 5, 0, 7, -8])],
        [Float32Array.from([-1, -2, -3, 4, -5, -6, -7, -8])],
      ),
  ],
  [
    'quantized MEAN and SUM over the data-dependent axis (the rescaling recomputed for each count), int8',
    () =>
      alternating(
        maskedModel(
          (s) => {
            const q = { scale: 0.08, zeroPoint: -5 };
            const axis = s.b.addTensor({ name: 'axis', type: TensorType.INT32, shape: [1], data: Int32Array.from([0]) });
            const mean = s.b.addTensor({ name: 'mean', type: TensorType.INT8, shape: [1], quantization: q });
            const sum = s.b.addTensor({ name: 'sum', type: TensorType.INT8, shape: [1], quantization: q });
            s.b.addOperator({ op: BuiltinOperator.MEAN, inputs: [s.positives, axis], outputs: [mean], options: { keepDims: true } });
            s.b.addOperator({ op: BuiltinOperator.SUM, inputs: [s.positives, axis], outputs: [sum], options: { keepDims: true } });
            return [s.positives, mean, sum];
          },
          { type: TensorType.INT8, quantization: { scale: 0.05, zeroPoint: 0 } },
        ),
        [valuesOf(TensorType.INT8, [27, -18, 45, -36, 9, 0, 63, -72])],
        [valuesOf(TensorType.INT8, [-9, 18, -27, -36, -45, -54, -63, -72])],
      ),
  ],
  [
    'WHERE → GATHER_ND → MUL → SUM, int32',
    () =>
      alternating(
        whereGatherNdModel(TensorType.INT32),
        [Int32Array.from([1, -2, 3, -4, 5, 0, 7, -8])],
        [Int32Array.from([-1, -2, -3, 4, -5, -6, -7, -8])],
      ),
  ],
];

describe('data-dependent-shape models allocate nothing in invoke() while their actual sizes change', () => {
  for (const [name, make] of CASES) {
    it(name, () => {
      const { interp, run, dims } = make();
      run();
      const first = dims();
      run();
      expect(dims(), 'the two input sets give different actual sizes').not.toBe(first);
      const m = measureAllocation(run, { warmup: 300, trials: 5, iterations: 300 });
      expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
      interp.dispose();
    });
  }
});
