/**
 * Coral's own unit tests of its decoder (libcoral coral/posenet/posenet_decoder_test.cc, every TEST of
 * it), with their inputs and expected numbers, run on this package's functions. `EXPECT_FLOAT_EQ` is
 * googletest's "within 4 ULPs" (`floatEq` below), `EXPECT_EQ` on floats is exact equality.
 */
import { describe, expect, it } from 'vitest';
import { bilinear, bilinearInterpolation, findDisplacedPosition, logodds, sampleChannels, sigmoidInPlace } from './decoder-math.js';
import {
  MIN_SCORE_LOGIT,
  SQUARED_NMS_RADIUS,
  backtrackDecodePose,
  buildKeypointQueue,
  markOverlappingKeypoints,
  passKeypointNms,
  softKeypointNms,
} from './decode-poses.js';
import { embedding, matchEmbeddingToInstance, sumSquaredDistances } from './instance-masks.js';
import { KeypointPriorityQueue, decreasingArgSort } from './libstdcxx.js';
import { adjacencyList, buildAdjacencyList } from './pose-graph.js';

const f = Math.fround;

/** googletest's `AlmostEquals` for float: at most 4 ULPs apart (NaN equals nothing). */
function floatEq(actual: number, expected: number): void {
  const biased = (v: number) => {
    const u = new Uint32Array(Float32Array.of(v).buffer)[0]!;
    return u & 0x80000000 ? 0x100000000 - u : u + 0x80000000; // sign-magnitude → biased
  };
  const ok = !Number.isNaN(actual) && !Number.isNaN(expected) && Math.abs(biased(actual) - biased(expected)) <= 4;
  expect(ok, `${actual} is within 4 ULPs of ${f(expected)}`).toBe(true);
}

function argSort(values: number[]): number[] {
  const indices = new Int32Array(values.length);
  decreasingArgSort(Float32Array.from(values), 0, values.length, indices);
  return Array.from(indices);
}

/** Decoder float parameters with one of them set (the tests give the value the C++ function takes). */
function reals(index: number, value: number): Float32Array {
  const r = new Float32Array(4);
  r[index] = value;
  return r;
}

/** Coral's `Sigmoid(x)`, through the in-place form the decoder uses. */
function sigmoid(x: number): number {
  const v = Float32Array.of(x);
  sigmoidInPlace(v, 0, 1);
  return v[0]!;
}

/** Coral's `ComputeSquaredDistance(a, b)`, as the one-keypoint case of the summed distances. */
function squaredDistance(ay: number, ax: number, by: number, bx: number): number {
  const d = new Float32Array(1);
  sumSquaredDistances(Float32Array.of(ay, ax), Float32Array.of(by, bx), 1, 1, d);
  return d[0]!;
}

/** A [y, x] point. */
function at(y: number, x: number): Float32Array {
  return Float32Array.of(y, x);
}

/** Coral's PoseKeypoints arrays: [pose][keypoint] = [y, x] → flat [y, x] pairs. */
function poses(...p: number[][][]): Float32Array {
  return Float32Array.from(p.flat(2));
}

describe('DecreasingArgSortTest', () => {
  it('UnsortedVector', () => expect(argSort([0.6, 0.897, 0.01, 0.345, 0.28473])).toEqual([1, 0, 3, 4, 2]));
  it('AllSameVector', () => expect(argSort([0.5, 0.5, 0.5, 0.5, 0.5])).toEqual([0, 1, 2, 3, 4]));
  it('NegativeVector', () => expect(argSort([0.6, -0.897, 0.01, 0.345, 0.28473])).toEqual([0, 3, 4, 2, 1]));
});

describe('ComputeSquaredDistanceTest', () => {
  it('XYPoints', () => expect(squaredDistance(0.5, 0.5, 1, 1)).toBe(0.5));
});

describe('SigmoidTest / LogoddsTest', () => {
  it('Sigmoid Zero', () => expect(sigmoid(0)).toBe(0.5));
  it('Sigmoid Twenty', () => expect(sigmoid(20)).toBe(1));
  it('Sigmoid NegativeFive', () => floatEq(sigmoid(-5), 0.006692851));
  it('Logodds NegativeNumber', () => expect(Number.isNaN(logodds(-1))).toBe(true));
  it('Logodds Zero', () => floatEq(logodds(0), -13.81551));
  it('Logodds FiveTenths', () => floatEq(logodds(0.5), 0.000004));
});

describe('BuildLinearInterpolationTest / BuildBilinearInterpolationTest', () => {
  it('BuildYIsValid (the y axis of the bilinear interpolation, on a 3x1 grid)', () => {
    const b = bilinear();
    bilinearInterpolation(at(f(0.25 * 3), 0), 3, 1, 1, b);
    floatEq(b.lerps[0]!, 0.75);
    expect([b.corners[0], b.corners[2]]).toEqual([0, 1]); // y_floor, y_ceil (width 1, 1 channel)
  });

  it('BuildXYIsValid', () => {
    const b = bilinear();
    bilinearInterpolation(at(f(0.25 * 3), f(f(0.33) * 4)), 3, 4, 3, b);
    expect(Array.from(b.corners)).toEqual([3, 6, 15, 18]);
    floatEq(b.lerps[0]!, 0.75);
    floatEq(b.lerps[1]!, 0.32);
  });
});

/** Coral's [height, width, channels] test tensor with values y + x + c + offset. */
function linearTensor(height: number, width: number, channels: number, offset: number): Float32Array {
  const t = new Float32Array(height * width * channels);
  let i = 0;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) for (let c = 0; c < channels; c++) t[i++] = f(y + x + c + f(offset));
  return t;
}

describe('SampleTensorAtMultipleChannelsTest / SampleTensorAtSingleChannelTest', () => {
  it('multiple channels: SampleIsCorrect', () => {
    const tensor = linearTensor(3, 4, 3, 0.2);
    const y = f(0.25 * 3);
    const x = f(f(0.33) * 4);
    const channels = [2, 0, 0, 1];
    const b = bilinear(4);
    sampleChannels(tensor, 3, 4, 3, at(y, x), channels, 4, b);
    channels.forEach((c, i) => floatEq(b.samples[i]!, f(f(f(y + x) + c) + f(0.2))));
  });

  it('single channel: SampleIsCorrect', () => {
    const tensor = linearTensor(3, 4, 3, 0.1);
    const y = f(0.25 * 3);
    const x = f(f(0.33) * 4);
    const c = 1;
    const b = bilinear(1);
    sampleChannels(tensor, 3, 4, 3, at(y, x), [c], 1, b);
    floatEq(b.samples[0]!, f(f(f(y + x) + c) + f(0.1)));
  });
});

describe('FindDisplacedPositionTest', () => {
  // height 10, width 8, 3 keypoints, 4 edges (a forward-backward chain); source (4.1, 3.5), edge 1, target 2
  const H = 10;
  const W = 8;
  const K = 3;
  const E = 2 * (K - 1);
  const displaced = (shorts: Float32Array, mids: Float32Array, steps: number) => {
    const point = at(f(4.1), 3.5);
    findDisplacedPosition(shorts, mids, H, W, K, E, 1, 2, steps, point, bilinear());
    return point;
  };

  it('PositionIsCorrectAllZeros', () => {
    const shorts = new Float32Array(H * W * K * 2);
    const mids = new Float32Array(H * W * 2 * 2 * E);
    for (let i = 0; i < 4; i++) {
      const p = displaced(shorts, mids, i);
      floatEq(p[0]!, 4.1);
      floatEq(p[1]!, 3.5);
    }
  });

  it('PositionIsCorrectAllOnes', () => {
    const shorts = new Float32Array(H * W * K * 2).fill(1);
    const mids = new Float32Array(H * W * 2 * 2 * E).fill(-1);
    for (let i = 0; i < 4; i++) {
      const p = displaced(shorts, mids, i);
      floatEq(p[0]!, f(f(f(4.1) + i) - 1));
      floatEq(p[1]!, f(f(3.5 + i) - 1));
    }
  });

  it('PositionIsCorrect', () => {
    const shortRange = H - 1 + W - 1 + K * 2 - 1;
    const shorts = new Float32Array(H * W * K * 2);
    let i = 0;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) for (let c = 0; c < K * 2; c++) shorts[i++] = f(f(y + x + c + f(0.1)) / f(shortRange + f(0.1)));
    const midRange = H - 1 + W - 1 + 2 * 2 * E - 1;
    const mids = new Float32Array(H * W * 2 * 2 * E);
    i = 0;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) for (let c = 0; c < 2 * 2 * E; c++) mids[i++] = f(f(f(2 * f(y + x + c + f(0.1))) / midRange) - f(0.5));
    const expected = [
      [4.16129, 3.819355],
      [4.639046, 4.43929],
      [5.168825, 5.111249],
      [5.755558, 5.840163],
    ];
    expected.forEach(([ey, ex], steps) => {
      const p = displaced(shorts, mids, steps);
      floatEq(p[0]!, ey!);
      floatEq(p[1]!, ex!);
    });
  });
});

describe('BuildAdjacencyListTest', () => {
  it('BuildIsValid', () => {
    const a = buildAdjacencyList();
    const lists = (ids: Int32Array) => Array.from({ length: a.numNodes }, (_, k) => Array.from(ids.subarray(a.start[k]!, a.start[k + 1]!)));
    expect(lists(a.childIds)).toEqual([
      [1, 2, 5, 6],
      [3, 0],
      [4, 0],
      [1],
      [2],
      [7, 11, 0],
      [8, 12, 0],
      [9, 5],
      [10, 6],
      [7],
      [8],
      [13, 5],
      [14, 6],
      [15, 11],
      [16, 12],
      [13],
      [14],
    ]);
    expect(lists(a.edgeIds)).toEqual([
      [0, 2, 4, 10],
      [1, 16],
      [3, 18],
      [17],
      [19],
      [5, 7, 20],
      [11, 13, 26],
      [6, 21],
      [12, 27],
      [22],
      [28],
      [8, 23],
      [14, 29],
      [9, 24],
      [15, 30],
      [25],
      [31],
    ]);
  });
});

describe('BacktrackDecodePose', () => {
  it('BacktrackDecodePoseIsCorrect', () => {
    const H = 10;
    const W = 8;
    const K = 3;
    const E = 2 * (K - 1);
    const scores = new Float32Array(H * W * K).fill(0.8);
    const shorts = new Float32Array(H * W * K * 2).fill(1);
    const mids = new Float32Array(H * W * 2 * 2 * E).fill(-1);
    // the chain 0 → 1, 1 → 2, 2 → 1, 1 → 0
    const adjacency = adjacencyList([[1], [2, 0], [1]], [[0], [1, 3], [2]]);
    const pose = new Float32Array(2 * K);
    const keypointScores = new Float32Array(K);
    const y1 = f(7.1);
    const x1 = 5.5;
    // the root keypoint 1 at (y1, x1); its score is sampled by BacktrackDecodePose
    const scratch = {
      decodeQueue: new KeypointPriorityQueue(new Float32Array(4 * 5)),
      decoded: new Uint8Array(K),
      root: Float32Array.of(y1, x1, 1, 0),
      point: new Float32Array(2),
      bilinear: bilinear(),
    };
    backtrackDecodePose(scores, shorts, mids, H, W, K, E, adjacency, 2, scratch, pose, 0, keypointScores, 0);
    const expected = [
      [f(y1 + 1), x1 + 1],
      [y1, x1],
      [f(y1 + 1), x1 + 1],
    ];
    for (let i = 0; i < K; i++) {
      floatEq(pose[2 * i]!, expected[i]![0]!);
      floatEq(pose[2 * i + 1]!, expected[i]![1]!);
      floatEq(keypointScores[i]!, 0.8);
    }
  });
});

describe('BuildKeypointWithScoreQueueTest', () => {
  // height 5, width 4, 3 keypoints; zero scores but for two spikes: (1, 2) keypoint 2 score 1, (3, 0) keypoint 1 score 2
  const H = 5;
  const W = 4;
  const K = 3;
  const build = () => {
    const scores = new Float32Array(H * W * K);
    scores[(1 * W + 2) * K + 2] = 1;
    scores[(3 * W + 0) * K + 1] = 2;
    const shorts = new Float32Array(H * W * K * 2).fill(1);
    const queue = new KeypointPriorityQueue(new Float32Array(4 * H * W * K));
    buildKeypointQueue(scores, shorts, H, W, K, reals(MIN_SCORE_LOGIT, 0.5), 1, queue);
    return queue;
  };

  it('BuildIsValidWithThreshold', () => expect(build().size).toBe(2));

  it('BuildIsValidScoresCorrect: decreasing score order, displaced by the offsets', () => {
    const q = build();
    const [y, x, id, score] = q.entries; // the top entry
    floatEq(score!, 2);
    floatEq(y!, 3 + 1);
    floatEq(x!, 0 + 1);
    floatEq(id!, 1);
    q.pop();
    const [y2, x2, id2, score2] = q.entries;
    floatEq(score2!, 1);
    floatEq(y2!, 1 + 1);
    floatEq(x2!, 2 + 1);
    floatEq(id2!, 2);
  });
});

describe('PassKeypointNMSTest', () => {
  // two poses of 2 keypoints: pose 0 at (0, 0) and (1, 1); pose 1 left zero; the keypoint (0.5, 0.5) of kind 0
  const all = poses(
    [
      [0, 0],
      [1, 1],
    ],
    [
      [0, 0],
      [0, 0],
    ],
  );
  const keypoint = Float32Array.of(0.5, 0.5, 0);
  it('SquaredDistanceLessThanSquaredNMSRadius', () =>
    expect(passKeypointNms(all, 2, 2, keypoint, reals(SQUARED_NMS_RADIUS, 0.55))).toBe(false));
  it('SquaredDistanceGreaterThanSquaredNMSRadius', () =>
    expect(passKeypointNms(all, 2, 2, keypoint, reals(SQUARED_NMS_RADIUS, 0.45))).toBe(true));
});

describe('FindOverlappingKeypointsTest', () => {
  const overlap = (pose1: number[][], pose2: number[][]) => {
    const mask = new Uint8Array(2);
    markOverlappingKeypoints(poses(pose1, pose2), 0, 4, 2, reals(SQUARED_NMS_RADIUS, 1), mask);
    return Array.from(mask, Boolean);
  };
  it('KeypointsResultNoOverlap', () =>
    expect(
      overlap(
        [
          [0, 0],
          [0, 1],
        ],
        [
          [1, 1],
          [1, 0],
        ],
      ),
    ).toEqual([false, false]));
  it('KeypointsResultSamePoints', () =>
    expect(
      overlap(
        [
          [0, 0],
          [0, 1],
        ],
        [
          [0, 0],
          [0, 1],
        ],
      ),
    ).toEqual([true, true]));
  it('KeypointsResultOverlap', () =>
    expect(
      overlap(
        [
          [0, 0],
          [1, 1],
        ],
        [
          [0, f(0.9)],
          [2, 2],
        ],
      ),
    ).toEqual([true, false]));
});

describe('PerformSoftKeypointNMSTest', () => {
  // two instances of 2 keypoints: coords {(0,0),(1,1)}, {(0,1),(2,2)}; scores {0.1, 0.2}, {0.3, 0.4}; instance 1 stronger
  const soft = (squaredRadius: number, topk: number) => {
    const scores = new Float32Array(2);
    softKeypointNms(
      Int32Array.of(1, 0),
      2,
      poses(
        [
          [0, 0],
          [1, 1],
        ],
        [
          [0, 1],
          [2, 2],
        ],
      ),
      Float32Array.of(0.1, 0.2, 0.3, 0.4),
      2,
      reals(SQUARED_NMS_RADIUS, squaredRadius),
      topk,
      scores,
      new Int32Array(2),
      new Uint8Array(2),
    );
    return Array.from(scores);
  };
  const pointwise = (actual: number[], expected: number[]) => expected.forEach((e, i) => floatEq(actual[i]!, e));

  it('PerformSoftKeypointNMSAverage (topk = 2)', () => {
    pointwise(soft(0.9, 2), [0.15, 0.35]);
    pointwise(soft(1.5, 2), [0.1, 0.35]);
    pointwise(soft(2.1, 2), [0.0, 0.35]);
  });

  it('PerformSoftKeypointNMSMaximum (topk = 1)', () => {
    pointwise(soft(0.9, 1), [0.2, 0.4]);
    pointwise(soft(1.5, 1), [0.2, 0.4]);
    pointwise(soft(2.1, 1), [0.0, 0.4]);
  });
});

describe('ComputeSumSquaredDistanceTest', () => {
  const emb = poses([
    [0, 0],
    [0.25, 0.75],
    [1.5, 0.5],
  ]);
  const sum = (pose: Float32Array) => {
    const d = new Float32Array(1);
    sumSquaredDistances(emb, pose, 1, 3, d);
    return d[0]!;
  };
  it('SumDistanceIsZero', () => floatEq(sum(emb), 0));
  it('SumDistanceIsNonzero', () =>
    floatEq(
      sum(
        poses([
          [0.5, 0.5],
          [0.35, 0.65],
          [0.4, 1.5],
        ]),
      ),
      2.73,
    ));
});

/** Coral's GetLongOffsets(10, 8, 3): values (y + x + c + 0.1) / (range + 0.1). */
function longOffsets(height: number, width: number, numKeypoints: number): Float32Array {
  const range = height - 1 + width - 1 + numKeypoints * 2 - 1;
  const t = new Float32Array(height * width * 2 * numKeypoints);
  let i = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) for (let c = 0; c < numKeypoints * 2; c++) t[i++] = f(f(y + x + c + f(0.1)) / f(range + f(0.1)));
  return t;
}

describe('GetEmbeddingTest / MatchEmbeddingToInstanceTest', () => {
  it('EmbeddingIsCorrect', () => {
    const point = new Float32Array(2);
    embedding(2, 3, longOffsets(10, 8, 3), 2, 10, 10, 8, 3, 16, point, bilinear());
    expect(Math.abs(point[0]! - 131.8)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(point[1]! - 112.0)).toBeLessThanOrEqual(0.1);
  });

  const match = (p: number[][][]) =>
    matchEmbeddingToInstance(2, 3, longOffsets(10, 8, 3), 10, 8, poses(...p), 2, 3, 10, 16, {
      embeddings: new Float32Array(6),
      distances: new Float32Array(2),
      point: new Float32Array(2),
      bilinear: bilinear(),
    });

  it('InstanceIsIndexZero', () =>
    expect(
      match([
        [
          [0, 0],
          [0.25, 0.5],
          [2, 0],
        ],
        [
          [0, 0],
          [0, 0],
          [0, 0],
        ],
      ]),
    ).toBe(0));

  it('InstanceIsIndexOne', () =>
    expect(
      match([
        [
          [0, 0],
          [0.25, 0.5],
          [2, 0],
        ],
        [
          [0.1, 0.2],
          [0.9, 1],
          [3, 1],
        ],
      ]),
    ).toBe(1));
});
