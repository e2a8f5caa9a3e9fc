/**
 * Multi-person pose decoding as Coral's `DecodeAllPoses` does it (PersonLab, arXiv:1803.08225):
 *
 * 1. every heatmap logit ≥ logodds(score_threshold) that no neighbour in its 3×3 window exceeds becomes a
 *    root candidate, at its cell moved by its short-range offset, in a max-priority queue by score;
 * 2. candidates are popped in score order; one whose keypoint lies within the NMS radius of the same
 *    keypoint of an already kept pose is skipped; otherwise the whole pose is decoded from it by walking
 *    the skeleton (mid-range offsets to a neighbour, then 5 short-range refinements), highest-scoring
 *    keypoint first; the keypoint scores become sigmoid probabilities and the pose is kept when their mean
 *    reaches score_threshold — until max_detections poses are kept or no candidate is left;
 * 3. soft keypoint NMS: each pose's score becomes the mean of its keypoint scores, counting only keypoints
 *    farther than the NMS radius from the same keypoint of every higher-scoring pose;
 * 4. poses are written in decreasing order of that score, stopping at the first below score_threshold,
 *    with coordinates scaled from heatmap cells to pixels (× stride).
 *
 * Heatmaps are logits; offsets and the NMS radius are in heatmap cells (the op divides them by the stride
 * first). All working memory comes from the caller (`DecoderScratch`), and no float is passed to or
 * returned from a call (see decoder-math.ts), so decoding allocates nothing.
 */
import { clamp, findDisplacedPosition, logodds, sampleChannels, sigmoidInPlace, type Bilinear } from './decoder-math.js';
import { KeypointPriorityQueue, QUEUE_ENTRY_FLOATS, decreasingArgSort } from './libstdcxx.js';
import { NUM_EDGES, NUM_KEYPOINTS, POSENET_ADJACENCY, type AdjacencyList } from './pose-graph.js';

const f = Math.fround;

/** Radius of the local-maximum window (`kLocalMaximumRadius`). */
export const LOCAL_MAXIMUM_RADIUS = 1;

/** Short-range refinement steps after each mid-range jump (the op passes 5). */
export const MID_SHORT_OFFSET_REFINEMENT_STEPS = 5;

/** Score of a keypoint not reached by the walk (before the sigmoid), as Coral initialises it. */
const UNDECODED_SCORE = -1e5;

/** Index in `DecodeParams.reals` of score_threshold, a probability in [0, 1). */
export const SCORE_THRESHOLD = 0;
/** Index in `DecodeParams.reals` of the NMS radius in heatmap cells (the op's nms_radius / stride, in float). */
export const NMS_RADIUS = 1;
/** Index in `DecodeParams.reals` of `Logodds(score_threshold)`: the least logit of a root candidate. */
export const MIN_SCORE_LOGIT = 2;
/** Index in `DecodeParams.reals` of `nms_radius * nms_radius` in float. */
export const SQUARED_NMS_RADIUS = 3;

/**
 * Decoder parameters. The float ones are float32 values kept in `reals` (indices SCORE_THRESHOLD …
 * SQUARED_NMS_RADIUS) rather than in object fields: a field that holds a small integer for one object
 * and a fraction for another loads as a boxed number where both meet, which would allocate in invoke.
 */
export interface DecodeParams {
  height: number;
  width: number;
  maxDetections: number;
  /** Mid → short refinement steps (5 in the op). */
  refinementSteps: number;
  /** Cell size in pixels: output coordinates are cells × stride. */
  stride: number;
  readonly reals: Float32Array;
}

/** What `decodeParams` is given: distances in heatmap cells. */
export interface DecodeOptions {
  height: number;
  width: number;
  maxDetections: number;
  scoreThreshold: number;
  refinementSteps: number;
  nmsRadius: number;
  stride: number;
}

/**
 * The parameters, with the values DecodeAllPoses derives from them (`Logodds(score_threshold)`, the
 * squared radius), their floats written to `reals` (4 floats; a new array by default).
 */
export function decodeParams(o: DecodeOptions, reals: Float32Array = new Float32Array(4)): DecodeParams {
  reals[SCORE_THRESHOLD] = o.scoreThreshold;
  reals[NMS_RADIUS] = o.nmsRadius;
  reals[MIN_SCORE_LOGIT] = logodds(reals[SCORE_THRESHOLD]!);
  reals[SQUARED_NMS_RADIUS] = reals[NMS_RADIUS]! * reals[NMS_RADIUS]!;
  return { height: o.height, width: o.width, maxDetections: o.maxDetections, refinementSteps: o.refinementSteps, stride: o.stride, reals };
}

/**
 * The decoder's working memory. Sizes: `candidates` holds height·width·17 entries, `decodeQueue`
 * 1 + 32 entries (the root plus one per skeleton edge), `poses` maxDetections·17·2 floats,
 * `keypointScores` maxDetections·17, `instanceScores` and `instanceOrder` maxDetections, `keypointOrder`
 * and `decoded` / `occluded` 17, `root` 4 and `point` 2.
 */
export interface DecoderScratch {
  candidates: KeypointPriorityQueue;
  decodeQueue: KeypointPriorityQueue;
  /** Decoded poses before rescoring, [y, x] per keypoint, in heatmap cells (`scratch_poses`). */
  poses: Float32Array;
  /** Their keypoint scores (`scratch_keypoint_scores`). */
  keypointScores: Float32Array;
  /** Pose scores (`all_instance_scores`). */
  instanceScores: Float32Array;
  /** Pose indices by decreasing score (`decreasing_indices`). */
  instanceOrder: Int32Array;
  /** Keypoint indices by decreasing score. */
  keypointOrder: Int32Array;
  /** Per keypoint: decoded in the current walk. */
  decoded: Uint8Array;
  /** Per keypoint: within the NMS radius of a higher-scoring pose. */
  occluded: Uint8Array;
  /** The root candidate being decoded: y, x, id, score. */
  root: Float32Array;
  /** [y, x] of a point being displaced or sampled. */
  point: Float32Array;
  /** Interpolation work area. */
  bilinear: Bilinear;
}

/** Capacity of the decode queue for an adjacency list: the root plus one entry per edge. */
export function decodeQueueCapacity(adjacency: AdjacencyList = POSENET_ADJACENCY): number {
  return 1 + adjacency.childIds.length;
}

/**
 * `BuildKeypointWithScoreQueue`: pushes every local maximum ≥ `reals[MIN_SCORE_LOGIT]` of the
 * [height, width, numKeypoints] scores, scanned by row, column, keypoint; its position is its cell moved
 * by the short offsets (channels j and numKeypoints + j), clamped to the grid. A neighbour of equal
 * score does not disqualify a maximum. `queue` is emptied first.
 */
export function buildKeypointQueue(
  scores: Float32Array,
  shortOffsets: Float32Array,
  height: number,
  width: number,
  numKeypoints: number,
  reals: Float32Array,
  radius: number,
  queue: KeypointPriorityQueue,
): void {
  queue.clear();
  const threshold = reals[MIN_SCORE_LOGIT]!;
  const yMax = f(height - 1);
  const xMax = f(width - 1);
  let scoreIndex = 0;
  for (let y = 0; y < height; y++) {
    const y0 = y - radius > 0 ? y - radius : 0;
    const y1 = y + radius + 1 < height ? y + radius + 1 : height;
    for (let x = 0; x < width; x++) {
      const x0 = x - radius > 0 ? x - radius : 0;
      const x1 = x + radius + 1 < width ? x + radius + 1 : width;
      let offsetIndex = 2 * scoreIndex;
      for (let j = 0; j < numKeypoints; j++, scoreIndex++, offsetIndex++) {
        const score = scores[scoreIndex]!;
        if (!(score >= threshold)) continue;
        let isMaximum = true;
        for (let yy = y0; yy < y1 && isMaximum; yy++) {
          for (let xx = x0; xx < x1; xx++) {
            if (scores[(yy * width + xx) * numKeypoints + j]! > score) {
              isMaximum = false;
              break;
            }
          }
        }
        if (!isMaximum) continue;
        const e = queue.entries;
        const o = queue.tail;
        e[o] = clamp(f(y + shortOffsets[offsetIndex]!), 0, yMax);
        e[o + 1] = clamp(f(x + shortOffsets[offsetIndex + numKeypoints]!), 0, xMax);
        e[o + 2] = j;
        e[o + 3] = score;
        queue.push();
      }
    }
  }
}

/**
 * `BacktrackDecodePose`: decodes one pose from the root keypoint (`scratch.root`: y, x, id). The root's
 * score is the scores sampled at its position; keypoints are then taken from `decodeQueue` highest score
 * first, and each one taken for the first time is written to `pose` ([y, x] at `poseBase + 2·id`) and
 * `keypointScores` (`scoreBase + id`), and queues its undecoded children at the position
 * `findDisplacedPosition` reaches along the connecting edge, with the scores sampled there.
 *
 * Edge ids above 16 (`kNumEdges`) are moved 16 further to skip the forward x block of the mid offsets;
 * Coral compares with `>`, so edge 16 itself (left eye → nose) keeps its id and reads channels 16 and
 * 16 + numEdges. That is reproduced.
 */
export function backtrackDecodePose(
  scores: Float32Array,
  shortOffsets: Float32Array,
  midOffsets: Float32Array,
  height: number,
  width: number,
  numKeypoints: number,
  numEdges: number,
  adjacency: AdjacencyList,
  steps: number,
  scratch: Pick<DecoderScratch, 'decodeQueue' | 'decoded' | 'root' | 'point' | 'bilinear'>,
  pose: Float32Array,
  poseBase: number,
  keypointScores: Float32Array,
  scoreBase: number,
): void {
  const queue = scratch.decodeQueue;
  const decoded = scratch.decoded;
  const point = scratch.point;
  const b = scratch.bilinear;
  const { start, childIds, edgeIds } = adjacency;
  const root = scratch.root;
  const rootId = root[2]! | 0;
  point[0] = root[0]!;
  point[1] = root[1]!;
  sampleKeypoint(scores, height, width, numKeypoints, point, rootId, b);
  queue.clear();
  let e = queue.entries;
  let o = queue.tail;
  e[o] = root[0]!;
  e[o + 1] = root[1]!;
  e[o + 2] = rootId;
  e[o + 3] = b.samples[0]!;
  queue.push();
  for (let k = 0; k < numKeypoints; k++) decoded[k] = 0;
  while (queue.size > 0) {
    e = queue.entries;
    const y = e[0]!;
    const x = e[1]!;
    const id = e[2]! | 0;
    const score = e[3]!;
    queue.pop();
    if (decoded[id]) continue;
    pose[poseBase + 2 * id] = y;
    pose[poseBase + 2 * id + 1] = x;
    keypointScores[scoreBase + id] = score;
    decoded[id] = 1;
    for (let k = start[id]!; k < start[id + 1]!; k++) {
      const child = childIds[k]!;
      if (decoded[child]) continue;
      let edge = edgeIds[k]!;
      if (edge > NUM_EDGES) edge += NUM_EDGES;
      point[0] = y;
      point[1] = x;
      findDisplacedPosition(shortOffsets, midOffsets, height, width, numKeypoints, numEdges, edge, child, steps, point, b);
      sampleKeypoint(scores, height, width, numKeypoints, point, child, b);
      e = queue.entries;
      o = queue.tail;
      e[o] = point[0]!;
      e[o + 1] = point[1]!;
      e[o + 2] = child;
      e[o + 3] = b.samples[0]!;
      queue.push();
    }
  }
}

const channel = new Int32Array(1);

/** `SampleTensorAtSingleChannel` of the scores at `point`, channel `id`, into `b.samples[0]`. */
function sampleKeypoint(
  scores: Float32Array,
  height: number,
  width: number,
  numKeypoints: number,
  point: Float32Array,
  id: number,
  b: Bilinear,
): void {
  channel[0] = id;
  sampleChannels(scores, height, width, numKeypoints, point, channel, 1, b);
}

/**
 * `PassKeypointNMS`: true when `keypoint` (y, x, id at its first 3 floats) is farther than the NMS
 * radius (squared distance > `reals[SQUARED_NMS_RADIUS]`) from keypoint `id` of each of the first `count` poses.
 */
export function passKeypointNms(
  poses: Float32Array,
  count: number,
  numKeypoints: number,
  keypoint: Float32Array,
  reals: Float32Array,
): boolean {
  const y = keypoint[0]!;
  const x = keypoint[1]!;
  const id = keypoint[2]! | 0;
  const squaredRadius = reals[SQUARED_NMS_RADIUS]!;
  for (let p = 0; p < count; p++) {
    const o = (p * numKeypoints + id) * 2;
    // ComputeSquaredDistance(keypoint, pose keypoint)
    const dy = f(poses[o]! - y);
    const dx = f(poses[o + 1]! - x);
    if (f(f(dy * dy) + f(dx * dx)) <= squaredRadius) return false;
  }
  return true;
}

/**
 * `FindOverlappingKeypoints(pose1, pose2)`: marks in `mask` every keypoint k whose positions in the two
 * poses (at `base1`, `base2` in `poses`) are within the radius; never clears a mark.
 */
export function markOverlappingKeypoints(
  poses: Float32Array,
  base1: number,
  base2: number,
  numKeypoints: number,
  reals: Float32Array,
  mask: Uint8Array,
): void {
  const squaredRadius = reals[SQUARED_NMS_RADIUS]!;
  for (let k = 0; k < numKeypoints; k++) {
    const a = base1 + 2 * k;
    const b = base2 + 2 * k;
    // ComputeSquaredDistance(pose1 keypoint, pose2 keypoint)
    const dy = f(poses[b]! - poses[a]!);
    const dx = f(poses[b + 1]! - poses[a + 1]!);
    if (f(f(dy * dy) + f(dx * dx)) <= squaredRadius) mask[k] = 1;
  }
}

/**
 * `PerformSoftKeypointNMS`: for the poses in `order[0..count)` (decreasing score), each pose's score
 * becomes the sum of its `topk` best keypoint scores (in decreasing order) leaving out the keypoints
 * within the radius of the same keypoint of a pose earlier in `order`, divided by `topk`. Writes
 * `instanceScores[pose]`.
 */
export function softKeypointNms(
  order: Int32Array,
  count: number,
  poses: Float32Array,
  keypointScores: Float32Array,
  numKeypoints: number,
  reals: Float32Array,
  topk: number,
  instanceScores: Float32Array,
  keypointOrder: Int32Array,
  occluded: Uint8Array,
): void {
  for (let i = 0; i < count; i++) {
    const current = order[i]!;
    for (let k = 0; k < numKeypoints; k++) occluded[k] = 0;
    for (let j = 0; j < i; j++) {
      markOverlappingKeypoints(poses, current * numKeypoints * 2, order[j]! * numKeypoints * 2, numKeypoints, reals, occluded);
    }
    const base = current * numKeypoints;
    decreasingArgSort(keypointScores, base, numKeypoints, keypointOrder);
    let total = 0;
    for (let k = 0; k < topk; k++) {
      const kp = keypointOrder[k]!;
      if (!occluded[kp]) total = f(total + keypointScores[base + kp]!);
    }
    instanceScores[current] = total / topk;
  }
}

/**
 * `DecodeAllPoses` (see the module comment). Writes up to `maxDetections` poses — `keypoints`
 * ([y, x] in pixels, 17 per pose), `keypointScores` (17 per pose) and `poseScores` — and returns how
 * many; entries past that are left as they were.
 */
export function decodeAllPoses(
  scores: Float32Array,
  shortOffsets: Float32Array,
  midOffsets: Float32Array,
  params: DecodeParams,
  scratch: DecoderScratch,
  keypoints: Float32Array,
  keypointScores: Float32Array,
  poseScores: Float32Array,
): number {
  const { height, width, maxDetections, refinementSteps, stride, reals } = params;
  const K = NUM_KEYPOINTS;
  const topk = K;
  const candidates = scratch.candidates;
  const poses = scratch.poses;
  const poseKeypointScores = scratch.keypointScores;
  const instanceScores = scratch.instanceScores;
  const order = scratch.instanceOrder;
  const root = scratch.root;

  buildKeypointQueue(scores, shortOffsets, height, width, K, reals, LOCAL_MAXIMUM_RADIUS, candidates);

  let count = 0;
  while (count < maxDetections && candidates.size > 0) {
    const top = candidates.entries;
    for (let i = 0; i < QUEUE_ENTRY_FLOATS; i++) root[i] = top[i]!;
    candidates.pop();
    if (!passKeypointNms(poses, count, K, root, reals)) continue;

    const poseBase = count * K * 2;
    const scoreBase = count * K;
    for (let k = 0; k < 2 * K; k++) poses[poseBase + k] = -1;
    for (let k = 0; k < K; k++) poseKeypointScores[scoreBase + k] = UNDECODED_SCORE;
    backtrackDecodePose(
      scores,
      shortOffsets,
      midOffsets,
      height,
      width,
      K,
      NUM_EDGES,
      POSENET_ADJACENCY,
      refinementSteps,
      scratch,
      poses,
      poseBase,
      poseKeypointScores,
      scoreBase,
    );
    sigmoidInPlace(poseKeypointScores, scoreBase, scoreBase + K);
    decreasingArgSort(poseKeypointScores, scoreBase, K, scratch.keypointOrder);
    let score = 0;
    for (let j = 0; j < topk; j++) score = f(score + poseKeypointScores[scoreBase + scratch.keypointOrder[j]!]!);
    score = f(score / topk);
    if (score >= reals[SCORE_THRESHOLD]!) {
      instanceScores[count] = score;
      count++;
    }
  }

  decreasingArgSort(instanceScores, 0, count, order);
  softKeypointNms(order, count, poses, poseKeypointScores, K, reals, topk, instanceScores, scratch.keypointOrder, scratch.occluded);
  decreasingArgSort(instanceScores, 0, count, order);

  let written = 0;
  for (let i = 0; i < count; i++) {
    const index = order[i]!;
    if (instanceScores[index]! < reals[SCORE_THRESHOLD]!) break;
    const from = index * K * 2;
    const to = written * K * 2;
    for (let k = 0; k < 2 * K; k++) keypoints[to + k] = poses[from + k]! * stride;
    for (let k = 0; k < K; k++) keypointScores[written * K + k] = poseKeypointScores[index * K + k]!;
    poseScores[written] = instanceScores[index]!;
    written++;
  }
  return written;
}
