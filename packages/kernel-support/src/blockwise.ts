/**
 * Blockwise-quantized weights (LiteRT schema `BlockwiseQuantization`, what ai-edge-quantizer writes for
 * LLM weights; TFLite's kTfLiteBlockwiseQuantization): a constant 2-D int4 matrix [rows, cols] whose
 * every run of `blockSize` consecutive values of a row has its own scale. The scales are another tensor
 * of the subgraph ([rows, cols / blockSize], float16 as the quantizer writes them, or float32), named by
 * index in the tensor's quantization details; a value is q × scale. TFLite's blockwise kernels are
 * symmetric (EMBEDDING_LOOKUP's EvalBlockwise never reads the zero points): a zero-point tensor is taken
 * only when all its values are 0.
 */
import { TensorType, tensorTypeName, type Node, type QuantizationDetailsDef, type Tensor, type TfLiteContext } from '@micrort/core';
import { QuantizationError, TensorTypeError } from './checks.js';
import { halfToFloat } from './float16.js';
import { unpackInt4 } from './hybrid.js';

/** A blockwise matrix read in prepare: int8 values (int4 unpacked) and one float32 scale per block. */
export interface BlockwiseWeights {
  rows: number;
  cols: number;
  blockSize: number;
  /** Blocks per row (cols / blockSize). */
  blocks: number;
  /** rows × cols values, row-major (a persistent arena buffer). */
  values: Int8Array;
  /** rows × blocks scales as float32 (a persistent arena buffer). */
  scales: Float32Array;
}

/** The tensor's blockwise details, or null when it has none. */
export function blockwiseDetails(t: Tensor): Extract<QuantizationDetailsDef, { kind: 'blockwise' }> | null {
  const d = t.quantizationDetails;
  return d !== null && d.kind === 'blockwise' ? d : null;
}

/**
 * Reads blockwise weights in prepare: checks the matrix (constant int4, 2-D, rows a whole number of
 * blocks), the scale tensor (constant float16 or float32 with rows × blocks values) and the zero points
 * (none, or all 0), and copies values and scales into persistent buffers.
 */
export function readBlockwiseWeights(op: string, context: TfLiteContext, node: Node, what: string, t: Tensor): BlockwiseWeights {
  const d = blockwiseDetails(t);
  const fail = (detail: string): never => {
    throw new QuantizationError(op, node.index, what, t.index, `blockwise ${what} (tensor ${t.index}) ${detail}`);
  };
  if (d === null) return fail('has no blockwise quantization');
  if (t.type !== TensorType.INT4) throw new TensorTypeError(op, node.index, `blockwise ${what}`, t.index, t.type, [TensorType.INT4]);
  if (!t.isConstant) fail('must be a constant');
  if (t.dims.length !== 2) fail(`must be 2-D, got rank ${t.dims.length}`);
  const rows = t.dims[0]!;
  const cols = t.dims[1]!;
  const blockSize = d!.blockSize;
  if (blockSize <= 0 || cols % blockSize !== 0) fail(`has ${cols} values per row, not a whole number of blocks of ${blockSize}`);
  const blocks = cols / blockSize;
  const s = context.getTensor(d!.scales);
  if (s.type !== TensorType.FLOAT16 && s.type !== TensorType.FLOAT32)
    fail(`scales (tensor ${s.index}) must be float16 or float32, got ${tensorTypeName(s.type)}`);
  if (!s.isConstant) fail(`scales (tensor ${s.index}) must be a constant`);
  if (s.elementCount !== rows * blocks)
    fail(`scales (tensor ${s.index}) hold ${s.elementCount} values; ${rows} rows × ${blocks} blocks need ${rows * blocks}`);
  if (d!.zeroPoints >= 0) {
    const z = context.getTensor(d!.zeroPoints);
    if (!z.isConstant || !z.bytes.every((b) => b === 0))
      fail(`zero points (tensor ${z.index}) must be constant zeros: TFLite's blockwise kernels are symmetric`);
  }
  const scales = context.allocatePersistentBuffer(rows * blocks * 4).f32.subarray(0, rows * blocks);
  if (s.type === TensorType.FLOAT16) {
    const half = s.data as Uint16Array;
    for (let i = 0; i < scales.length; i++) scales[i] = halfToFloat(half[i]!);
  } else scales.set(s.data as Float32Array);
  if (!scales.every((v) => v > 0 && v < Infinity)) fail(`scales (tensor ${s.index}) must be positive and finite`);
  const values = context.allocatePersistentBuffer(rows * cols).i8.subarray(0, rows * cols);
  unpackInt4(t.data as Int8Array, rows * cols, values);
  return { rows, cols, blockSize, blocks, values, scales };
}
