/**
 * Every kernel of the package in one model made by core's ModelBuilder, resolved through
 * `registerMediapipeOps` (each op version to its own kernel), run by the interpreter: the landmark
 * pipeline of MediaPipe's face/hand models (Landmarks2TransformMatrix → TransformTensorBilinear and
 * TransformLandmarks), pooling with argmax and unpooling, the transposed convolution. invoke() allocates
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, ModelBuilder, OpResolver, TensorType, UnsupportedOpError, loadModel } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { encode as flexEncode } from 'flatbuffers/js/flexbuffers.js';
import { measureAllocation } from '@micrort/test-support/alloc';
import { mediapipeKernels, poolOptions, registerMediapipeOps, transposeConvBiasOptions } from '../src/index.js';

const F = TensorType.FLOAT32;
const N = 6; // landmarks

function buildModel(): Uint8Array {
  const b = new ModelBuilder();
  const t = (name: string, shape: number[], data?: Float32Array) => b.addTensor({ name, type: F, shape, ...(data ? { data } : {}) });
  // landmark pipeline, version 2 ops
  const landmarks = t('landmarks', [1, N, 3]);
  const image = t('image', [1, 8, 8, 2]);
  const matrix = t('matrix', [1, 4, 4]);
  const crop = t('crop', [1, 4, 4, 2]);
  const moved = t('moved', [1, N, 3]);
  b.addOperator({
    op: { custom: 'Landmarks2TransformMatrix' },
    version: 2,
    inputs: [landmarks],
    outputs: [matrix],
    customOptions: flexEncode({
      subset_idxs: [2, 3, 4, 5],
      left_rotation_idx: 0,
      right_rotation_idx: 1,
      target_rotation_radians: 0,
      output_height: 4,
      output_width: 4,
      scale_x: 1.5,
      scale_y: 1.5,
    }),
  });
  b.addOperator({
    op: { custom: 'TransformTensorBilinear' },
    version: 2,
    inputs: [image, matrix],
    outputs: [crop],
    customOptions: flexEncode({ output_height: 4, output_width: 4 }),
  });
  b.addOperator({ op: { custom: 'TransformLandmarks' }, version: 2, inputs: [landmarks, matrix], outputs: [moved] });
  // version 1 ops
  const landmarksV1 = t('landmarks_v1', [1, 1, 1, 3 * N]);
  const matrixV1 = t('matrix_v1', [1, 4, 4]);
  const cropV1 = t('crop_v1', [1, 3, 3, 2]);
  const movedV1 = t('moved_v1', [1, 1, 1, 3 * N]);
  b.addOperator({
    op: { custom: 'Landmarks2TransformMatrix' },
    version: 1,
    inputs: [landmarksV1],
    outputs: [matrixV1],
    customOptions: flexEncode({
      input_hw: [8, 8],
      output_hw: [3, 3],
      dimensions: 3,
      landmarks_range: 8,
      bbox_size_multiplier: 1.25,
      left_rotation_idx: 0,
      right_rotation_idx: 1,
      subset: [2, 3, 4],
    }),
  });
  b.addOperator({
    op: { custom: 'TransformTensor' },
    version: 1,
    inputs: [image, matrixV1],
    outputs: [cropV1],
    customOptions: flexEncode({ mode: 'bilinear', output_size: [3, 3] }),
  });
  b.addOperator({
    op: { custom: 'TransformLandmarks' },
    version: 1,
    inputs: [landmarksV1, matrixV1],
    outputs: [movedV1],
    customOptions: flexEncode({ dimensions: 3, scale: 1 }),
  });
  // segmentation-style decoder: pool with argmax, unpool, transposed convolution with bias
  const pooled = t('pooled', [1, 4, 4, 2]);
  const argmax = t('argmax', [1, 4, 4, 2]);
  const unpooled = t('unpooled', [1, 8, 8, 2]);
  const pool = poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 });
  b.addOperator({ op: { custom: 'MaxPoolingWithArgmax2D' }, inputs: [image], outputs: [pooled, argmax], customOptions: pool });
  b.addOperator({ op: { custom: 'MaxUnpooling2D' }, inputs: [pooled, argmax], outputs: [unpooled], customOptions: pool });
  const weights = t(
    'weights',
    [3, 2, 2, 2],
    Float32Array.from({ length: 24 }, (_, i) => ((i * 7) % 11) / 10 - 0.5),
  );
  const bias = t('bias', [3], Float32Array.of(0.25, -0.5, 1));
  const up = t('up', [1, 8, 8, 3]);
  b.addOperator({
    op: { custom: 'Convolution2DTransposeBias' },
    inputs: [pooled, weights, bias],
    outputs: [up],
    customOptions: transposeConvBiasOptions('SAME', 2, 2),
  });
  return b.setInputs([landmarks, image, landmarksV1]).setOutputs([crop, moved, cropV1, movedV1, unpooled, up]).build();
}

function interpreter(): MicroInterpreter {
  const it_ = new MicroInterpreter(loadModel(buildModel()), registerMediapipeOps(new OpResolver()), {
    planner: createPlanner('greedy'),
  }).allocateTensors();
  const lm = [0, 0, 0, 4, 1, 0, 1, 1, 0.5, 6, 2, 0.5, 2, 6, 1, 5, 5, 1];
  it_.setInput(0, lm);
  it_.setInput(
    1,
    Float32Array.from({ length: 128 }, (_, i) => Math.sin(i) * 10),
  );
  it_.setInput(2, lm);
  return it_;
}

describe('every MediaPipe kernel in one model', () => {
  it('resolves each op version to its own kernel and runs', () => {
    const it_ = interpreter();
    expect(it_.nodes().map((n) => `${n.op} v${n.version}: ${n.kernel} (${n.provider})`)).toEqual([
      'CUSTOM:Landmarks2TransformMatrix v2: Landmarks2TransformMatrix/v2 (@micrort/ops-mediapipe)',
      'CUSTOM:TransformTensorBilinear v2: TransformTensorBilinear/v2 (@micrort/ops-mediapipe)',
      'CUSTOM:TransformLandmarks v2: TransformLandmarks/v2 (@micrort/ops-mediapipe)',
      'CUSTOM:Landmarks2TransformMatrix v1: Landmarks2TransformMatrix/v1 (@micrort/ops-mediapipe)',
      'CUSTOM:TransformTensor v1: TransformTensor/v1 (@micrort/ops-mediapipe)',
      'CUSTOM:TransformLandmarks v1: TransformLandmarks/v1 (@micrort/ops-mediapipe)',
      'CUSTOM:MaxPoolingWithArgmax2D v1: MaxPoolingWithArgmax2D (@micrort/ops-mediapipe)',
      'CUSTOM:MaxUnpooling2D v1: MaxUnpooling2D (@micrort/ops-mediapipe)',
      'CUSTOM:Convolution2DTransposeBias v1: Convolution2DTransposeBias (@micrort/ops-mediapipe)',
    ]);
    expect(new Set(it_.nodes().map((n) => n.kernel)).size).toBe(mediapipeKernels.length);
    it_.invoke();
    for (let o = 0; o < it_.outputsSize; o++) {
      const data = it_.output(o).data as Float32Array;
      expect(data.every(Number.isFinite), `output ${o}`).toBe(true);
    }
    // the matrix is not the identity, so TransformLandmarks moved the landmarks (the kernels' values are checked in their unit tests)
    expect(Array.from(it_.output(1).data as Float32Array)).not.toEqual([0, 0, 0, 4, 1, 0, 1, 1, 0.5, 6, 2, 0.5, 2, 6, 1, 5, 5, 1]);
  });

  it('an op version this package does not serve is an UnsupportedOpError', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F, shape: [1, 2, 3] });
    const m = b.addTensor({ name: 'm', type: F, shape: [1, 4, 4] });
    const y = b.addTensor({ name: 'y', type: F, shape: [1, 2, 3] });
    b.addOperator({ op: { custom: 'TransformLandmarks' }, version: 3, inputs: [x, m], outputs: [y] });
    const model = loadModel(b.setInputs([x, m]).setOutputs([y]).build());
    expect(() =>
      new MicroInterpreter(model, registerMediapipeOps(new OpResolver()), { planner: createPlanner('greedy') }).allocateTensors(),
    ).toThrow(UnsupportedOpError);
  });

  it('invoke() allocates nothing', () => {
    const it_ = interpreter();
    const m = measureAllocation(() => it_.invoke(), { warmup: 3000, trials: 5, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial of 1000 invokes: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });
});
