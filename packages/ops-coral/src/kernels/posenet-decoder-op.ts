/**
 * PosenetDecoderOp (Coral: coral/posenet/posenet_decoder_op.cc in libcoral, formerly
 * src/cpp/posenet/posenet_decoder_op.cc in edgetpu): the multi-person pose decoder at the end of Coral's
 * PoseNet and BodyPix `.tflite` models.
 *
 * Inputs: 0 heatmaps [1, H, W, 17] (keypoint logits), 1 short-range offsets [1, H, W, 34] (y for the 17
 * keypoints, then x), 2 mid-range offsets [1, H, W, 64] (y then x of the 16 forward edges, then of the
 * 16 backward edges), offsets in pixels; BodyPix adds 3 long-range offsets [1, 33, 33, 34].
 * Each input is float32 or uint8 (per-tensor affine), as Coral accepts; int8 is accepted too (a micrort
 * extension, dequantized the same way).
 * Outputs, all float32: 0 keypoints [1, M, 17, 2] ([y, x] in input pixels), 1 keypoint scores
 * [1, M, 17] (probabilities), 2 pose scores [1, M], 3 the number of poses [1] (a float); BodyPix adds
 * 4 instance masks [1, M, 33, 33] (1 where a cell belongs to that pose). M = max_detections.
 * Options (a FlexBuffers map): max_detections (int), score_threshold (float, a probability),
 * stride (int, pixels per heatmap cell), nms_radius (float, pixels).
 *
 * As Coral's Eval: inputs are dequantized into float scratch buffers — heatmaps as `(q - zero_point) *
 * scale`, offsets with an extra `1 / stride` (`(q - zp) * (scale * (1/stride))`, float32 offsets
 * `x * (1/stride)`) — then `decodeAllPoses` runs with 5 refinement steps and an NMS radius of
 * nms_radius / stride cells, and BodyPix's masks are decoded from the written keypoints. Float32
 * heatmaps are read in place (Coral's copy multiplies them by 1.0f, which changes no value).
 *
 * Where micrort differs from Coral: output entries past the number of poses are set to 0 (Coral leaves
 * whatever the buffers held), and with no pose every mask is 0 (Coral marks all of mask 0). Prepare checks
 * what Coral leaves unchecked or fails on at Eval: all four options present, max_detections ≥ 1,
 * stride ≥ 1, a score_threshold whose log-odds is a number, finite options, per-tensor quantization with a
 * positive scale, offsets on the heatmaps' grid, 33×33 long offsets (the only size Coral's mask indexing is
 * right for), and the output shapes Coral resizes the outputs to (micrort's shapes are static).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TensorData,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkDim, checkRank, checkShape, label } from './coral-common.js';
import { flexOption, readFlexOptions, shapeText } from '@micrort/kernel-support';
import { bilinear } from './posenet/decoder-math.js';
import {
  MID_SHORT_OFFSET_REFINEMENT_STEPS,
  decodeAllPoses,
  MIN_SCORE_LOGIT,
  decodeParams,
  decodeQueueCapacity,
  type DecodeParams,
  type DecoderScratch,
} from './posenet/decode-poses.js';
import { LONG_OFFSET_REFINEMENT_STEPS, decodeInstanceMasks, type MaskScratch } from './posenet/instance-masks.js';
import { KeypointPriorityQueue, QUEUE_ENTRY_FLOATS } from './posenet/libstdcxx.js';
import { NUM_EDGES, NUM_KEYPOINTS } from './posenet/pose-graph.js';

const OP = 'PosenetDecoderOp';

const HEATMAPS = 0;
const SHORT_OFFSETS = 1;
const MID_OFFSETS = 2;
const LONG_OFFSETS = 3;

const KEYPOINTS = 0;
const KEYPOINT_SCORES = 1;
const POSE_SCORES = 2;
const POSE_COUNT = 3;
const INSTANCE_MASKS = 4;

/** BodyPix's long-offset grid and mask size (Coral sizes the masks 33×33). */
export const MASK_SIZE = 33;

const INPUT_NAMES = ['heatmaps', 'short offsets', 'mid offsets', 'long offsets'];
const OUTPUT_NAMES = ['keypoints', 'keypoint scores', 'pose scores', 'pose count', 'instance masks'];
const INPUT_TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.UINT8, TensorType.INT8];

/** How one input becomes float: `(q - zeroPoint) * scale`, or `x * scale` for float32 (`zeroPoint` 0). */
interface InputPlan {
  type: TensorType;
  zeroPoint: number;
  /** float32: scale of the quantization times the extra scale (1 or 1/stride), rounded as the C++ does. */
  scale: number;
  elements: number;
  /** Rows of the grid (H): the input is converted a row at a time. */
  rows: number;
}

/** How `floats()` makes input i float: read in place, or into a scratch buffer from float32, uint8 or int8. */
const IN_PLACE = 0;
const FROM_FLOAT32 = 1;
const FROM_UINT8 = 2;
const FROM_INT8 = 3;

/** Per input, in `PosenetDecoderData.plan` (int32): kind, scratch buffer, element count, elements per grid row. */
const PLAN_INTS = 4;
/** Per input, in `PosenetDecoderData.dequant` (float32): scale, zero point. */
const PLAN_FLOATS = 2;
/** Bytes of the persistent op data: 4 inputs × (4 int32 + 2 float32), and the decoder's 4 float parameters. */
const OP_DATA_BYTES = (4 * (PLAN_INTS + PLAN_FLOATS) + 4) * 4;

/** Options, geometry, dequantization and scratch buffers, settled in prepare. */
interface PosenetDecoderData {
  params: DecodeParams;
  masks: boolean;
  /** Per input: kind (IN_PLACE…FROM_INT8), scratch buffer index, elements, elements per row — persistent arena memory. */
  plan: Int32Array;
  /** Per input: the scale it is multiplied by and the zero point subtracted first, as Coral's float32 values. */
  dequant: Float32Array;
  candidates: number;
  decodeQueue: number;
  poses: number;
  keypointScores: number;
  instanceScores: number;
  instanceOrder: number;
  keypointOrder: number;
  decoded: number;
  occluded: number;
  embeddings: number;
  distances: number;
  /** Views rebound to the scratch buffers at every invoke; `root`, `point` and `bilinear` are a few floats of op data. */
  scratch: DecoderScratch;
  masksScratch: MaskScratch;
}

/** Why the node's arity or types are not handled, or null when they are. */
function nodeProblem(context: TfLiteContext, node: Node): string | null {
  const nIn = node.inputs.length;
  const nOut = node.outputs.length;
  if (!((nIn === 3 && nOut === 4) || (nIn === 4 && nOut === 5)))
    return `expects 3 inputs and 4 outputs (PoseNet) or 4 inputs and 5 outputs (BodyPix), got ${nIn} and ${nOut}`;
  for (let i = 0; i < nIn; i++) {
    if (node.inputs[i]! < 0) return `input ${i} (${INPUT_NAMES[i]}) is omitted`;
    const t = context.getTensor(node.inputs[i]!);
    if (!INPUT_TYPES.includes(t.type)) return `${tensorTypeName(t.type)} input ${i} (${INPUT_NAMES[i]}) (handles float32, uint8, int8)`;
  }
  for (let i = 0; i < nOut; i++) {
    if (node.outputs[i]! < 0) return `output ${i} (${OUTPUT_NAMES[i]}) is omitted`;
    const t = context.getTensor(node.outputs[i]!);
    if (t.type !== TensorType.FLOAT32) return `${tensorTypeName(t.type)} output ${i} (${OUTPUT_NAMES[i]}) (handles float32 only)`;
  }
  return null;
}

function supports(context: TfLiteContext, node: Node): true | string {
  return nodeProblem(context, node) ?? true;
}

/** Checks one input's type, quantization, rank, batch and channels; returns its dequantization. */
function planInput(node: Node, t: Tensor, what: string, channels: number, why: string, extraScale: number): InputPlan {
  checkRank(OP, node, what, t, 4);
  checkDim(OP, node, what, t, 0, 1, 'batch 1');
  checkDim(OP, node, what, t, 3, channels, why);
  if (t.dims[1]! < 1 || t.dims[2]! < 1) throw new KernelError(OP, node.index, `${label(what, t)} has an empty grid ${shapeText(t.dims)}`);
  const rows = t.dims[1]!;
  if (t.type === TensorType.FLOAT32) return { type: t.type, zeroPoint: 0, scale: extraScale, elements: t.elementCount, rows };
  const q = t.quantization;
  const type = tensorTypeName(t.type);
  if (!q || q.scale.length === 0) throw new KernelError(OP, node.index, `${type} ${label(what, t)} has no quantization parameters`);
  if (q.scale.length !== 1)
    throw new KernelError(
      OP,
      node.index,
      `${type} ${label(what, t)} is quantized per channel (${q.scale.length} scales); PosenetDecoderOp dequantizes with one scale and zero point`,
    );
  const scale = q.scale[0]!;
  if (!(scale > 0 && Number.isFinite(scale)))
    throw new KernelError(OP, node.index, `${type} ${label(what, t)} has quantization scale ${scale}, must be positive and finite`);
  return { type: t.type, zeroPoint: q.zeroPoint[0] ?? 0, scale: Math.fround(scale * extraScale), elements: t.elementCount, rows };
}

function prepare(context: TfLiteContext, node: Node): void {
  const problem = nodeProblem(context, node);
  if (problem !== null) throw new KernelError(OP, node.index, problem);
  const masks = node.inputs.length === 4;

  const options = readFlexOptions(OP, node);
  const maxDetections = flexOption(OP, node, () => options.int32('max_detections'));
  const scoreThreshold = flexOption(OP, node, () => options.float32('score_threshold'));
  const stride = flexOption(OP, node, () => options.int32('stride'));
  const nmsRadius = flexOption(OP, node, () => options.float32('nms_radius'));
  if (!(maxDetections >= 1)) throw new KernelError(OP, node.index, `option max_detections is ${maxDetections}, must be at least 1`);
  if (!(stride >= 1)) throw new KernelError(OP, node.index, `option stride is ${stride}, must be at least 1`);
  if (!Number.isFinite(nmsRadius)) throw new KernelError(OP, node.index, `option nms_radius is ${nmsRadius}, must be finite`);
  const d = node.userData as PosenetDecoderData;
  const params = decodeParams(
    {
      height: 0,
      width: 0,
      maxDetections,
      scoreThreshold,
      refinementSteps: MID_SHORT_OFFSET_REFINEMENT_STEPS,
      nmsRadius: Math.fround(nmsRadius / stride),
      stride,
    },
    d.params.reals,
  );
  if (!Number.isFinite(scoreThreshold) || Number.isNaN(params.reals[MIN_SCORE_LOGIT]!))
    throw new KernelError(
      OP,
      node.index,
      `option score_threshold is ${scoreThreshold}: its log-odds -log(1/(t + 1e-6) - 1) is not a number, so no keypoint could pass; use a probability in [0, 1)`,
    );

  // Coral passes the extra scale as a float argument: (float)(1.0 / stride).
  const invStride = Math.fround(1 / stride);
  const heatmaps = context.getTensor(node.inputs[HEATMAPS]!);
  const shorts = context.getTensor(node.inputs[SHORT_OFFSETS]!);
  const mids = context.getTensor(node.inputs[MID_OFFSETS]!);
  const inputs = [
    planInput(node, heatmaps, 'heatmaps', NUM_KEYPOINTS, `${NUM_KEYPOINTS} keypoints`, 1),
    planInput(node, shorts, 'short offsets', 2 * NUM_KEYPOINTS, `y and x for ${NUM_KEYPOINTS} keypoints`, invStride),
    planInput(node, mids, 'mid offsets', 4 * NUM_EDGES, `y and x for ${NUM_EDGES} forward and ${NUM_EDGES} backward edges`, invStride),
  ];
  const height = heatmaps.dims[1]!;
  const width = heatmaps.dims[2]!;
  for (const [t, what] of [
    [shorts, 'short offsets'],
    [mids, 'mid offsets'],
  ] as const) {
    if (t.dims[1] !== height || t.dims[2] !== width)
      throw new KernelError(
        OP,
        node.index,
        `${label(what, t)} has shape ${shapeText(t.dims)}: its ${t.dims[1]}x${t.dims[2]} grid must be the heatmaps' ${height}x${width} (tensor ${heatmaps.index})`,
      );
  }
  if (masks) {
    const longs = context.getTensor(node.inputs[LONG_OFFSETS]!);
    inputs.push(planInput(node, longs, 'long offsets', 2 * NUM_KEYPOINTS, `y and x for ${NUM_KEYPOINTS} keypoints`, invStride));
    if (longs.dims[1] !== MASK_SIZE || longs.dims[2] !== MASK_SIZE)
      throw new KernelError(
        OP,
        node.index,
        `${label('long offsets', longs)} has shape ${shapeText(longs.dims)}: the grid must be ${MASK_SIZE}x${MASK_SIZE} (Coral sizes the masks ${MASK_SIZE}x${MASK_SIZE} and indexes them with the long offsets' height and width)`,
      );
  }

  const M = maxDetections;
  const why = `max_detections ${M}`;
  const out = (i: number) => context.getTensor(node.outputs[i]!);
  checkShape(OP, node, 'output 0 (keypoints)', out(KEYPOINTS), [1, M, NUM_KEYPOINTS, 2], why);
  checkShape(OP, node, 'output 1 (keypoint scores)', out(KEYPOINT_SCORES), [1, M, NUM_KEYPOINTS], why);
  checkShape(OP, node, 'output 2 (pose scores)', out(POSE_SCORES), [1, M], why);
  const count = out(POSE_COUNT);
  if (count.elementCount !== 1 || count.dims.length > 1)
    throw new KernelError(OP, node.index, `${label('output 3 (pose count)', count)} has shape ${shapeText(count.dims)}, expected [1]`);
  if (masks) checkShape(OP, node, 'output 4 (instance masks)', out(INSTANCE_MASKS), [1, M, MASK_SIZE, MASK_SIZE], why);

  const F32 = 4;
  // float32 heatmaps are used in place: Coral's copy multiplies them by 1.0f
  for (let i = 0; i < inputs.length; i++) {
    const plan = inputs[i]!;
    const inPlace = i === HEATMAPS && plan.type === TensorType.FLOAT32;
    d.plan[i * PLAN_INTS] = inPlace
      ? IN_PLACE
      : plan.type === TensorType.FLOAT32
        ? FROM_FLOAT32
        : plan.type === TensorType.UINT8
          ? FROM_UINT8
          : FROM_INT8;
    d.plan[i * PLAN_INTS + 1] = inPlace ? -1 : context.requestScratchBufferInArena(plan.elements * F32);
    d.plan[i * PLAN_INTS + 2] = plan.elements;
    d.plan[i * PLAN_INTS + 3] = plan.elements / plan.rows;
    d.dequant[i * PLAN_FLOATS] = plan.scale;
    d.dequant[i * PLAN_FLOATS + 1] = plan.zeroPoint;
  }
  const queueBytes = (entries: number) => entries * QUEUE_ENTRY_FLOATS * F32;
  params.height = height;
  params.width = width;
  d.params = params;
  d.masks = masks;
  d.candidates = context.requestScratchBufferInArena(queueBytes(height * width * NUM_KEYPOINTS));
  d.decodeQueue = context.requestScratchBufferInArena(queueBytes(decodeQueueCapacity()));
  d.poses = context.requestScratchBufferInArena(M * NUM_KEYPOINTS * 2 * F32);
  d.keypointScores = context.requestScratchBufferInArena(M * NUM_KEYPOINTS * F32);
  d.instanceScores = context.requestScratchBufferInArena(M * F32);
  d.instanceOrder = context.requestScratchBufferInArena(M * 4);
  d.keypointOrder = context.requestScratchBufferInArena(NUM_KEYPOINTS * 4);
  d.decoded = context.requestScratchBufferInArena(NUM_KEYPOINTS);
  d.occluded = context.requestScratchBufferInArena(NUM_KEYPOINTS);
  d.embeddings = masks ? context.requestScratchBufferInArena(2 * NUM_KEYPOINTS * F32) : -1;
  d.distances = masks ? context.requestScratchBufferInArena(M * F32) : -1;
}

function init(context: TfLiteContext): PosenetDecoderData {
  const region = context.allocatePersistentBuffer(OP_DATA_BYTES);
  const none = new Float32Array(0);
  const point = new Float32Array(2);
  const work = bilinear();
  return {
    params: decodeParams(
      { height: 0, width: 0, maxDetections: 0, scoreThreshold: 0, refinementSteps: 0, nmsRadius: 0, stride: 1 },
      new Float32Array(region.buffer, region.offset + 4 * (PLAN_INTS + PLAN_FLOATS) * 4, 4),
    ),
    masks: false,
    plan: new Int32Array(region.buffer, region.offset, 4 * PLAN_INTS),
    dequant: new Float32Array(region.buffer, region.offset + 4 * PLAN_INTS * 4, 4 * PLAN_FLOATS),
    candidates: -1,
    decodeQueue: -1,
    poses: -1,
    keypointScores: -1,
    instanceScores: -1,
    instanceOrder: -1,
    keypointOrder: -1,
    decoded: -1,
    occluded: -1,
    embeddings: -1,
    distances: -1,
    scratch: {
      candidates: new KeypointPriorityQueue(none),
      decodeQueue: new KeypointPriorityQueue(none),
      poses: none,
      keypointScores: none,
      instanceScores: none,
      instanceOrder: new Int32Array(0),
      keypointOrder: new Int32Array(0),
      decoded: new Uint8Array(0),
      occluded: new Uint8Array(0),
      root: new Float32Array(4),
      point,
      bilinear: work,
    },
    masksScratch: { embeddings: none, distances: none, point, bilinear: work },
  };
}

/**
 * Input `i` as floats: the input itself, or Coral's DequantizeTensor into its scratch buffer — float32 as
 * `x * scale` (scale = 1/stride for the offsets), uint8 as `(q - float(zero_point)) * (scale * extra)`, int8
 * the same way (a micrort extension: Coral accepts uint8 only). The values are converted a row of the grid
 * at a time (see `dequantizeRow`).
 */
function floats(context: TfLiteContext, node: Node, d: PosenetDecoderData, i: number): Float32Array {
  const src = context.getEvalTensor(node.inputs[i]!).data;
  const kind = d.plan[i * PLAN_INTS]!;
  if (kind === IN_PLACE) return src as Float32Array;
  const dst = context.getScratchBuffer(d.plan[i * PLAN_INTS + 1]!).f32;
  const n = d.plan[i * PLAN_INTS + 2]!;
  const row = d.plan[i * PLAN_INTS + 3]!;
  for (let from = 0; from < n; from += row) dequantizeRow(kind, src, dst, from, from + row, d.dequant, i * PLAN_FLOATS);
  return dst;
}

/**
 * Converts `src[from..to)` into `dst` (see `floats`). A function called many times per invoke: V8 compiles
 * it whole soon, whereas a function called once per invoke that spends its time in one long loop can stay
 * half-compiled (on-stack replacement only) and box floats in its first iteration at every call. Its
 * caller handles only integers, so it boxes nothing either way.
 */
function dequantizeRow(
  kind: number,
  src: TensorData,
  dst: Float32Array,
  from: number,
  to: number,
  dequant: Float32Array,
  slot: number,
): void {
  const scale = dequant[slot]!;
  if (kind === FROM_FLOAT32) {
    const x = src as Float32Array;
    for (let k = from; k < to; k++) dst[k] = x[k]! * scale;
  } else {
    const zeroPoint = dequant[slot + 1]!;
    const q = src as Uint8Array | Int8Array;
    for (let k = from; k < to; k++) dst[k] = (q[k]! - zeroPoint) * scale;
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = node.userData as PosenetDecoderData;
  const s = d.scratch;
  s.candidates.entries = context.getScratchBuffer(d.candidates).f32;
  s.decodeQueue.entries = context.getScratchBuffer(d.decodeQueue).f32;
  s.poses = context.getScratchBuffer(d.poses).f32;
  s.keypointScores = context.getScratchBuffer(d.keypointScores).f32;
  s.instanceScores = context.getScratchBuffer(d.instanceScores).f32;
  s.instanceOrder = context.getScratchBuffer(d.instanceOrder).i32;
  s.keypointOrder = context.getScratchBuffer(d.keypointOrder).i32;
  s.decoded = context.getScratchBuffer(d.decoded).u8;
  s.occluded = context.getScratchBuffer(d.occluded).u8;

  const heatmaps = floats(context, node, d, HEATMAPS);
  const shorts = floats(context, node, d, SHORT_OFFSETS);
  const mids = floats(context, node, d, MID_OFFSETS);
  const keypoints = context.getEvalTensor(node.outputs[KEYPOINTS]!).data as Float32Array;
  const keypointScores = context.getEvalTensor(node.outputs[KEYPOINT_SCORES]!).data as Float32Array;
  const poseScores = context.getEvalTensor(node.outputs[POSE_SCORES]!).data as Float32Array;
  const count = decodeAllPoses(heatmaps, shorts, mids, d.params, s, keypoints, keypointScores, poseScores);
  for (let i = count * NUM_KEYPOINTS * 2; i < keypoints.length; i++) keypoints[i] = 0;
  for (let i = count * NUM_KEYPOINTS; i < keypointScores.length; i++) keypointScores[i] = 0;
  for (let i = count; i < poseScores.length; i++) poseScores[i] = 0;
  (context.getEvalTensor(node.outputs[POSE_COUNT]!).data as Float32Array)[0] = count;

  if (d.masks) {
    const longs = floats(context, node, d, LONG_OFFSETS);
    const masks = context.getEvalTensor(node.outputs[INSTANCE_MASKS]!).data as Float32Array;
    const m = d.masksScratch;
    m.embeddings = context.getScratchBuffer(d.embeddings).f32;
    m.distances = context.getScratchBuffer(d.distances).f32;
    decodeInstanceMasks(
      longs,
      MASK_SIZE,
      MASK_SIZE,
      keypoints,
      count,
      NUM_KEYPOINTS,
      LONG_OFFSET_REFINEMENT_STEPS,
      d.params.stride,
      masks,
      m,
    );
  }
}

/** PosenetDecoderOp, version 1 (the version Coral's models use; its resolver registers it without one). */
export const POSENET_DECODER_OP: Registration<PosenetDecoderData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports,
  init,
  prepare,
  invoke,
};
