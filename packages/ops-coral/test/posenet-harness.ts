/**
 * Runs PosenetDecoderOp alone through core's KernelHarness (init → prepare → invoke with the
 * interpreter's phase rules): the tests describe the inputs and options, this lays out the tensors
 * (inputs first, then the 4 or 5 outputs at the shapes Coral's Prepare gives them) and reads the outputs.
 */
import { TensorType } from '@micrort/core';
import { KernelHarness, type HarnessTensorSpec } from '@micrort/core/testing';
import { flexMap, type FlexEntry } from '@micrort/test-support/flexbuffers';
import { MASK_SIZE, NUM_KEYPOINTS, POSENET_DECODER_OP } from '../src/index.js';

/** Decoder options as the FlexBuffers map holds them. */
export interface DecoderOptions {
  maxDetections: number;
  scoreThreshold: number;
  stride: number;
  nmsRadius: number;
}

/** The custom options bytes: ints as INT, the two floats as FLOAT (a double, read back as float). */
export function decoderOptions(o: DecoderOptions): Uint8Array {
  return flexMap({
    max_detections: o.maxDetections,
    score_threshold: { float: o.scoreThreshold },
    stride: o.stride,
    nms_radius: { float: o.nmsRadius },
  });
}

/** An input tensor of the decoder. */
export interface DecoderInput {
  type: TensorType;
  shape: number[];
  data: ArrayLike<number>;
  scale?: number | number[];
  zeroPoint?: number | number[];
}

/** A float32 input [1, h, w, c] with `data`. */
export function floatInput(h: number, w: number, c: number, data: ArrayLike<number>): DecoderInput {
  return { type: TensorType.FLOAT32, shape: [1, h, w, c], data };
}

/** The decoded poses, as plain arrays. */
export interface DecoderResult {
  count: number;
  /** [pose][keypoint] = [y, x] in pixels. */
  keypoints: number[][][];
  keypointScores: number[][];
  poseScores: number[];
  masks: number[][] | null;
  /** The raw output arrays. */
  raw: Float32Array[];
  harness: KernelHarness;
}

/** Builds the harness; `outputShapes` overrides the output shapes (for shape errors), `options` the custom options bytes. */
export function decoderHarness(
  inputs: DecoderInput[],
  options: DecoderOptions,
  extra: { outputShapes?: number[][]; customOptions?: Uint8Array | null; outputTypes?: TensorType[] } = {},
): KernelHarness {
  const M = options.maxDetections;
  const shapes = extra.outputShapes ?? [
    [1, M, NUM_KEYPOINTS, 2],
    [1, M, NUM_KEYPOINTS],
    [1, M],
    [1],
    ...(inputs.length === 4 ? [[1, M, MASK_SIZE, MASK_SIZE]] : []),
  ];
  const tensors: HarnessTensorSpec[] = [
    ...inputs.map((t) => ({
      type: t.type,
      shape: t.shape,
      data: t.data,
      ...(t.scale !== undefined ? { scale: t.scale, zeroPoint: t.zeroPoint ?? 0 } : {}),
    })),
    ...shapes.map((shape, i) => ({ type: extra.outputTypes?.[i] ?? TensorType.FLOAT32, shape })),
  ];
  return new KernelHarness({
    registration: POSENET_DECODER_OP,
    tensors,
    inputs: inputs.map((_, i) => i),
    outputs: shapes.map((_, i) => inputs.length + i),
    customInitialData: extra.customOptions === undefined ? decoderOptions(options) : extra.customOptions,
  });
}

/** Runs the decoder once and reads its outputs. */
export function decode(inputs: DecoderInput[], options: DecoderOptions): DecoderResult {
  const h = decoderHarness(inputs, options).invoke();
  return readResult(h, inputs.length === 4);
}

/** The outputs of a harness that has run. */
export function readResult(h: KernelHarness, masks: boolean): DecoderResult {
  const raw = [0, 1, 2, 3, ...(masks ? [4] : [])].map((i) => h.output<Float32Array>(i));
  const [kp, kps, ps, cnt] = raw as [Float32Array, Float32Array, Float32Array, Float32Array];
  const M = ps.length;
  const K = NUM_KEYPOINTS;
  return {
    count: cnt[0]!,
    keypoints: Array.from({ length: M }, (_, p) => Array.from({ length: K }, (_, k) => [kp[(p * K + k) * 2]!, kp[(p * K + k) * 2 + 1]!])),
    keypointScores: Array.from({ length: M }, (_, p) => Array.from(kps.subarray(p * K, (p + 1) * K))),
    poseScores: Array.from(ps),
    masks: masks ? Array.from({ length: M }, (_, p) => Array.from(raw[4]!.subarray(p * 33 * 33, (p + 1) * 33 * 33))) : null,
    raw,
    harness: h,
  };
}

/** A value for a FlexBuffers map entry (re-exported for tests writing malformed options). */
export type { FlexEntry };
