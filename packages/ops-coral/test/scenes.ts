/**
 * Hand-made decoder inputs whose answer is known without running the decoder: people whose keypoints
 * sit on whole heatmap cells, heatmap logits that peak there over a flat background, zero short offsets,
 * and mid-range offsets that point exactly from each keypoint to its skeleton neighbours (laid out as the
 * network lays them out: forward y, forward x, backward y, backward x blocks). Decoding such a person
 * from its nose lands every keypoint on its cell, with the logit of that cell as its score.
 */
import { NUM_EDGES, NUM_KEYPOINTS, POSENET_EDGES } from '../src/index.js';

/** Cells ([row, column]) of the 17 keypoints of a person standing in a 12×7 box at the origin. */
export const BODY: readonly (readonly [number, number])[] = [
  [1, 3], // nose
  [0, 2], // left eye
  [0, 4], // right eye
  [1, 1], // left ear
  [1, 5], // right ear
  [3, 1], // left shoulder
  [3, 5], // right shoulder
  [5, 0], // left elbow
  [5, 6], // right elbow
  [7, 0], // left wrist
  [7, 6], // right wrist
  [7, 2], // left hip
  [7, 4], // right hip
  [9, 2], // left knee
  [9, 4], // right knee
  [11, 2], // left ankle
  [11, 4], // right ankle
];

/** Keypoint logits with the nose highest (so decoding starts there); multiples of 1/16. */
export const LOGITS: readonly number[] = [4, 3.5, 3.375, 2, 2.125, 3, 3.125, 2.5, 2.625, 1.5, 1.625, 2.25, 2.375, 1.75, 1.875, 1, 1.25];

/** A person: the BODY moved by `at` ([rows, columns]), its logits LOGITS + `logitShift`. */
export interface Person {
  at: readonly [number, number];
  logitShift?: number;
  /** Replaces LOGITS. */
  logits?: readonly number[];
}

/** The person's keypoint cells. */
export function cells(p: Person): [number, number][] {
  return BODY.map(([y, x]) => [y + p.at[0], x + p.at[1]]);
}

/** The person's keypoint logits. */
export function logits(p: Person): number[] {
  return (p.logits ?? LOGITS).map((l) => l + (p.logitShift ?? 0));
}

/** Mid-offset channels of directed edge e, as the network writes them: [y channel, x channel]. */
export function midChannels(e: number): [number, number] {
  const y = e < NUM_EDGES ? e : 2 * NUM_EDGES + (e - NUM_EDGES);
  return [y, y + NUM_EDGES];
}

/** Heatmaps (background logit elsewhere), short offsets (0) and mid offsets (pixels) of a scene. */
export function scene(
  height: number,
  width: number,
  stride: number,
  people: readonly Person[],
  background = -10,
): { heatmaps: Float32Array; shorts: Float32Array; mids: Float32Array } {
  const K = NUM_KEYPOINTS;
  const heatmaps = new Float32Array(height * width * K).fill(background);
  const shorts = new Float32Array(height * width * 2 * K);
  const mids = new Float32Array(height * width * 4 * NUM_EDGES);
  for (const p of people) {
    const at = cells(p);
    const l = logits(p);
    at.forEach(([y, x], k) => (heatmaps[(y * width + x) * K + k] = l[k]!));
    POSENET_EDGES.forEach(([parent, child], e) => {
      const [py, px] = at[parent]!;
      const [cy, cx] = at[child]!;
      const [chy, chx] = midChannels(e);
      mids[(py * width + px) * 4 * NUM_EDGES + chy] = (cy - py) * stride;
      mids[(py * width + px) * 4 * NUM_EDGES + chx] = (cx - px) * stride;
    });
  }
  return { heatmaps, shorts, mids };
}

/** 1 / (1 + e^-x) in double. */
export function probability(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}
