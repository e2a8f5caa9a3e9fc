/**
 * PosenetDecoderOp against Coral's own C++ decoder, bit for bit. The fixture holds what Coral's
 * `DecodeAllPoses` / `DecodeInstanceMasks` (libcoral coral/posenet/posenet_decoder.cc, built with g++ and
 * libstdc++ on x86-64, driven by scripts/oracle/coral-oracle.cc the way PosenetDecoderOp's Eval drives
 * them) output for the scenes of oracle-cases.ts, and what its `DecreasingArgSort`, `std::partial_sort`
 * and `std::priority_queue` return on tie-heavy inputs. The inputs are regenerated here from their seeds.
 *
 * To regenerate the fixture, build the oracle against a libcoral checkout and point the test at it:
 *
 *   g++ -std=c++17 -O2 -I<libcoral> packages/ops-coral/scripts/oracle/coral-oracle.cc \
 *       <libcoral>/coral/posenet/posenet_decoder.cc -o /tmp/coral-oracle
 *   CORAL_ORACLE_BIN=/tmp/coral-oracle npx vitest run packages/ops-coral/test/coral-oracle.test.ts
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TensorType } from '@micrort/core';
import { MASK_SIZE, NUM_KEYPOINTS } from '../src/index.js';
import { expfInPlace } from '../src/kernels/posenet/decoder-math.js';
import { KeypointPriorityQueue, decreasingArgSort, heapSortIndices } from '../src/kernels/posenet/libstdcxx.js';
import {
  DECODE_CASES,
  HEAPSORT_CASES,
  HEAP_CASES,
  SORT_CASES,
  caseInputs,
  channels,
  expfArguments,
  grid,
  heapOps,
  sortScores,
  type DecodeCase,
  type HeapOp,
} from './oracle-cases.js';
import { decoderHarness, readResult, type DecoderInput } from './posenet-harness.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'coral-oracle.json');

interface DecodeExpectation {
  name: string;
  count: number;
  /** base64 of the float32 outputs: keypoints, keypoint scores, pose scores (all max_detections entries). */
  keypoints: string;
  keypointScores: string;
  poseScores: string;
  /** base64 of one byte (0/1) per mask cell, or absent. */
  masks?: string;
}

interface Fixture {
  about: string;
  /** base64 of the float32 expf results for expfArguments(). */
  expf: string;
  /** base64 of the int32 indices per sort case. */
  sort: string[];
  heapsort: string[];
  /** base64 of the float32 popped entries per case: y, x, id, score each. */
  heap: string[];
  decode: DecodeExpectation[];
}

// --- requests to the oracle (see scripts/oracle/coral-oracle.cc) ---------------------------------------

class Writer {
  private readonly parts: Buffer[] = [];
  i32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v);
    this.parts.push(b);
    return this;
  }
  f32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    this.parts.push(b);
    return this;
  }
  bytes(v: ArrayBufferView): this {
    this.parts.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    return this;
  }
  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function runOracle(bin: string, request: Buffer): Buffer {
  return execFileSync(bin, [], { input: request, maxBuffer: 1 << 28 });
}

function floatsOf(b: Buffer, offset: number, n: number): Float32Array {
  return new Float32Array(b.buffer.slice(b.byteOffset + offset, b.byteOffset + offset + 4 * n));
}

function regenerate(bin: string): Fixture {
  const sortWith = (mode: number, scores: Float32Array) => {
    return runOracle(bin, new Writer().i32(mode).i32(scores.length).bytes(scores).build()).toString('base64');
  };
  const heap = HEAP_CASES.map(([seed, n, distinct]) => {
    const ops = heapOps(seed, n, distinct);
    const w = new Writer().i32(3).i32(ops.length);
    for (const op of ops) {
      if (op) w.i32(1).f32(op[0]).f32(op[1]).i32(op[2]).f32(op[3]);
      else w.i32(0);
    }
    return runOracle(bin, w.build()).toString('base64');
  });
  const decode = DECODE_CASES.map((c) => {
    const inputs = caseInputs(c);
    const w = new Writer()
      .i32(1)
      .i32(c.height)
      .i32(c.width)
      .i32(c.maxDetections)
      .i32(c.stride)
      .i32(c.masks ? 1 : 0)
      .f32(c.scoreThreshold)
      .f32(c.nmsRadius);
    inputs.forEach((data, i) => {
      const spec = c.inputs[i]!;
      w.i32(spec.type === 'uint8' ? 1 : 0)
        .f32(spec.scale ?? 0)
        .i32(spec.zeroPoint ?? 0)
        .bytes(data);
    });
    const out = runOracle(bin, w.build());
    const M = c.maxDetections;
    const K = NUM_KEYPOINTS;
    const count = floatsOf(out, 0, 1)[0]!;
    let at = 4;
    const take = (n: number) => {
      const f = floatsOf(out, at, n);
      at += 4 * n;
      return f;
    };
    const b64 = (v: ArrayBufferView) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
    const e: DecodeExpectation = {
      name: c.name,
      count,
      keypoints: b64(take(M * K * 2)),
      keypointScores: b64(take(M * K)),
      poseScores: b64(take(M)),
    };
    if (c.masks) e.masks = b64(Uint8Array.from(take(M * MASK_SIZE * MASK_SIZE)));
    return e;
  });
  return {
    about:
      "Outputs of Coral's posenet_decoder.cc (libcoral), built with g++ -O2 / libstdc++ on x86-64 and driven by scripts/oracle/coral-oracle.cc, for the cases of test/oracle-cases.ts; see coral-oracle.test.ts to regenerate",
    expf: (() => {
      const xs = expfArguments();
      const out = runOracle(bin, new Writer().i32(5).i32(xs.length).bytes(xs).build());
      return out.toString('base64');
    })(),
    sort: SORT_CASES.map(([seed, n, distinct]) => sortWith(2, sortScores(seed, n, distinct))),
    heapsort: HEAPSORT_CASES.map(([seed, n, distinct]) => sortWith(4, sortScores(seed, n, distinct))),
    heap,
    decode,
  };
}

const bin = process.env.CORAL_ORACLE_BIN;
let fixture: Fixture;
if (bin) {
  fixture = regenerate(bin);
  writeFileSync(FIXTURE, JSON.stringify(fixture, null, 2) + '\n');
} else {
  fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
}

function fromBase64(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'base64'));
}

function int32s(s: string): number[] {
  return Array.from(new Int32Array(fromBase64(s).buffer));
}

/** The same float32 values, bit for bit (so -0 and NaN payloads count too). */
function expectSameBits(actual: Float32Array, expected: Float32Array, what: string): void {
  expect(actual.length, what).toBe(expected.length);
  const a = new Uint32Array(actual.buffer, actual.byteOffset, actual.length);
  const e = new Uint32Array(expected.buffer, expected.byteOffset, expected.length);
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== e[i]) expect(`${what}[${i}] = ${actual[i]}`).toBe(`${what}[${i}] = ${expected[i]}`);
  }
}

function decoderInputs(c: DecodeCase): DecoderInput[] {
  return caseInputs(c).map((data, i) => {
    const [h, w] = grid(c, i);
    const spec = c.inputs[i]!;
    return spec.type === 'uint8'
      ? { type: TensorType.UINT8, shape: [1, h, w, channels(i)], data, scale: spec.scale!, zeroPoint: spec.zeroPoint! }
      : { type: TensorType.FLOAT32, shape: [1, h, w, channels(i)], data };
  });
}

describe("the C library's expf, as Coral's Sigmoid calls it", () => {
  it('expf equals glibc 2.36 on 4,096 arguments, where the correctly rounded exp does not', () => {
    const xs = expfArguments();
    const expected = new Float32Array(fromBase64(fixture.expf).buffer);
    const mine = Float32Array.from(xs);
    expfInPlace(mine, 0, mine.length);
    expectSameBits(mine, expected, 'expf');
    const rounded = Float32Array.from(xs, (x) => Math.exp(x));
    expect(rounded.filter((v, i) => v !== expected[i]).length).toBeGreaterThan(0); // the check can tell them apart
  });
});

describe("libstdc++'s algorithms, as Coral's decoder uses them", () => {
  it('DecreasingArgSort (std::sort) orders tied scores as libstdc++ does', () => {
    SORT_CASES.forEach(([seed, n, distinct], i) => {
      const scores = sortScores(seed, n, distinct);
      const indices = new Int32Array(n);
      decreasingArgSort(scores, 0, n, indices);
      expect(Array.from(indices), `case ${i}: n ${n}, ${distinct} levels`).toEqual(int32s(fixture.sort[i]!));
    });
  });

  it("introsort's heapsort fallback equals std::partial_sort(first, last, last)", () => {
    HEAPSORT_CASES.forEach(([seed, n, distinct], i) => {
      const scores = sortScores(seed, n, distinct);
      const indices = Int32Array.from({ length: n }, (_, k) => k);
      heapSortIndices(indices, 0, n, scores, 0);
      expect(Array.from(indices), `case ${i}: n ${n}, ${distinct} levels`).toEqual(int32s(fixture.heapsort[i]!));
    });
  });

  it('the keypoint priority queue pops tied scores in std::priority_queue order', () => {
    HEAP_CASES.forEach(([seed, n, distinct], i) => {
      const ops: HeapOp[] = heapOps(seed, n, distinct);
      const q = new KeypointPriorityQueue(new Float32Array(4 * ops.length));
      const popped: number[] = [];
      for (const op of ops) {
        if (op) q.pushEntry(op[0], op[1], op[2], op[3]);
        else {
          popped.push(...q.entries.subarray(0, 4));
          q.pop();
        }
      }
      expect(q.size).toBe(0);
      expectSameBits(
        Float32Array.from(popped),
        new Float32Array(fromBase64(fixture.heap[i]!).buffer),
        `case ${i} (${ops.length} operations, ${distinct} score levels): popped`,
      );
    });
  });
});

describe("PosenetDecoderOp equals Coral's decoder bit for bit", () => {
  DECODE_CASES.forEach((c, i) => {
    it(c.name, () => {
      const e = fixture.decode[i]!;
      expect(e.name).toBe(c.name);
      const h = decoderHarness(decoderInputs(c), c).invoke();
      const r = readResult(h, c.masks);
      expect(r.count).toBe(e.count);
      const M = c.maxDetections;
      const K = NUM_KEYPOINTS;
      const n = e.count;
      // Coral writes the first `count` entries; past them micrort writes 0 and the oracle's buffers were zeroed
      expectSameBits(r.raw[0]!, new Float32Array(fromBase64(e.keypoints).buffer), 'keypoints');
      expectSameBits(r.raw[1]!, new Float32Array(fromBase64(e.keypointScores).buffer), 'keypoint scores');
      expectSameBits(r.raw[2]!, new Float32Array(fromBase64(e.poseScores).buffer), 'pose scores');
      expect(r.raw[0]!.length).toBe(M * K * 2);
      if (c.masks) {
        const expected = fromBase64(e.masks!);
        const cells = MASK_SIZE * MASK_SIZE;
        // with no pose Coral marks mask 0 everywhere (its nearest-pose search over no pose returns 0); micrort leaves it 0
        const actual = Uint8Array.from(r.raw[4]!);
        expect(Array.from(actual.subarray(0, n * cells))).toEqual(Array.from(expected.subarray(0, n * cells)));
        expect(actual.subarray(n * cells).every((v) => v === 0)).toBe(true);
      }
    });
  });

  it('the scenes exercise what they are meant to', () => {
    const counts = fixture.decode.map((e) => e.count);
    expect(counts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(8);
    expect(counts[DECODE_CASES.findIndex((c) => c.maxDetections === 20)]).toBeGreaterThan(16); // introsort partitions instance scores
    expect(counts[DECODE_CASES.findIndex((c) => c.scoreThreshold === 0.999)]).toBe(0);
    for (const [i, c] of DECODE_CASES.entries()) if (c.masks) expect(counts[i], c.name).toBeGreaterThan(0);
  });
});
