/**
 * BodyPix person masks as Coral's `DecodeInstanceMasks` computes them: every cell of the long-range
 * offset grid follows, for each keypoint, its long-range offsets (3 samples: the first jump and 2
 * refinements) to an "embedding" of where that keypoint of its person is; the cell belongs to the
 * decoded pose whose keypoints are nearest to those embeddings (least sum of squared distances, in
 * pixels; the first such pose on a tie). Like the pose decoder, nothing here passes a float to a call.
 */
import { followOffsets, type Bilinear } from './decoder-math.js';

const f = Math.fround;

/** Long-range refinement steps after the first jump (the op passes 2). */
export const LONG_OFFSET_REFINEMENT_STEPS = 2;

/** Working memory of the mask decoder: embeddings (2·17 floats), distances (one per pose), a point, interpolation. */
export interface MaskScratch {
  embeddings: Float32Array;
  distances: Float32Array;
  point: Float32Array;
  bilinear: Bilinear;
}

/**
 * `GetEmbedding`: from cell (yLocation, xLocation) follow keypoint `keypoint`'s long offsets (channels
 * `keypoint` and `numKeypoints + keypoint` of the [height, width, 2·numKeypoints] grid) `steps + 1`
 * times; `point` receives [y, x] × stride (pixels).
 */
export function embedding(
  yLocation: number,
  xLocation: number,
  longOffsets: Float32Array,
  keypoint: number,
  steps: number,
  height: number,
  width: number,
  numKeypoints: number,
  stride: number,
  point: Float32Array,
  b: Bilinear,
): void {
  point[0] = yLocation;
  point[1] = xLocation;
  for (let i = 0; i <= steps; i++) followOffsets(longOffsets, height, width, 2 * numKeypoints, keypoint, numKeypoints + keypoint, point, b);
  point[0] = point[0]! * stride;
  point[1] = point[1]! * stride;
}

/**
 * `ComputeSumSquaredDistance` of the embeddings to each of `numPoses` poses ([y, x] pairs, numKeypoints
 * per pose in `poses`) into `distances`: Σ over keypoints p of the squared distance from embedding p to
 * the pose's keypoint p, summed in float in keypoint order.
 */
export function sumSquaredDistances(
  embeddings: Float32Array,
  poses: Float32Array,
  numPoses: number,
  numKeypoints: number,
  distances: Float32Array,
): void {
  for (let k = 0; k < numPoses; k++) {
    const base = k * numKeypoints * 2;
    let d = 0;
    for (let p = 0; p < numKeypoints; p++) {
      // ComputeSquaredDistance(embedding p, pose keypoint p)
      const dy = f(poses[base + 2 * p]! - embeddings[2 * p]!);
      const dx = f(poses[base + 2 * p + 1]! - embeddings[2 * p + 1]!);
      d = f(d + f(f(dy * dy) + f(dx * dx)));
    }
    distances[k] = d;
  }
}

/**
 * `MatchEmbeddingToInstance`: the index of the pose (of `numPoses`, [y, x] pixels, numKeypoints per pose
 * in `poses`) nearest to the embeddings of cell (yLocation, xLocation): the first with the least sum of
 * squared distances (`std::min_element`). With no pose it returns 0, as Coral's does.
 */
export function matchEmbeddingToInstance(
  yLocation: number,
  xLocation: number,
  longOffsets: Float32Array,
  height: number,
  width: number,
  poses: Float32Array,
  numPoses: number,
  numKeypoints: number,
  steps: number,
  stride: number,
  scratch: MaskScratch,
): number {
  const { embeddings, distances, point, bilinear } = scratch;
  for (let k = 0; k < numKeypoints; k++) {
    embedding(yLocation, xLocation, longOffsets, k, steps, height, width, numKeypoints, stride, point, bilinear);
    embeddings[2 * k] = point[0]!;
    embeddings[2 * k + 1] = point[1]!;
  }
  sumSquaredDistances(embeddings, poses, numPoses, numKeypoints, distances);
  let best = 0;
  for (let p = 1; p < numPoses; p++) if (distances[p]! < distances[best]!) best = p;
  return best;
}

/**
 * `DecodeInstanceMasks`: `masks` ([maxDetections, height, width] floats) is cleared, then every cell
 * is set to 1 in the mask of the pose it matches, at `(pose · width + y) · height + x` as Coral indexes
 * it (the same as row-major [pose, y, x] for the square grids it is used with). With no pose nothing is
 * marked — Coral marks every cell of mask 0 then, because its empty search returns index 0.
 */
export function decodeInstanceMasks(
  longOffsets: Float32Array,
  height: number,
  width: number,
  poses: Float32Array,
  numPoses: number,
  numKeypoints: number,
  steps: number,
  stride: number,
  masks: Float32Array,
  scratch: MaskScratch,
): void {
  for (let i = 0; i < masks.length; i++) masks[i] = 0;
  if (numPoses === 0) return;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const pose = matchEmbeddingToInstance(y, x, longOffsets, height, width, poses, numPoses, numKeypoints, steps, stride, scratch);
      masks[(pose * width + y) * height + x] = 1;
    }
  }
}
