/**
 * PosenetDecoderOp through core's KernelHarness: hand-checked scenes (one person, two people near each
 * other with and without NMS suppressing the second, scores below the threshold, more people than
 * max_detections, BodyPix masks, Coral's edge-16 channel quirk), the quantized inputs, and every
 * prepare-time check with its message. Bit-exactness against Coral's own C++ is test/coral-oracle.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { KernelError, TensorType } from '@micrort/core';
import { flexMap } from '@micrort/test-support/flexbuffers';
import { MASK_SIZE, NUM_KEYPOINTS } from '../index.js';
import {
  decode,
  decoderHarness,
  decoderOptions,
  floatInput,
  readResult,
  type DecoderInput,
  type DecoderOptions,
} from '../../test/posenet-harness.js';
import { BODY, LOGITS, cells, logits, probability, scene, type Person } from '../../test/scenes.js';

const K = NUM_KEYPOINTS;
const STRIDE = 16;
const OPTIONS: DecoderOptions = { maxDetections: 5, scoreThreshold: 0.5, stride: STRIDE, nmsRadius: 20 };

/** Float32 inputs of a hand-made scene. */
function sceneInputs(height: number, width: number, people: readonly Person[], background?: number): DecoderInput[] {
  const s = scene(height, width, STRIDE, people, background);
  return [floatInput(height, width, K, s.heatmaps), floatInput(height, width, 2 * K, s.shorts), floatInput(height, width, 64, s.mids)];
}

/** What decoding a hand-made person must give: its cells in pixels, sigmoid scores, their mean. */
function expectPerson(r: ReturnType<typeof decode>, pose: number, p: Person): void {
  expect(r.keypoints[pose]).toEqual(cells(p).map(([y, x]) => [y * STRIDE, x * STRIDE]));
  const expected = logits(p).map(probability);
  r.keypointScores[pose]!.forEach((s, k) => expect(s).toBeCloseTo(expected[k]!, 6));
  expect(r.poseScores[pose]).toBeCloseTo(expected.reduce((a, b) => a + b, 0) / K, 6);
}

function expectNothingPast(r: ReturnType<typeof decode>, count: number): void {
  expect(r.count).toBe(count);
  for (let p = count; p < r.poseScores.length; p++) {
    expect(r.poseScores[p]).toBe(0);
    expect(r.keypointScores[p]!.every((v) => v === 0)).toBe(true);
    expect(r.keypoints[p]!.flat().every((v) => v === 0)).toBe(true);
  }
}

describe('PosenetDecoderOp: hand-checked scenes', () => {
  it('one person: every keypoint on its cell (× stride), sigmoid scores, their mean as the pose score', () => {
    const person: Person = { at: [1, 2] };
    const r = decode(sceneInputs(14, 11, [person]), OPTIONS);
    expectPerson(r, 0, person);
    expectNothingPast(r, 1);
  });

  it('two people 3 cells apart: NMS radius 4 cells suppresses the second, radius 1 cell keeps both', () => {
    const a: Person = { at: [1, 1] };
    const b: Person = { at: [1, 4], logitShift: -0.5 };
    const inputs = sceneInputs(13, 12, [a, b]);
    // every candidate of b lies 3 cells (48 px) from the same keypoint of a: within 64 px, so b's root is rejected
    const suppressed = decode(inputs, { ...OPTIONS, nmsRadius: 64 });
    expectPerson(suppressed, 0, a);
    expectNothingPast(suppressed, 1);
    // a radius of 16 px keeps b; no keypoint of b is within it of a's, so soft NMS leaves both scores as they were
    const both = decode(inputs, { ...OPTIONS, nmsRadius: 16 });
    expectPerson(both, 0, a);
    expectPerson(both, 1, b);
    expectNothingPast(both, 2);
  });

  it('soft keypoint NMS: a keypoint of the weaker pose within the radius of the stronger one stops counting', () => {
    // b stands 4 cells right of a, but b's left knee → left ankle mid offset (forward edge 9: channels 9 and 25
    // at the knee's cell) is bent so that b's left ankle is decoded 1 cell right of a's left ankle, where the
    // ankle heatmap reads 0.5 (not a maximum: a's ankle next to it reads 1). b has no ankle peak of its own.
    const a: Person = { at: [1, 1] };
    const b: Person = { at: [1, 5], logits: LOGITS.map((l, k) => (k === 15 ? -10 : l - 0.5)) };
    const W = 14;
    const s = scene(13, W, STRIDE, [a, b]);
    const [ky, kx] = cells(b)[13]!;
    const [ay, ax] = cells(a)[15]!;
    s.mids[(ky * W + kx) * 64 + 9] = (ay - ky) * STRIDE;
    s.mids[(ky * W + kx) * 64 + 25] = (ax + 1 - kx) * STRIDE;
    s.heatmaps[(ay * W + ax + 1) * K + 15] = 0.5;
    const inputs = [floatInput(13, W, K, s.heatmaps), floatInput(13, W, 2 * K, s.shorts), floatInput(13, W, 64, s.mids)];
    const r = decode(inputs, { ...OPTIONS, nmsRadius: 20 }); // 1.25 cells: the ankles are 1 cell apart
    expect(r.count).toBe(2);
    expectPerson(r, 0, a);
    expect(r.keypoints[1]![15]).toEqual([ay * STRIDE, (ax + 1) * STRIDE]);
    const bScores = r.keypointScores[1]!;
    expect(bScores[15]).toBeCloseTo(probability(0.5), 6);
    const withoutAnkle = bScores.reduce((sum, v, k) => (k === 15 ? sum : sum + v), 0) / K;
    expect(r.poseScores[1]).toBeCloseTo(withoutAnkle, 6);
    // with a radius under 1 cell the ankle counts
    const wide = decode(inputs, { ...OPTIONS, nmsRadius: 12 });
    expect(wide.poseScores[1]).toBeCloseTo(withoutAnkle + probability(0.5) / K, 6);
  });

  it('scores below the threshold: no candidate at all, or a pose whose mean score falls short', () => {
    const faint: Person = { at: [1, 1], logits: LOGITS.map(() => -3) };
    expectNothingPast(decode(sceneInputs(13, 9, [faint]), OPTIONS), 0);
    // the nose passes the logit threshold as a root, but the pose's mean (0.88 + 16 × 0.018) / 17 is below 0.5
    const weak: Person = { at: [1, 1], logits: LOGITS.map((_, k) => (k === 0 ? 2 : -4)) };
    expectNothingPast(decode(sceneInputs(13, 9, [weak]), OPTIONS), 0);
    // and the same pose passes a threshold of 0.05
    const r = decode(sceneInputs(13, 9, [weak]), { ...OPTIONS, scoreThreshold: 0.05 });
    expectPerson(r, 0, weak);
  });

  it('more people than max_detections: the strongest roots win', () => {
    const people: Person[] = [{ at: [0, 16], logitShift: -0.5 }, { at: [0, 0] }, { at: [0, 8], logitShift: -0.25 }];
    const inputs = sceneInputs(12, 23, people);
    const two = decode(inputs, { ...OPTIONS, maxDetections: 2 });
    expectPerson(two, 0, people[1]!);
    expectPerson(two, 1, people[2]!);
    expect(two.count).toBe(2);
    const all = decode(inputs, { ...OPTIONS, maxDetections: 4 });
    expectPerson(all, 2, people[0]!);
    expectNothingPast(all, 3);
  });

  it("reproduces Coral's edge-16 quirk: from the left eye, the nose is found through channels 16 and 32", () => {
    // the left eye scores highest, so decoding starts there and reaches the nose over edge 16 (left eye → nose).
    // Coral's `edge_id > kNumEdges` leaves edge 16 unshifted, so at the left eye's cell it reads channel 16 (the
    // x block of forward edges: nothing starts at the left eye there, so 0) as dy and channel 32 (backward edge
    // 16's y offset, the row step to the nose) as dx; the nose lands one column right of the eye, not below it.
    // max_detections 1 keeps that pose (its other keypoints, walked from the wrong nose, score nearly 0).
    const person: Person = { at: [2, 2], logits: LOGITS.map((l, k) => (k === 1 ? 5 : l)) };
    const [ey, ex] = cells(person)[1]!;
    const [ny, nx] = cells(person)[0]!;
    const r = decode(sceneInputs(14, 11, [person]), { ...OPTIONS, maxDetections: 1, scoreThreshold: 0.05 });
    expect(r.count).toBe(1);
    expect(r.keypoints[0]![1]).toEqual([ey * STRIDE, ex * STRIDE]);
    expect(r.keypoints[0]![0]).toEqual([ey * STRIDE, (ex + (ny - ey)) * STRIDE]);
    expect([ny, nx]).toEqual([ey + 1, ex + 1]); // where the nose really is
  });

  it('BodyPix: each long-offset cell goes to the pose its embeddings match', () => {
    const a: Person = { at: [4, 2] };
    const b: Person = { at: [6, 21], logitShift: -0.5 };
    const s = scene(MASK_SIZE, MASK_SIZE, STRIDE, [a, b]);
    // long offsets: columns < 16 point at a's keypoints, the others at b's
    const longs = new Float32Array(MASK_SIZE * MASK_SIZE * 2 * K);
    for (let y = 0; y < MASK_SIZE; y++)
      for (let x = 0; x < MASK_SIZE; x++) {
        const target = cells(x < 16 ? a : b);
        for (let k = 0; k < K; k++) {
          longs[(y * MASK_SIZE + x) * 2 * K + k] = (target[k]![0] - y) * STRIDE;
          longs[(y * MASK_SIZE + x) * 2 * K + K + k] = (target[k]![1] - x) * STRIDE;
        }
      }
    const inputs = [
      floatInput(MASK_SIZE, MASK_SIZE, K, s.heatmaps),
      floatInput(MASK_SIZE, MASK_SIZE, 2 * K, s.shorts),
      floatInput(MASK_SIZE, MASK_SIZE, 64, s.mids),
      floatInput(MASK_SIZE, MASK_SIZE, 2 * K, longs),
    ];
    const r = decode(inputs, { ...OPTIONS, maxDetections: 3 });
    expect(r.count).toBe(2);
    expectPerson(r, 0, a);
    expectPerson(r, 1, b);
    const cellsOf = (mask: number[]) => mask.reduce((n, v) => n + v, 0);
    const masks = r.masks!;
    for (let y = 0; y < MASK_SIZE; y++)
      for (let x = 0; x < MASK_SIZE; x++) {
        expect(masks[0]![y * MASK_SIZE + x], `mask 0 at ${y},${x}`).toBe(x < 16 ? 1 : 0);
        expect(masks[1]![y * MASK_SIZE + x], `mask 1 at ${y},${x}`).toBe(x < 16 ? 0 : 1);
      }
    expect(cellsOf(masks[0]!) + cellsOf(masks[1]!)).toBe(MASK_SIZE * MASK_SIZE);
    expect(cellsOf(masks[2]!)).toBe(0);
    // no pose: every mask stays 0
    const none = decode(inputs, { ...OPTIONS, maxDetections: 3, scoreThreshold: 0.999 });
    expect(none.count).toBe(0);
    expect(none.masks!.every((m) => cellsOf(m) === 0)).toBe(true);
  });

  it('invoking twice gives the same outputs (no state kept between invokes)', () => {
    const h = decoderHarness(sceneInputs(13, 12, [{ at: [1, 1] }, { at: [1, 4], logitShift: -0.5 }]), { ...OPTIONS, nmsRadius: 16 });
    const first = readResult(h.invoke(), false).raw.map((a) => Array.from(a));
    expect(readResult(h.invoke(), false).raw.map((a) => Array.from(a))).toEqual(first);
  });
});

describe('PosenetDecoderOp: quantized inputs', () => {
  const people: Person[] = [{ at: [1, 1] }, { at: [1, 4], logitShift: -0.5 }];
  const s = scene(13, 12, STRIDE, people);
  const quantize = (v: Float32Array, scale: number, zp: number, signed: boolean) => {
    const q = Array.from(v, (x) => Math.round(x / scale) + zp);
    return signed ? Int8Array.from(q) : Uint8Array.from(q);
  };
  const quantized = (type: TensorType.UINT8 | TensorType.INT8): DecoderInput[] => {
    const shift = type === TensorType.INT8 ? -128 : 0;
    const signed = type === TensorType.INT8;
    return [
      { type, shape: [1, 13, 12, K], data: quantize(s.heatmaps, 1 / 16, 160 + shift, signed), scale: 1 / 16, zeroPoint: 160 + shift },
      { type, shape: [1, 13, 12, 2 * K], data: quantize(s.shorts, 0.5, 128 + shift, signed), scale: 0.5, zeroPoint: 128 + shift },
      { type, shape: [1, 13, 12, 64], data: quantize(s.mids, 1, 128 + shift, signed), scale: 1, zeroPoint: 128 + shift },
    ];
  };
  const float = decode([floatInput(13, 12, K, s.heatmaps), floatInput(13, 12, 2 * K, s.shorts), floatInput(13, 12, 64, s.mids)], {
    ...OPTIONS,
    nmsRadius: 16,
  });

  it('uint8 (as in Coral models): (q - zero_point) × scale gives the float scene exactly, so the same poses', () => {
    const r = decode(quantized(TensorType.UINT8), { ...OPTIONS, nmsRadius: 16 });
    expect(r.count).toBe(2);
    expect(r.raw.map((a) => Array.from(a))).toEqual(float.raw.map((a) => Array.from(a)));
  });

  it('int8 (a micrort extension, dequantized the same way) gives the same poses', () => {
    const r = decode(quantized(TensorType.INT8), { ...OPTIONS, nmsRadius: 16 });
    expect(r.raw.map((a) => Array.from(a))).toEqual(float.raw.map((a) => Array.from(a)));
  });

  it('offsets are divided by the stride as Coral does: uint8 by scale × (1/stride), float32 by × (1/stride)', () => {
    // stride 10: 1/10 is not a float32, so the two roundings differ; one person whose cells are 10 px apart
    const person: Person = { at: [1, 1] };
    const t = scene(13, 9, 10, [person]);
    const mids = Uint8Array.from(t.mids, (v) => v + 128);
    const r = decode(
      [
        floatInput(13, 9, K, t.heatmaps),
        floatInput(13, 9, 2 * K, t.shorts),
        { type: TensorType.UINT8, shape: [1, 13, 9, 64], data: mids, scale: 1, zeroPoint: 128 },
      ],
      { ...OPTIONS, stride: 10 },
    );
    expect(r.count).toBe(1);
    const f = Math.fround;
    const step = f(1 * f(1 / 10)); // Coral's quant_scale = scale * (float)(1.0 / stride)
    // the nose → left eye jump: (-1 row, -1 column) of 10 px each, i.e. (0 - 128 + 118) × step
    expect(r.keypoints[0]![1]).toEqual([f(f(f(2 + f(-10 * step)) * 10)), f(f(f(4 + f(-10 * step)) * 10))]);
  });
});

describe('PosenetDecoderOp: prepare checks', () => {
  const good = () => sceneInputs(13, 9, [{ at: [1, 1] }]);
  const prepareError = (inputs: DecoderInput[], options: DecoderOptions = OPTIONS, extra: Parameters<typeof decoderHarness>[2] = {}) => {
    try {
      decoderHarness(inputs, options, extra).prepare();
    } catch (e) {
      expect(e).toBeInstanceOf(KernelError);
      return (e as KernelError).message;
    }
    throw new Error('prepare accepted the node');
  };

  it('arity and types: supports() declines with the reason prepare throws', () => {
    const two = good().slice(0, 2);
    const h = decoderHarness(two, OPTIONS, { outputShapes: [[1, 5, K, 2], [1, 5, K], [1, 5], [1]] });
    expect(h.supportsAnswer()).toBe('expects 3 inputs and 4 outputs (PoseNet) or 4 inputs and 5 outputs (BodyPix), got 2 and 4');
    const int16: DecoderInput[] = good();
    int16[0] = { type: TensorType.INT16, shape: [1, 13, 9, K], data: new Int16Array(13 * 9 * K), scale: 1, zeroPoint: 0 };
    expect(decoderHarness(int16, OPTIONS).supportsAnswer()).toBe('int16 input 0 (heatmaps) (handles float32, uint8, int8)');
    expect(prepareError(int16)).toBe('PosenetDecoderOp (node 0): int16 input 0 (heatmaps) (handles float32, uint8, int8)');
    const intOut = decoderHarness(good(), OPTIONS, {
      outputTypes: [TensorType.FLOAT32, TensorType.FLOAT32, TensorType.FLOAT32, TensorType.INT32],
    });
    expect(intOut.supportsAnswer()).toBe('int32 output 3 (pose count) (handles float32 only)');
    expect(decoderHarness(good(), OPTIONS).supportsAnswer()).toBe(true);
  });

  it('options: all four present, of the right kind, in range', () => {
    const opts = (entries: Parameters<typeof flexMap>[0]) => prepareError(good(), OPTIONS, { customOptions: flexMap(entries) });
    expect(opts({ max_detections: 5, score_threshold: { float: 0.5 }, nms_radius: { float: 20 } })).toBe(
      'PosenetDecoderOp (node 0): custom options: flexbuffer: option "stride" is missing (present: "max_detections", "nms_radius", "score_threshold")',
    );
    expect(opts({ max_detections: 5, score_threshold: { float: 0.5 }, stride: { float: 16 }, nms_radius: { float: 20 } })).toBe(
      'PosenetDecoderOp (node 0): custom options: flexbuffer: option "stride" must be an integer, found FLOAT',
    );
    expect(prepareError(good(), OPTIONS, { customOptions: null })).toBe(
      'PosenetDecoderOp (node 0): custom options (a FlexBuffers map) are missing',
    );
    expect(prepareError(good(), { ...OPTIONS, stride: 0 })).toBe('PosenetDecoderOp (node 0): option stride is 0, must be at least 1');
    expect(prepareError(good(), { ...OPTIONS, maxDetections: 0 }, { outputShapes: [[1, 0, K, 2], [1, 0, K], [1, 0], [1]] })).toBe(
      'PosenetDecoderOp (node 0): option max_detections is 0, must be at least 1',
    );
    expect(prepareError(good(), { ...OPTIONS, scoreThreshold: 1 })).toMatch(/option score_threshold is 1: its log-odds .* is not a number/);
    expect(prepareError(good(), { ...OPTIONS, scoreThreshold: -0.5 })).toMatch(/option score_threshold is -0.5: its log-odds/);
    expect(prepareError(good(), { ...OPTIONS, nmsRadius: Infinity })).toBe(
      'PosenetDecoderOp (node 0): option nms_radius is Infinity, must be finite',
    );
  });

  it('input shapes: rank 4, batch 1, 17 / 34 / 64 channels, offsets on the heatmaps grid', () => {
    const inputs = good();
    expect(prepareError([floatInput(13, 9, 16, new Float32Array(13 * 9 * 16)), inputs[1]!, inputs[2]!])).toBe(
      'PosenetDecoderOp (node 0): heatmaps (tensor 0) has shape [1, 13, 9, 16]: dimension 3 must be 17 (17 keypoints), is 16',
    );
    expect(prepareError([inputs[0]!, { ...inputs[1]!, shape: [2, 13, 9, K] }, inputs[2]!])).toBe(
      'PosenetDecoderOp (node 0): short offsets (tensor 1) has shape [2, 13, 9, 17]: dimension 0 must be 1 (batch 1), is 2',
    );
    expect(prepareError([inputs[0]!, inputs[1]!, { ...inputs[2]!, shape: [13, 9, 64] }])).toBe(
      'PosenetDecoderOp (node 0): mid offsets (tensor 2) must have 4 dimensions, has shape [13, 9, 64]',
    );
    expect(prepareError([inputs[0]!, inputs[1]!, floatInput(12, 9, 64, new Float32Array(12 * 9 * 64))])).toBe(
      "PosenetDecoderOp (node 0): mid offsets (tensor 2) has shape [1, 12, 9, 64]: its 12x9 grid must be the heatmaps' 13x9 (tensor 0)",
    );
  });

  it('quantization: per tensor, with a positive scale', () => {
    const inputs = good();
    const u8 = (scale?: number | number[]): DecoderInput => ({
      type: TensorType.UINT8,
      shape: [1, 13, 9, K],
      data: new Uint8Array(13 * 9 * K),
      ...(scale !== undefined ? { scale, zeroPoint: Array.isArray(scale) ? scale.map(() => 0) : 0 } : {}),
    });
    expect(prepareError([u8(), inputs[1]!, inputs[2]!])).toBe(
      'PosenetDecoderOp (node 0): uint8 heatmaps (tensor 0) has no quantization parameters',
    );
    expect(prepareError([u8([0.1, 0.2]), inputs[1]!, inputs[2]!])).toBe(
      'PosenetDecoderOp (node 0): uint8 heatmaps (tensor 0) is quantized per channel (2 scales); PosenetDecoderOp dequantizes with one scale and zero point',
    );
    expect(prepareError([u8(0), inputs[1]!, inputs[2]!])).toBe(
      'PosenetDecoderOp (node 0): uint8 heatmaps (tensor 0) has quantization scale 0, must be positive and finite',
    );
  });

  it('outputs: the shapes Coral resizes them to', () => {
    expect(prepareError(good(), OPTIONS, { outputShapes: [[1, 4, K, 2], [1, 5, K], [1, 5], [1]] })).toBe(
      'PosenetDecoderOp (node 0): output 0 (keypoints) (tensor 3) has shape [1, 4, 17, 2], expected [1, 5, 17, 2] (max_detections 5)',
    );
    expect(prepareError(good(), OPTIONS, { outputShapes: [[1, 5, K, 2], [1, 5, K], [1, 5], [2]] })).toBe(
      'PosenetDecoderOp (node 0): output 3 (pose count) (tensor 6) has shape [2], expected [1]',
    );
    // a scalar count is one float too
    expect(() => decoderHarness(good(), OPTIONS, { outputShapes: [[1, 5, K, 2], [1, 5, K], [1, 5], []] }).prepare()).not.toThrow();
  });

  it('BodyPix: 33x33 long offsets and [1, M, 33, 33] masks', () => {
    const s = scene(MASK_SIZE, MASK_SIZE, STRIDE, [{ at: [1, 1] }]);
    const base = [
      floatInput(MASK_SIZE, MASK_SIZE, K, s.heatmaps),
      floatInput(MASK_SIZE, MASK_SIZE, 2 * K, s.shorts),
      floatInput(MASK_SIZE, MASK_SIZE, 64, s.mids),
    ];
    expect(prepareError([...base, floatInput(17, 17, 2 * K, new Float32Array(17 * 17 * 2 * K))])).toBe(
      "PosenetDecoderOp (node 0): long offsets (tensor 3) has shape [1, 17, 17, 34]: the grid must be 33x33 (Coral sizes the masks 33x33 and indexes them with the long offsets' height and width)",
    );
    const longs = floatInput(MASK_SIZE, MASK_SIZE, 2 * K, new Float32Array(MASK_SIZE * MASK_SIZE * 2 * K));
    expect(prepareError([...base, longs], OPTIONS, { outputShapes: [[1, 5, K, 2], [1, 5, K], [1, 5], [1], [1, 5, 17, 17]] })).toBe(
      'PosenetDecoderOp (node 0): output 4 (instance masks) (tensor 8) has shape [1, 5, 17, 17], expected [1, 5, 33, 33] (max_detections 5)',
    );
  });

  it('arena: scratch buffers sized by the grid and max_detections; 112 persistent bytes of op data', () => {
    const h = decoderHarness(good(), OPTIONS).prepare();
    const cells = 13 * 9;
    // float32 heatmaps are read in place; short and mid offsets are dequantized into floats
    expect(h.scratchSizes).toEqual([
      cells * 2 * K * 4, // short offsets
      cells * 64 * 4, // mid offsets
      cells * K * 16, // root candidates: y, x, id, score
      (1 + 32) * 16, // decode queue: the root and one entry per skeleton edge
      5 * K * 2 * 4, // poses
      5 * K * 4, // their keypoint scores
      5 * 4, // pose scores
      5 * 4, // pose order
      K * 4, // keypoint order
      K, // decoded flags
      K, // occluded flags
    ]);
    // per input: kind, scratch buffer, elements, row length (int32) and scale, zero point (float32); 4 float parameters
    expect(h.persistentBytes).toBe((4 * (4 + 2) + 4) * 4);
    const u8 = decoderHarness(
      [{ type: TensorType.UINT8, shape: [1, 13, 9, K], data: new Uint8Array(cells * K), scale: 0.1, zeroPoint: 0 }, ...good().slice(1)],
      OPTIONS,
    ).prepare();
    expect(u8.scratchSizes[0]).toBe(cells * K * 4); // uint8 heatmaps get a float copy
  });
});

describe('the package exports', () => {
  it('names the 17 keypoints in heatmap-channel order', async () => {
    const { POSENET_KEYPOINTS } = await import('../index.js');
    expect(POSENET_KEYPOINTS).toHaveLength(K);
    expect(POSENET_KEYPOINTS[0]).toBe('nose');
    expect(POSENET_KEYPOINTS[16]).toBe('rightAnkle');
    expect(BODY).toHaveLength(K);
    expect(decoderOptions(OPTIONS).byteLength).toBeGreaterThan(0);
  });
});
