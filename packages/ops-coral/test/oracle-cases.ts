/**
 * The inputs of the oracle test (coral-oracle.test.ts), generated from seeds so that the fixture holds
 * only Coral's outputs: decoder scenes (random logits and offsets, people-shaped scenes, flat heatmaps
 * where every cell ties), and score arrays with many ties for the sort and the priority queue.
 */
import { NUM_EDGES, NUM_KEYPOINTS, POSENET_EDGES } from '../src/index.js';

/** mulberry32: a small deterministic generator of floats in [0, 1). */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How one decoder input is stored. */
export interface InputSpec {
  type: 'float32' | 'uint8';
  /** uint8 only. */
  scale?: number;
  zeroPoint?: number;
}

/** One decoder scene. */
export interface DecodeCase {
  name: string;
  seed: number;
  scene: 'random' | 'people' | 'flat';
  height: number;
  width: number;
  maxDetections: number;
  stride: number;
  scoreThreshold: number;
  nmsRadius: number;
  /** BodyPix: long offsets (33x33) and masks. */
  masks: boolean;
  /** heatmaps, short, mid[, long] offsets. */
  inputs: InputSpec[];
  /** people scenes: how many. */
  people?: number;
}

const F: InputSpec = { type: 'float32' };
const u8 = (scale: number, zeroPoint: number): InputSpec => ({ type: 'uint8', scale, zeroPoint });

export const DECODE_CASES: DecodeCase[] = [
  {
    name: 'float32, random logits and offsets',
    seed: 1,
    scene: 'random',
    height: 9,
    width: 11,
    maxDetections: 10,
    stride: 16,
    scoreThreshold: 0.3,
    nmsRadius: 20,
    masks: false,
    inputs: [F, F, F],
  },
  {
    name: 'float32, 4 people, 11x9',
    seed: 2,
    scene: 'people',
    people: 4,
    height: 11,
    width: 9,
    maxDetections: 10,
    stride: 16,
    scoreThreshold: 0.25,
    nmsRadius: 20,
    masks: false,
    inputs: [F, F, F],
  },
  {
    name: "uint8 (as Coral's models), 5 people, ties from coarse quantization",
    seed: 3,
    scene: 'people',
    people: 5,
    height: 13,
    width: 13,
    maxDetections: 10,
    stride: 16,
    scoreThreshold: 0.2,
    nmsRadius: 20,
    masks: false,
    inputs: [u8(0.25, 160), u8(0.5, 128), u8(1, 128)],
  },
  {
    name: 'uint8, random, max_detections 20 (more than 16 poses: introsort partitions)',
    seed: 4,
    scene: 'random',
    height: 13,
    width: 15,
    maxDetections: 20,
    stride: 16,
    scoreThreshold: 0.05,
    nmsRadius: 4,
    masks: false,
    inputs: [u8(0.125, 128), u8(0.5, 128), u8(0.75, 120)],
  },
  {
    name: 'uint8, stride 10 (1/stride not exact), NMS radius 0',
    seed: 5,
    scene: 'people',
    people: 3,
    height: 10,
    width: 12,
    maxDetections: 6,
    stride: 10,
    scoreThreshold: 0.3,
    nmsRadius: 0,
    masks: false,
    inputs: [u8(0.1, 150), u8(0.3, 130), u8(0.7, 125)],
  },
  {
    name: 'flat uint8 heatmaps: every cell a tied maximum',
    seed: 6,
    scene: 'flat',
    height: 8,
    width: 8,
    maxDetections: 40,
    stride: 16,
    scoreThreshold: 0.1,
    nmsRadius: 6,
    masks: false,
    inputs: [u8(0.5, 100), u8(0.5, 128), u8(1, 128)],
  },
  {
    name: 'mixed: uint8 heatmaps, float32 short offsets, uint8 mid offsets',
    seed: 7,
    scene: 'people',
    people: 2,
    height: 9,
    width: 9,
    maxDetections: 5,
    stride: 32,
    scoreThreshold: 0.4,
    nmsRadius: 30,
    masks: false,
    inputs: [u8(0.2, 140), F, u8(2, 128)],
  },
  {
    name: 'one cell (1x1 grid)',
    seed: 8,
    scene: 'random',
    height: 1,
    width: 1,
    maxDetections: 3,
    stride: 16,
    scoreThreshold: 0.1,
    nmsRadius: 10,
    masks: false,
    inputs: [F, F, F],
  },
  {
    name: 'BodyPix uint8, 3 people, masks',
    seed: 9,
    scene: 'people',
    people: 3,
    height: 33,
    width: 33,
    maxDetections: 4,
    stride: 16,
    scoreThreshold: 0.25,
    nmsRadius: 20,
    masks: true,
    inputs: [u8(0.25, 160), u8(0.5, 128), u8(1, 128), u8(1, 128)],
  },
  {
    name: 'BodyPix float32, 2 people, masks',
    seed: 10,
    scene: 'people',
    people: 2,
    height: 33,
    width: 33,
    maxDetections: 3,
    stride: 16,
    scoreThreshold: 0.3,
    nmsRadius: 20,
    masks: true,
    inputs: [F, F, F, F],
  },
  {
    name: 'threshold above every pose: none kept',
    seed: 11,
    scene: 'people',
    people: 2,
    height: 9,
    width: 9,
    maxDetections: 5,
    stride: 16,
    scoreThreshold: 0.999,
    nmsRadius: 20,
    masks: false,
    inputs: [F, F, F],
  },
];

/** Channels of input i (heatmaps, short, mid, long offsets). */
export function channels(i: number): number {
  return [NUM_KEYPOINTS, 2 * NUM_KEYPOINTS, 4 * NUM_EDGES, 2 * NUM_KEYPOINTS][i]!;
}

/** Grid [height, width] of input i. */
export function grid(c: DecodeCase, i: number): [number, number] {
  return i === 3 ? [33, 33] : [c.height, c.width];
}

/** A skeleton laid out in heatmap cells around a centre: [dy, dx] per keypoint. */
const LAYOUT: readonly (readonly [number, number])[] = [
  [-3, 0],
  [-3.5, -0.5],
  [-3.5, 0.5],
  [-3.2, -1],
  [-3.2, 1],
  [-1.5, -1.5],
  [-1.5, 1.5],
  [0, -2],
  [0, 2],
  [1, -2.5],
  [1, 2.5],
  [1.5, -1],
  [1.5, 1],
  [3, -1.2],
  [3, 1.2],
  [4.5, -1.3],
  [4.5, 1.3],
];

/** The float values of every input (heatmap logits; offsets in pixels), before any quantization. */
export function sceneValues(c: DecodeCase): Float32Array[] {
  const rnd = random(c.seed);
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * rnd();
  const n = c.masks ? 4 : 3;
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const [h, w] = grid(c, i);
    out.push(new Float32Array(h * w * channels(i)));
  }
  const [heat, shorts, mids] = out as [Float32Array, Float32Array, Float32Array];
  const s = c.stride;
  if (c.scene === 'random') {
    heat.forEach((_, k) => (heat[k] = uniform(-4, 2)));
    shorts.forEach((_, k) => (shorts[k] = uniform(-1.5, 1.5) * s));
    mids.forEach((_, k) => (mids[k] = uniform(-4, 4) * s));
    if (out[3]) out[3].forEach((_, k) => (out[3]![k] = uniform(-6, 6) * s));
    return out;
  }
  if (c.scene === 'flat') {
    heat.fill(1);
    shorts.forEach((_, k) => (shorts[k] = uniform(-1, 1) * s));
    mids.forEach((_, k) => (mids[k] = uniform(-3, 3) * s));
    return out;
  }
  // people: keypoints of each person at centre + layout, their logits peaking there
  const people = Array.from({ length: c.people ?? 1 }, () => {
    const cy = uniform(3, c.height - 4);
    const cx = uniform(2, c.width - 3);
    return LAYOUT.map(([dy, dx]) => [cy + dy + uniform(-0.4, 0.4), cx + dx + uniform(-0.4, 0.4), uniform(0, 4)] as const);
  });
  const nearest = (y: number, x: number, k: number, scale = 1) => {
    let best = people[0]!;
    let bestD = Infinity;
    for (const p of people) {
      const d = (p[k]![0] * scale - y) ** 2 + (p[k]![1] * scale - x) ** 2;
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    }
    return best;
  };
  const K = NUM_KEYPOINTS;
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) {
      const cell = y * c.width + x;
      for (let k = 0; k < K; k++) {
        const [py, px, peak] = nearest(y, x, k)[k]!;
        const d2 = (py - y) ** 2 + (px - x) ** 2;
        heat[cell * K + k] = Math.max(-8 + uniform(0, 1), peak - 2.5 * d2 + uniform(-0.2, 0.2));
        shorts[cell * 2 * K + k] = Math.max(-2, Math.min(2, py - y)) * s + uniform(-1, 1);
        shorts[cell * 2 * K + K + k] = Math.max(-2, Math.min(2, px - x)) * s + uniform(-1, 1);
      }
      for (let e = 0; e < 2 * NUM_EDGES; e++) {
        const [parent, child] = POSENET_EDGES[e]!;
        const p = nearest(y, x, parent);
        // forward edges: channels e (y) and 16 + e (x); backward edges: 32 + (e - 16) and 48 + (e - 16)
        const yc = e < NUM_EDGES ? e : 2 * NUM_EDGES + (e - NUM_EDGES);
        mids[cell * 4 * NUM_EDGES + yc] = (p[child]![0] - p[parent]![0]) * s + uniform(-2, 2);
        mids[cell * 4 * NUM_EDGES + yc + NUM_EDGES] = (p[child]![1] - p[parent]![1]) * s + uniform(-2, 2);
      }
    }
  }
  const longs = out[3];
  if (longs) {
    // long offsets on the 33x33 grid (the heatmaps' grid in BodyPix's 512x512 models): cell → keypoint of the nearest person
    for (let y = 0; y < 33; y++) {
      for (let x = 0; x < 33; x++) {
        const cell = y * 33 + x;
        for (let k = 0; k < K; k++) {
          const p = nearest(y, x, 0);
          longs[cell * 2 * K + k] = (p[k]![0] - y) * s + uniform(-3, 3);
          longs[cell * 2 * K + K + k] = (p[k]![1] - x) * s + uniform(-3, 3);
        }
      }
    }
  }
  return out;
}

/** Quantizes `values` as uint8 with `spec`'s scale and zero point (round half away from zero, clamped). */
export function quantizeUint8(values: Float32Array, spec: InputSpec): Uint8Array {
  const q = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = Math.round(values[i]! / spec.scale!) + spec.zeroPoint!;
    q[i] = Math.max(0, Math.min(255, v));
  }
  return q;
}

/** Each input of the case as stored: Float32Array or Uint8Array. */
export function caseInputs(c: DecodeCase): (Float32Array | Uint8Array)[] {
  return sceneValues(c).map((v, i) => (c.inputs[i]!.type === 'uint8' ? quantizeUint8(v, c.inputs[i]!) : v));
}

/** A score array for the sort tests: `n` values, drawn from `distinct` levels (0 for continuous values). */
export function sortScores(seed: number, n: number, distinct: number): Float32Array {
  const rnd = random(seed);
  return Float32Array.from({ length: n }, () => (distinct > 0 ? Math.floor(rnd() * distinct) / 4 - 1 : rnd() * 2 - 1));
}

/** Sort cases: [seed, n, distinct levels]. */
export const SORT_CASES: readonly (readonly [number, number, number])[] = [
  [101, 1, 0],
  [102, 5, 2],
  [103, 16, 3],
  [104, 17, 3],
  [105, 18, 0],
  [106, 33, 4],
  [107, 64, 2],
  [108, 100, 5],
  [109, 257, 3],
  [110, 1000, 7],
  [111, 1000, 0],
];

/** Heap-sort (introsort fallback) cases: [seed, n, distinct levels]. */
export const HEAPSORT_CASES: readonly (readonly [number, number, number])[] = [
  [201, 17, 3],
  [202, 50, 4],
  [203, 101, 2],
  [204, 300, 0],
];

/** A priority-queue operation: a push of (y, x, id, score), or a pop (null). */
export type HeapOp = readonly [number, number, number, number] | null;

/** Pushes and pops with tied scores: mostly pushes at first, then mostly pops until empty. */
export function heapOps(seed: number, n: number, distinct: number): HeapOp[] {
  const rnd = random(seed);
  const ops: HeapOp[] = [];
  let size = 0;
  for (let i = 0; i < n; i++) {
    const pushing = size === 0 || rnd() < (i < n / 2 ? 0.75 : 0.3);
    if (pushing) {
      ops.push([Math.fround(rnd() * 10), Math.fround(rnd() * 10), i % NUM_KEYPOINTS, Math.floor(rnd() * distinct) / 2]);
      size++;
    } else {
      ops.push(null);
      size--;
    }
  }
  while (size-- > 0) ops.push(null);
  return ops;
}

/** Priority-queue cases: [seed, operations before draining, distinct score levels]. */
export const HEAP_CASES: readonly (readonly [number, number, number])[] = [
  [301, 10, 2],
  [302, 100, 3],
  [303, 1000, 5],
  [304, 3000, 40],
];

/**
 * Arguments for the expf check: 4,096 floats spread over [-110, 110] (beyond both of expf's overflow
 * and underflow limits), the logits near 0 where keypoint scores live, and the special values.
 */
export function expfArguments(): Float32Array {
  const rnd = random(401);
  const xs = new Float32Array(4096);
  for (let i = 0; i < 3072; i++) xs[i] = rnd() * 220 - 110;
  for (let i = 3072; i < 4080; i++) xs[i] = rnd() * 8 - 4;
  xs.set(
    [
      0,
      -0,
      88,
      -88,
      88.72283172607421875,
      88.72284,
      -103.972076416015625,
      -103.9721,
      1e5,
      -1e5,
      Infinity,
      -Infinity,
      1e-30,
      -1e-30,
      0.035449981689453125,
      -0.035449981689453125,
    ],
    4080,
  );
  return xs;
}
