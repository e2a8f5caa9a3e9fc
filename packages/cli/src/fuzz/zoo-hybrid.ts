/**
 * Seeds with float32 activations and quantized constant weights (the converter's dynamic-range
 * "hybrid" models): FULLY_CONNECTED with int8 weights per-tensor (asymmetric input quantization) and
 * per-channel, CONV_2D and DEPTHWISE_CONV_2D with per-channel int8 filters, a per-row int8
 * EMBEDDING_LOOKUP table; and LiteRT's blockwise int4 weights (ai-edge-quantizer): a FULLY_CONNECTED and
 * an EMBEDDING_LOOKUP whose float16 scales are another tensor of the subgraph.
 */
import { ActivationFunctionType, BuiltinOperator as Op, Padding, TensorType } from '@micrort/core';
import { Zoo, lcg } from './zoo-common.js';

/** Constant int8 weights with values in [-127, 127]; per-channel when `scales` is an array. */
function int8Weights(z: Zoo, name: string, shape: number[], scales: number | number[], dimension: number, seed: number): number {
  const n = shape.reduce((a, b) => a * b, 1);
  const per = Array.isArray(scales);
  return z.t({
    name,
    type: TensorType.INT8,
    shape,
    data: Int8Array.from(lcg(n, seed, -127, 127)),
    quantization: per
      ? { scale: scales, zeroPoint: new Array<number>(scales.length).fill(0), quantizedDimension: dimension }
      : { scale: scales, zeroPoint: 0 },
  });
}

/** `n` per-channel scales around `base`. */
const scales = (n: number, base: number) => Array.from({ length: n }, (_, i) => base * (0.5 + ((i * 7) % 5) / 5));

/** An int32 graph input [n] clamped into [0, max] (MAXIMUM, MINIMUM), so random ids mostly look rows up. */
function clampedIds(z: Zoo, name: string, n: number, max: number): [number, number] {
  const ids = z.i32t(name, [n]);
  const low = z.i32t(`${name}/low`, [n]);
  z.op(Op.MAXIMUM, [ids, z.i32(`${name}/zero`, [0])], [low]);
  const out = z.i32t(`${name}/clamped`, [n]);
  z.op(Op.MINIMUM, [low, z.i32(`${name}/max`, [max])], [out]);
  return [ids, out];
}

/**
 * x [2, 16] → FC int8 per-tensor (asymmetric input quantization, RELU) → [2, 6] → FC int8 per-channel →
 * [2, 5]; image [1, 5, 5, 3] → CONV_2D per-channel int8 (SAME, RELU6) → [1, 5, 5, 4] → DEPTHWISE per-channel
 * (VALID, stride 2, multiplier 1) → [1, 2, 2, 4]; ids [3] → EMBEDDING_LOOKUP of a per-row int8 table [5, 6].
 */
export function hybridNet(): Uint8Array {
  const z = new Zoo('hybrid float × int8 weights (FC, CONV_2D, DEPTHWISE_CONV_2D, EMBEDDING_LOOKUP), per-tensor and per-channel');
  const x = z.f32('x', [2, 16]);
  const fc1 = z.f32('fc1', [2, 6]);
  z.op(Op.FULLY_CONNECTED, [x, int8Weights(z, 'fc1/w', [6, 16], 0.02, 0, 71), z.f32('fc1/b', [6], [0.1, -0.1, 0.2, 0, 0.3, -0.3])], [fc1], {
    fusedActivationFunction: ActivationFunctionType.RELU,
    asymmetricQuantizeInputs: true,
  });
  const fc2 = z.f32('fc2', [2, 5]);
  z.op(Op.FULLY_CONNECTED, [fc1, int8Weights(z, 'fc2/w', [5, 6], scales(5, 0.01), 0, 72), -1], [fc2]);

  const image = z.f32('image', [1, 5, 5, 3]);
  const conv = z.f32('conv', [1, 5, 5, 4]);
  z.op(
    Op.CONV_2D,
    [image, int8Weights(z, 'conv/w', [4, 3, 3, 3], scales(4, 0.01), 0, 73), z.f32('conv/b', [4], [0.5, -0.5, 0, 0.25])],
    [conv],
    {
      padding: Padding.SAME,
      strideH: 1,
      strideW: 1,
      fusedActivationFunction: ActivationFunctionType.RELU6,
    },
  );
  const dw = z.f32('dw', [1, 2, 2, 4]);
  z.op(
    Op.DEPTHWISE_CONV_2D,
    [conv, int8Weights(z, 'dw/w', [1, 3, 3, 4], scales(4, 0.02), 3, 74), z.f32('dw/b', [4], [0, 0.1, 0.2, 0.3])],
    [dw],
    {
      padding: Padding.VALID,
      strideH: 2,
      strideW: 2,
      depthMultiplier: 1,
    },
  );

  const [ids, clamped] = clampedIds(z, 'ids', 3, 4);
  const rows = z.f32('rows', [3, 6]);
  z.op(Op.EMBEDDING_LOOKUP, [clamped, int8Weights(z, 'table', [5, 6], scales(5, 0.05), 0, 75)], [rows]);
  return z.build([x, image, ids], [fc2, dw, rows]);
}

/**
 * Blockwise int4 weights [rows, cols] (values in [-8, 7] packed two per byte) with a float16 scale
 * tensor [rows, cols / blockSize] (scales in [2^-8, 2^-4)) named by the quantization's details.
 */
function blockwiseWeights(z: Zoo, name: string, rows: number, cols: number, blockSize: number, seed: number): number {
  const blocks = cols / blockSize;
  const raw = lcg(2 * rows * blocks, seed, 0, 1023);
  const half = Uint16Array.from({ length: rows * blocks }, (_, i) => ((7 + (raw[2 * i]! & 3)) << 10) | raw[2 * i + 1]!);
  const s = z.t({ name: `${name}/scales`, type: TensorType.FLOAT16, shape: [rows, blocks], data: half });
  const nibbles = lcg(rows * cols, seed + 1, 0, 15);
  const data = new Uint8Array(Math.ceil((rows * cols) / 2));
  nibbles.forEach((v, i) => (data[i >> 1] = data[i >> 1]! | (v << (i & 1 ? 4 : 0))));
  return z.t({
    name,
    type: TensorType.INT4,
    shape: [rows, cols],
    data,
    quantization: { scale: [], details: { kind: 'blockwise', scales: s, zeroPoints: -1, blockSize } },
  });
}

/** x [2, 64] → FULLY_CONNECTED with blockwise int4 weights [6, 64] (block 32); ids [3] → EMBEDDING_LOOKUP of a blockwise int4 table [4, 32] (block 16). */
export function blockwiseNet(): Uint8Array {
  const z = new Zoo('blockwise int4 weights (FULLY_CONNECTED, EMBEDDING_LOOKUP)');
  const x = z.f32('x', [2, 64]);
  const y = z.f32('fc', [2, 6]);
  z.op(Op.FULLY_CONNECTED, [x, blockwiseWeights(z, 'fc/w', 6, 64, 32, 81), z.f32('fc/b', [6], [0.1, 0, -0.1, 0.2, 0, -0.2])], [y], {
    fusedActivationFunction: ActivationFunctionType.RELU,
  });
  const [ids, clamped] = clampedIds(z, 'ids', 3, 3);
  const rows = z.f32('rows', [3, 32]);
  z.op(Op.EMBEDDING_LOOKUP, [clamped, blockwiseWeights(z, 'table', 4, 32, 16, 82)], [rows]);
  return z.build([x, ids], [y, rows]);
}
