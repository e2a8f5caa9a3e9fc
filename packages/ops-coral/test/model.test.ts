/**
 * PosenetDecoderOp in models made by core's ModelBuilder, run by the interpreter with ops-reference +
 * this package: the tail of a Coral PoseNet/BodyPix model — uint8 heatmaps and mid offsets (QUANTIZE
 * from float inputs, as Coral's quantized backbones hand uint8 tensors to the decoder), float short
 * offsets — feeding a PoseNet decoder (3 inputs, 4 outputs) and a BodyPix decoder (4 inputs, 5 outputs,
 * masks). The answer is the hand-made scene's (test/scenes.ts); invoke() allocates nothing.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, ModelBuilder, OpResolver, TensorType, UnsupportedOpError, loadModel } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { MASK_SIZE, NUM_KEYPOINTS, coralKernels, registerCoralOps } from '../src/index.js';
import { decode, decoderOptions, floatInput } from './posenet-harness.js';
import { cells, logits, probability, scene, type Person } from './scenes.js';

const F = TensorType.FLOAT32;
const U8 = TensorType.UINT8;
const K = NUM_KEYPOINTS;
const G = MASK_SIZE; // a 33x33 grid, as BodyPix's 512x512 models have at stride 16
const STRIDE = 16;
const PEOPLE: Person[] = [{ at: [3, 2] }, { at: [16, 20], logitShift: -0.5 }];

function buildModel(): Uint8Array {
  const b = new ModelBuilder({ description: 'PoseNet and BodyPix decoder tails' });
  const t = (name: string, type: TensorType, shape: number[], quantization?: { scale: number; zeroPoint: number }) =>
    b.addTensor({ name, type, shape, ...(quantization ? { quantization } : {}) });
  const heatF = t('heatmaps_float', F, [1, G, G, K]);
  const shorts = t('short_offsets', F, [1, G, G, 2 * K]);
  const midsF = t('mid_offsets_float', F, [1, G, G, 64]);
  const longs = t('long_offsets', F, [1, G, G, 2 * K]);
  const heat = t('heatmaps', U8, [1, G, G, K], { scale: 1 / 16, zeroPoint: 160 });
  const mids = t('mid_offsets', U8, [1, G, G, 64], { scale: 1, zeroPoint: 128 });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [heatF], outputs: [heat] });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [midsF], outputs: [mids] });
  const M1 = 3;
  const pose = [t('poses', F, [1, M1, K, 2]), t('keypoint_scores', F, [1, M1, K]), t('pose_scores', F, [1, M1]), t('pose_count', F, [1])];
  b.addOperator({
    op: { custom: 'PosenetDecoderOp' },
    inputs: [heat, shorts, mids],
    outputs: pose,
    customOptions: decoderOptions({ maxDetections: M1, scoreThreshold: 0.5, stride: STRIDE, nmsRadius: 20 }),
  });
  const M2 = 2;
  const body = [
    t('bodypix_poses', F, [1, M2, K, 2]),
    t('bodypix_keypoint_scores', F, [1, M2, K]),
    t('bodypix_pose_scores', F, [1, M2]),
    t('bodypix_pose_count', F, [1]),
    t('bodypix_masks', F, [1, M2, G, G]),
  ];
  b.addOperator({
    op: { custom: 'PosenetDecoderOp' },
    inputs: [heat, shorts, mids, longs],
    outputs: body,
    customOptions: decoderOptions({ maxDetections: M2, scoreThreshold: 0.5, stride: STRIDE, nmsRadius: 20 }),
  });
  return b
    .setInputs([heatF, shorts, midsF, longs])
    .setOutputs([...pose, ...body])
    .build();
}

/** QUANTIZE → PosenetDecoderOp on an h × w grid (uint8 heatmaps and mid offsets, float short offsets), max_detections 3. */
function posenetTail(h: number, w: number): Uint8Array {
  const b = new ModelBuilder();
  const heatF = b.addTensor({ name: 'heatmaps_float', type: F, shape: [1, h, w, K] });
  const shorts = b.addTensor({ name: 'short_offsets', type: F, shape: [1, h, w, 2 * K] });
  const midsF = b.addTensor({ name: 'mid_offsets_float', type: F, shape: [1, h, w, 64] });
  const heat = b.addTensor({ name: 'heatmaps', type: U8, shape: [1, h, w, K], quantization: { scale: 1 / 16, zeroPoint: 160 } });
  const mids = b.addTensor({ name: 'mid_offsets', type: U8, shape: [1, h, w, 64], quantization: { scale: 1, zeroPoint: 128 } });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [heatF], outputs: [heat] });
  b.addOperator({ op: BuiltinOperator.QUANTIZE, inputs: [midsF], outputs: [mids] });
  const out = [
    b.addTensor({ name: 'poses', type: F, shape: [1, 3, K, 2] }),
    b.addTensor({ name: 'keypoint_scores', type: F, shape: [1, 3, K] }),
    b.addTensor({ name: 'pose_scores', type: F, shape: [1, 3] }),
    b.addTensor({ name: 'pose_count', type: F, shape: [1] }),
  ];
  b.addOperator({
    op: { custom: 'PosenetDecoderOp' },
    inputs: [heat, shorts, mids],
    outputs: out,
    customOptions: decoderOptions({ maxDetections: 3, scoreThreshold: 0.5, stride: STRIDE, nmsRadius: 16 }),
  });
  return b.setInputs([heatF, shorts, midsF]).setOutputs(out).build();
}

/** Long offsets pointing every cell of the upper-left half at person 0's keypoints, the rest at person 1's. */
function longOffsets(): Float32Array {
  const longs = new Float32Array(G * G * 2 * K);
  for (let y = 0; y < G; y++)
    for (let x = 0; x < G; x++) {
      const target = cells(PEOPLE[y + x < G ? 0 : 1]!);
      for (let k = 0; k < K; k++) {
        longs[(y * G + x) * 2 * K + k] = (target[k]![0] - y) * STRIDE;
        longs[(y * G + x) * 2 * K + K + k] = (target[k]![1] - x) * STRIDE;
      }
    }
  return longs;
}

const SCENE = scene(G, G, STRIDE, PEOPLE);
const INPUTS = [SCENE.heatmaps, SCENE.shorts, SCENE.mids, longOffsets()];

/** The interpreter, its inputs set. */
function interpreter(): MicroInterpreter {
  const resolver = registerCoralOps(registerReferenceOps(new OpResolver()));
  const it_ = new MicroInterpreter(loadModel(buildModel()), resolver, { planner: createPlanner('greedy') }).allocateTensors();
  INPUTS.forEach((v, i) => it_.setInput(i, v));
  return it_;
}

describe('PosenetDecoderOp in a model, next to the reference kernels', () => {
  it('resolves the custom op to this package and decodes both people', () => {
    const it_ = interpreter();
    expect(it_.nodes().map((n) => `${n.op}: ${n.kernel} (${n.provider})`)).toEqual([
      'QUANTIZE: QUANTIZE (@micrort/ops-reference)',
      'QUANTIZE: QUANTIZE (@micrort/ops-reference)',
      'CUSTOM:PosenetDecoderOp: PosenetDecoderOp (@micrort/ops-coral)',
      'CUSTOM:PosenetDecoderOp: PosenetDecoderOp (@micrort/ops-coral)',
    ]);
    it_.invoke();
    const out = (i: number) => Array.from(it_.output(i).data as Float32Array);
    // PoseNet node: 2 poses of 3, each keypoint on its cell
    expect(out(3)).toEqual([2]);
    PEOPLE.forEach((p, i) => {
      expect(out(0).slice(i * 2 * K, (i + 1) * 2 * K)).toEqual(cells(p).flatMap(([y, x]) => [y * STRIDE, x * STRIDE]));
      const scores = logits(p).map(probability);
      out(1)
        .slice(i * K, (i + 1) * K)
        .forEach((v, k) => expect(v).toBeCloseTo(scores[k]!, 6));
    });
    expect(
      out(0)
        .slice(2 * 2 * K)
        .every((v) => v === 0),
    ).toBe(true);
    // BodyPix node: the same 2 poses, and the masks split along the anti-diagonal
    expect(out(7)).toEqual([2]);
    expect(out(4)).toEqual(out(0).slice(0, 2 * 2 * K));
    const masks = out(8);
    for (let y = 0; y < G; y++)
      for (let x = 0; x < G; x++) {
        const person = y + x < G ? 0 : 1;
        expect(masks[person * G * G + y * G + x], `cell ${y},${x}`).toBe(1);
        expect(masks[(1 - person) * G * G + y * G + x], `cell ${y},${x}`).toBe(0);
      }
  });

  it('equals the kernel run alone on the float scene (the uint8 quantization here is exact)', () => {
    const it_ = interpreter();
    it_.invoke();
    const s = scene(G, G, STRIDE, PEOPLE);
    const alone = decode([floatInput(G, G, K, s.heatmaps), floatInput(G, G, 2 * K, s.shorts), floatInput(G, G, 64, s.mids)], {
      maxDetections: 3,
      scoreThreshold: 0.5,
      stride: STRIDE,
      nmsRadius: 20,
    });
    for (let i = 0; i < 4; i++) expect(Array.from(it_.output(i).data as Float32Array), `output ${i}`).toEqual(Array.from(alone.raw[i]!));
  });

  it('an unregistered provider leaves the custom op unsupported', () => {
    expect(() =>
      new MicroInterpreter(loadModel(buildModel()), registerReferenceOps(new OpResolver()), {
        planner: createPlanner('greedy'),
      }).allocateTensors(),
    ).toThrow(UnsupportedOpError);
    expect(coralKernels.map((k) => `${k.customName} v${k.version}`)).toEqual(['PosenetDecoderOp v1']);
  });

  it('invoke() allocates nothing: a PoseNet tail on a 13x12 grid, then the model above', () => {
    // Code that runs a few times per invoke (per pose) is compiled by V8 only after thousands of invokes, and
    // boxes floats until then; a small model gets it there quickly, and the 33x33 BodyPix model then runs the
    // same, already compiled functions. The planner reuses the inputs' memory once they are consumed (as TFLM
    // does), so inputs are set before every invoke.
    const small = scene(13, 12, STRIDE, [{ at: [1, 1] }, { at: [1, 4], logitShift: -0.5 }]);
    const tail = new MicroInterpreter(loadModel(posenetTail(13, 12)), registerCoralOps(registerReferenceOps(new OpResolver())), {
      planner: createPlanner('greedy'),
    }).allocateTensors();
    const tailInputs = [small.heatmaps, small.shorts, small.mids];
    const tailViews = tailInputs.map((_, i) => tail.input(i).data as Float32Array);
    const runTail = () => {
      for (let i = 0; i < tailInputs.length; i++) tailViews[i]!.set(tailInputs[i]!);
      tail.invoke();
    };
    runTail();
    expect(Array.from(tail.output(3).data as Float32Array)).toEqual([2]);
    const m1 = measureAllocation(runTail, { warmup: 3000, trials: 5, iterations: 200 });
    expect(m1.bytesPerCall, `heap deltas per trial of 200 invokes: ${m1.deltas.join(', ')}`).toBeLessThan(0.5);

    const it_ = interpreter();
    const views = INPUTS.map((_, i) => it_.input(i).data as Float32Array);
    const run = () => {
      for (let i = 0; i < INPUTS.length; i++) views[i]!.set(INPUTS[i]!);
      it_.invoke();
    };
    // an invoke decodes a 33x33 grid of masks (milliseconds), so these trials are short: a real allocation boxes
    // at least one number (16 bytes) per invoke, the measurement's own noise stays under a few bytes per call
    const m2 = measureAllocation(run, { warmup: 200, trials: 5, iterations: 20, rounds: 3 });
    expect(m2.bytesPerCall, `heap deltas per trial of 20 invokes: ${m2.deltas.join(', ')}`).toBeLessThan(4);
  });

  it('the inputs are consumed: set them again before the next invoke', () => {
    const it_ = interpreter();
    it_.invoke();
    const first = Array.from(it_.output(3).data as Float32Array);
    INPUTS.forEach((v, i) => it_.setInput(i, v));
    it_.invoke();
    expect(Array.from(it_.output(3).data as Float32Array)).toEqual(first);
  });
});
