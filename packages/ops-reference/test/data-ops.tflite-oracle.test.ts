/**
 * The data-movement kernels of registrations/data.ts against TensorFlow Lite itself (the TFLite 2.9 C
 * library of packages/test-support/src/tflite-oracle.ts), on single-op models built here: uint8 (which TFLM does not
 * run, so TFLite's reference kernels are the spec) byte for byte, and float32 resizes, pooling, padding
 * and detection post-processing within the float tolerance. Skips with the oracle's reason when the
 * addon is absent.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MirrorPadMode, ModelBuilder, Padding, TensorType } from '@micrort/core';
import type { BuiltinOptionsSpec } from '@micrort/core';
import { compareWithTflite, ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { flexMap } from '@micrort/test-support/flexbuffers';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const U8 = TensorType.UINT8;
const F32 = TensorType.FLOAT32;
const u8q = { scale: 0.5, zeroPoint: 37 };

/** Deterministic bytes / floats for inputs. */
function bytes(n: number, seed: number): Uint8Array {
  let s = seed >>> 0;
  return Uint8Array.from({ length: n }, () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) >>> 24);
}
function floats(n: number, seed: number, lo = -1, hi = 1): Uint8Array {
  const b = bytes(n * 4, seed);
  const f = new Float32Array(n);
  for (let i = 0; i < n; i++) f[i] = lo + ((b[4 * i]! * 256 + b[4 * i + 1]!) / 65536) * (hi - lo);
  return new Uint8Array(f.buffer);
}

interface Operand {
  type: TensorType;
  shape: number[];
  /** Constant contents; omitted for the runtime input. */
  data?: ArrayBufferView;
}

/** One op: runtime inputs are the operands without data, in order; outputs are typed like input 0 unless given. */
function model(
  op: BuiltinOperator | { custom: string },
  operands: Operand[],
  outputs: Operand[],
  options?: BuiltinOptionsSpec,
  customOptions?: Uint8Array,
  version = 1,
): Uint8Array {
  const b = new ModelBuilder();
  const q = (t: TensorType) => (t === U8 ? { quantization: u8q } : {});
  const ins = operands.map((o, i) =>
    b.addTensor({ name: `in${i}`, type: o.type, shape: o.shape, ...(o.data ? { data: o.data } : {}), ...q(o.type) }),
  );
  const outs = outputs.map((o, i) => b.addTensor({ name: `out${i}`, type: o.type, shape: o.shape, ...q(o.type) }));
  b.addOperator({ op, version, inputs: ins, outputs: outs, ...(options ? { options } : {}), ...(customOptions ? { customOptions } : {}) });
  return b
    .setInputs(ins.filter((_, i) => !operands[i]!.data))
    .setOutputs(outs)
    .build();
}

const i32 = (v: number[]) => new Int32Array(v);
const count = (s: number[]) => s.reduce((a, b) => a * b, 1);

function expectSame(bytesOfModel: Uint8Array, inputs: Uint8Array[]): void {
  const r = compareWithTflite(bytesOfModel, inputs);
  expect(r.pass, JSON.stringify(r.outputs)).toBe(true);
}

describe.skipIf(!oracleAvailable)('data kernels vs TFLite', () => {
  describe('uint8 byte moves equal TFLite byte for byte', () => {
    it('BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND (padding with the zero point)', () => {
      const b2s = model(
        BuiltinOperator.BATCH_TO_SPACE_ND,
        [
          { type: U8, shape: [4, 2, 3, 2] },
          { type: TensorType.INT32, shape: [2], data: i32([2, 2]) },
          { type: TensorType.INT32, shape: [2, 2], data: i32([0, 1, 1, 1]) },
        ],
        [{ type: U8, shape: [1, 3, 4, 2] }],
      );
      expectSame(b2s, [bytes(48, 1)]);
      const s2b = model(
        BuiltinOperator.SPACE_TO_BATCH_ND,
        [
          { type: U8, shape: [2, 3, 3, 2] },
          { type: TensorType.INT32, shape: [2], data: i32([2, 2]) },
          { type: TensorType.INT32, shape: [2, 2], data: i32([0, 1, 1, 0]) },
        ],
        [{ type: U8, shape: [8, 2, 2, 2] }],
      );
      expectSame(s2b, [bytes(36, 2)]);
    });

    it('DEPTH_TO_SPACE, SPACE_TO_DEPTH', () => {
      expectSame(
        model(BuiltinOperator.DEPTH_TO_SPACE, [{ type: U8, shape: [2, 2, 3, 9] }], [{ type: U8, shape: [2, 6, 9, 1] }], { blockSize: 3 }),
        [bytes(108, 3)],
      );
      expectSame(
        model(BuiltinOperator.SPACE_TO_DEPTH, [{ type: U8, shape: [1, 4, 6, 2] }], [{ type: U8, shape: [1, 2, 3, 8] }], { blockSize: 2 }),
        [bytes(48, 4)],
      );
    });

    it('GATHER, GATHER_ND, EMBEDDING_LOOKUP', () => {
      const gather = model(
        BuiltinOperator.GATHER,
        [
          { type: U8, shape: [3, 5, 2] },
          { type: TensorType.INT32, shape: [2, 2], data: i32([4, 0, 2, 2]) },
        ],
        [{ type: U8, shape: [3, 2, 2, 2] }],
        { axis: 1, batchDims: 0 },
      );
      expectSame(gather, [bytes(30, 5)]);
      const nd = model(
        BuiltinOperator.GATHER_ND,
        [
          { type: U8, shape: [3, 4, 2] },
          { type: TensorType.INT32, shape: [3, 2], data: i32([2, 3, 0, 1, 1, 0]) },
        ],
        [{ type: U8, shape: [3, 2] }],
      );
      expectSame(nd, [bytes(24, 6)]);
      const emb = model(
        BuiltinOperator.EMBEDDING_LOOKUP,
        [
          { type: TensorType.INT32, shape: [3], data: i32([4, 0, 4]) },
          { type: U8, shape: [5, 3, 2] },
        ],
        [{ type: U8, shape: [3, 3, 2] }],
      );
      expectSame(emb, [bytes(30, 7)]);
    });

    it('MIRROR_PAD (both modes), PACK, UNPACK, SPLIT, SPLIT_V', () => {
      for (const mode of [MirrorPadMode.REFLECT, MirrorPadMode.SYMMETRIC]) {
        const m = model(
          BuiltinOperator.MIRROR_PAD,
          [
            { type: U8, shape: [2, 4, 3] },
            { type: TensorType.INT32, shape: [3, 2], data: i32([1, 0, 0, 3, 2, 2]) },
          ],
          [{ type: U8, shape: [3, 7, 7] }],
          { mode },
        );
        expectSame(m, [bytes(24, 8 + mode)]);
      }
      const pack = model(
        BuiltinOperator.PACK,
        [
          { type: U8, shape: [3, 2] },
          { type: U8, shape: [3, 2] },
        ],
        [{ type: U8, shape: [3, 2, 2] }],
        { valuesCount: 2, axis: 1 },
      );
      expectSame(pack, [bytes(6, 10), bytes(6, 11)]);
      const unpack = model(
        BuiltinOperator.UNPACK,
        [{ type: U8, shape: [2, 3, 2] }],
        [
          { type: U8, shape: [2, 2] },
          { type: U8, shape: [2, 2] },
          { type: U8, shape: [2, 2] },
        ],
        { num: 3, axis: 1 },
      );
      expectSame(unpack, [bytes(12, 12)]);
      const split = model(
        BuiltinOperator.SPLIT,
        [
          { type: TensorType.INT32, shape: [], data: i32([-1]) },
          { type: U8, shape: [2, 6] },
        ],
        [
          { type: U8, shape: [2, 3] },
          { type: U8, shape: [2, 3] },
        ],
        { numSplits: 2 },
      );
      expectSame(split, [bytes(12, 13)]);
      const splitV = model(
        BuiltinOperator.SPLIT_V,
        [
          { type: U8, shape: [5, 2] },
          { type: TensorType.INT32, shape: [2], data: i32([2, -1]) },
          { type: TensorType.INT32, shape: [], data: i32([0]) },
        ],
        [
          { type: U8, shape: [2, 2] },
          { type: U8, shape: [3, 2] },
        ],
        { numSplits: 2 },
      );
      expectSame(splitV, [bytes(10, 14)]);
    });

    it('SLICE, REVERSE_V2, EXPAND_DIMS, SQUEEZE, BROADCAST_TO, RESIZE_NEAREST_NEIGHBOR', () => {
      const slice = model(
        BuiltinOperator.SLICE,
        [
          { type: U8, shape: [3, 4, 5] },
          { type: TensorType.INT32, shape: [3], data: i32([1, 0, 2]) },
          { type: TensorType.INT32, shape: [3], data: i32([2, -1, 3]) },
        ],
        [{ type: U8, shape: [2, 4, 3] }],
      );
      expectSame(slice, [bytes(60, 15)]);
      // One axis: TFLite 2.9 reverses only the first listed axis (TFLM, the spec here, reverses all of them).
      const rev = model(
        BuiltinOperator.REVERSE_V2,
        [
          { type: U8, shape: [2, 3, 4] },
          { type: TensorType.INT32, shape: [1], data: i32([-2]) },
        ],
        [{ type: U8, shape: [2, 3, 4] }],
      );
      expectSame(rev, [bytes(24, 16)]);
      expectSame(
        model(
          BuiltinOperator.EXPAND_DIMS,
          [
            { type: U8, shape: [2, 3] },
            { type: TensorType.INT32, shape: [], data: i32([-1]) },
          ],
          [{ type: U8, shape: [2, 3, 1] }],
        ),
        [bytes(6, 17)],
      );
      expectSame(
        model(BuiltinOperator.SQUEEZE, [{ type: U8, shape: [1, 3, 1, 2] }], [{ type: U8, shape: [3, 2] }], {
          squeezeDims: new Int32Array(0),
        }),
        [bytes(6, 18)],
      );
      // BROADCAST_TO starts at version 2 in TFLite's registry.
      expectSame(
        model(
          BuiltinOperator.BROADCAST_TO,
          [
            { type: U8, shape: [3, 1] },
            { type: TensorType.INT32, shape: [3], data: i32([2, 3, 4]) },
          ],
          [{ type: U8, shape: [2, 3, 4] }],
          undefined,
          undefined,
          2,
        ),
        [bytes(3, 19)],
      );
      for (const [alignCorners, halfPixelCenters] of [
        [false, false],
        [true, false],
        [false, true],
      ] as const) {
        const rnn = model(
          BuiltinOperator.RESIZE_NEAREST_NEIGHBOR,
          [
            { type: U8, shape: [1, 3, 4, 2] },
            { type: TensorType.INT32, shape: [2], data: i32([5, 7]) },
          ],
          [{ type: U8, shape: [1, 5, 7, 2] }],
          { alignCorners, halfPixelCenters },
        );
        expectSame(rnn, [bytes(24, 20)]);
      }
    });
  });

  describe('float32 within tolerance', () => {
    it('RESIZE_BILINEAR: default, align_corners, half_pixel_centers (pose/selfie shapes)', () => {
      const cases: [number[], [number, number], boolean, boolean][] = [
        [[1, 3, 4, 2], [5, 7], false, false],
        [[1, 4, 4, 3], [7, 7], true, false],
        [[1, 8, 8, 8], [16, 16], false, true],
        [[2, 5, 3, 4], [4, 6], false, true],
      ];
      for (const [shape, size, alignCorners, halfPixelCenters] of cases) {
        const m = model(
          BuiltinOperator.RESIZE_BILINEAR,
          [
            { type: F32, shape },
            { type: TensorType.INT32, shape: [2], data: i32(size) },
          ],
          [{ type: F32, shape: [shape[0]!, size[0], size[1], shape[3]!] }],
          { alignCorners, halfPixelCenters },
        );
        expectSame(m, [floats(count(shape), 21, -4, 4)]);
      }
    });

    it('L2_POOL_2D and MIRROR_PAD', () => {
      const pool = model(BuiltinOperator.L2_POOL_2D, [{ type: F32, shape: [1, 5, 5, 3] }], [{ type: F32, shape: [1, 3, 3, 3] }], {
        padding: Padding.SAME,
        strideW: 2,
        strideH: 2,
        filterWidth: 3,
        filterHeight: 3,
        fusedActivationFunction: 0,
      });
      expectSame(pool, [floats(75, 22, -8, 8)]);
      const pad = model(
        BuiltinOperator.MIRROR_PAD,
        [
          { type: F32, shape: [3, 2, 2] },
          { type: TensorType.INT64, shape: [3, 2], data: new BigInt64Array([3n, 0n, 1n, 1n, 0n, 2n]) },
        ],
        [{ type: F32, shape: [6, 4, 4] }],
        { mode: MirrorPadMode.SYMMETRIC },
      );
      expectSame(pad, [floats(12, 23)]);
    });

    it('TFLite_Detection_PostProcess, fast and regular NMS', () => {
      const anchors = new Float32Array(24 * 4);
      for (let i = 0; i < 24; i++) anchors.set([0.1 + 0.2 * (i % 5), 0.1 + 0.2 * Math.floor(i / 5), 0.15, 0.15], 4 * i);
      const options = {
        max_detections: 5,
        max_classes_per_detection: 1,
        detections_per_class: 2,
        use_regular_nms: false,
        nms_score_threshold: { float: 0.2 },
        nms_iou_threshold: { float: 0.5 },
        num_classes: 3,
        y_scale: { float: 10 },
        x_scale: { float: 10 },
        h_scale: { float: 5 },
        w_scale: { float: 5 },
      };
      for (const regular of [false, true]) {
        const m = model(
          { custom: 'TFLite_Detection_PostProcess' },
          [
            { type: F32, shape: [1, 24, 4] },
            { type: F32, shape: [1, 24, 4] },
            { type: F32, shape: [24, 4], data: anchors },
          ],
          [
            { type: F32, shape: [1, 5, 4] },
            { type: F32, shape: [1, 5] },
            { type: F32, shape: [1, 5] },
            { type: F32, shape: [1] },
          ],
          undefined,
          flexMap({ ...options, use_regular_nms: regular }),
        );
        expectSame(m, [floats(96, 24), floats(96, 25, 0, 1)]);
      }
    });
  });
});
