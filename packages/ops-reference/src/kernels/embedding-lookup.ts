/**
 * EMBEDDING_LOOKUP (TFLM kernels/embedding_lookup.cc): output row i is row `ids[i]` of the table (input 1,
 * rank >= 2; a row is everything after its first dimension). ids (input 0) are 1-D int32 runtime data; an
 * id outside [0, rows) fails the invoke with a KernelError, as TFLM fails it.
 *
 * Types: a float32 table gives a float32 output; an int8 table gives an int8 output (row copy) or a
 * float32 output dequantized with the table's scale (its zero point must be 0, as TFLM requires). As
 * TFLite's kernel, a table of any other fixed-size type (uint8, int16, int32, int64, bool, float16,
 * float64, uint16, uint32, uint64, complex64) or of strings is copied row by row to an output of its type.
 *
 * TFLite's hybrid lookups (embedding_lookup.cc EvalHybrid) give a float32 output from a quantized table:
 * int8, uint8 (its bytes read as int8 and the zero point not used, as TFLite 2.9 does; current LiteRT
 * refuses a non-zero uint8 zero point) and int4 (a constant, unpacked once in prepare; its rows must have
 * an even length: TFLite reads an odd-length int4 row from the wrong nibble), with one scale, or one per
 * row (quantized dimension 0): value × scale in float32.
 *
 * Blockwise tables (LiteRT's BlockwiseQuantization, embedding_lookup.cc EvalBlockwise): a constant 2-D
 * int4 table whose rows are runs of `block_size` values with one float16 (or float32) scale each, looked
 * up into a float32 output as value × its block's scale (TFLite's (q << 4) × (scale / 16) is the same
 * float32 product).
 */
import { BuiltinOperator, KernelError, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { FIXED_SIZE_TYPES, type StringMove, prepareStringMove, requireShape, typeSupport, writeMappedStrings } from './data-common.js';
import { type ElementLayout, elementLayout, movableData, shapeString } from './transpose-common.js';
import {
  type BlockwiseWeights,
  blockwiseDetails,
  expectType,
  fillOpData,
  readBlockwiseWeights,
  hybridWeightScales,
  hybridWeightsInt8,
  newOpData,
  opData,
} from '@micrort/kernel-support';

const OP = 'EMBEDDING_LOOKUP';
const TABLE_TYPES: readonly TensorType[] = [...FIXED_SIZE_TYPES, TensorType.STRING, TensorType.INT4];
/** sizeof(OpData) of TFLM's kernel on x86-64: float scale, size_t num_columns. */
export const OP_DATA_EMBEDDING_LOOKUP_BYTES = 16;

/** Op data computed in prepare. */
interface EmbeddingLookupOpData {
  rows: number;
  /** Elements per row. */
  columns: number;
  /** Quantized table, float32 output (TFLite's hybrid lookup). */
  hybrid: boolean;
  scale: number;
  /** Hybrid: the table's int8 values (uint8 read as int8, int4 unpacked), or null to read the tensor. */
  values: Int8Array | null;
  /** Hybrid: one scale per row, or null for one scale. */
  rowScales: Float32Array | null;
  /** A blockwise table: its int8 values and block scales, else null. */
  blockwise: BlockwiseWeights | null;
  layout: ElementLayout;
  /** A STRING table: the rows' strings are written through this. */
  strings: StringMove | null;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const ids = getInput(context, node, 0, OP);
  const table = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  if (ids.dims.length !== 1)
    throw new KernelError(OP, node.index, `ids (tensor ${ids.index}) must be 1-D, got shape ${shapeString(ids.dims)}`);
  expectType(OP, node, 'ids', ids, [TensorType.INT32]);
  if (table.dims.length < 2)
    throw new KernelError(OP, node.index, `table (tensor ${table.index}) must have at least 2 dimensions, got ${shapeString(table.dims)}`);
  expectType(OP, node, 'table', table, TABLE_TYPES);
  const outputTypes =
    table.type === TensorType.INT8 || table.type === TensorType.UINT8
      ? [table.type, TensorType.FLOAT32]
      : table.type === TensorType.INT4
        ? [TensorType.FLOAT32]
        : [table.type];
  expectType(OP, node, 'output', output, outputTypes);
  const expected = Array.from(table.dims);
  expected[0] = ids.dims[0]!;
  requireShape(OP, node, output, 'output', expected);
  const rows = table.dims[0]!;
  const columns = rows > 0 ? table.elementCount / rows : 0;
  if (blockwiseDetails(table) !== null) {
    const blockwise = readBlockwiseWeights(OP, context, node, 'table', table);
    const layout = { useWords: false, units: 1 };
    const data: EmbeddingLookupOpData = {
      rows,
      columns,
      hybrid: false,
      scale: 0,
      values: null,
      rowScales: null,
      blockwise,
      layout,
      strings: null,
    };
    fillOpData(OP, node, data);
    return;
  }
  const hybrid = table.type !== TensorType.FLOAT32 && output.type === TensorType.FLOAT32;
  if (hybrid && table.type === TensorType.INT8 && table.params.zeroPoint !== 0)
    throw new KernelError(OP, node.index, `an int8 table dequantized to float32 must have zero point 0, got ${table.params.zeroPoint}`);
  let values: Int8Array | null = null;
  let rowScales: Float32Array | null = null;
  if (hybrid) {
    if (table.type === TensorType.INT4 && columns % 2 !== 0)
      throw new KernelError(OP, node.index, `int4 table (tensor ${table.index}) rows have ${columns} values; an even count is needed`);
    values = table.type === TensorType.INT8 && !table.isConstant ? null : hybridWeightsInt8(OP, context, node, 'table', table);
    rowScales = hybridWeightScales(OP, node, 'table', table, 0, rows).perChannel;
  }
  // TFLM allocates its OpData in prepare and fills scale (hybrid only) and num_columns.
  const block = context.allocatePersistentBuffer(OP_DATA_EMBEDDING_LOOKUP_BYTES);
  const view = new DataView(block.buffer, block.offset, OP_DATA_EMBEDDING_LOOKUP_BYTES);
  if (hybrid) view.setFloat32(0, table.params.scale, true);
  view.setUint32(8, columns, true);
  const strings = table.type === TensorType.STRING ? prepareStringMove(OP, context, node, table, false) : null;
  const layout = strings || hybrid ? { useWords: false, units: 1 } : elementLayout(table.type, OP, node);
  const data: EmbeddingLookupOpData = {
    rows,
    columns,
    hybrid,
    scale: table.params.scale,
    values,
    rowScales,
    blockwise: null,
    layout,
    strings,
  };
  fillOpData(OP, node, data);
}

function outOfBounds(node: Node, i: number, id: number, rows: number): never {
  throw new KernelError(OP, node.index, `ids[${i}] = ${id} is out of bounds: the table has rows [0, ${rows - 1}]`);
}

/** TFLite's hybrid lookup: rows of a quantized table times their scale, into a float32 output. */
function invokeHybrid(node: Node, d: EmbeddingLookupOpData, ids: Int32Array, table: Int8Array, output: Float32Array): void {
  const { rows, columns, scale, rowScales } = d;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id < 0 || id >= rows) outOfBounds(node, i, id, rows);
    const s = rowScales === null ? scale : rowScales[id]!;
    for (let c = 0, p = id * columns, o = i * columns; c < columns; c++) output[o++] = table[p++]! * s;
  }
}

/** TFLite's EvalBlockwise: each looked-up row's values times their block's scale, into a float32 output. */
function invokeBlockwise(node: Node, w: BlockwiseWeights, ids: Int32Array, output: Float32Array): void {
  const { rows, cols, blockSize, blocks, values, scales } = w;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (id < 0 || id >= rows) outOfBounds(node, i, id, rows);
    let p = id * cols;
    let o = i * cols;
    for (let k = 0; k < blocks; k++) {
      const s = scales[id * blocks + k]!;
      for (let c = 0; c < blockSize; c++) output[o++] = values[p++]! * s;
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<EmbeddingLookupOpData>(OP, node);
  const ids = context.getEvalTensor(node.inputs[0]!).data as Int32Array;
  const tableTensor = context.getEvalTensor(node.inputs[1]!);
  const outputTensor = context.getEvalTensor(node.outputs[0]!);
  if (d.blockwise !== null) {
    invokeBlockwise(node, d.blockwise, ids, outputTensor.data as Float32Array);
    return;
  }
  if (d.hybrid && d.rows > 0) {
    invokeHybrid(node, d, ids, d.values ?? (tableTensor.data as Int8Array), outputTensor.data as Float32Array);
    return;
  }
  const strings = d.strings;
  const table = strings ? strings.iota : movableData(tableTensor, d.layout);
  const output = strings ? strings.map : movableData(outputTensor, d.layout);
  const { rows } = d;
  if (rows === 0) return; // TFLM propagates the empty table
  const columns = d.columns * d.layout.units;
  const n = ids.length;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    if (id < 0 || id >= rows) outOfBounds(node, i, id, rows);
    let p = id * columns;
    let o = i * columns;
    for (let c = 0; c < columns; c++) output[o++] = table[p++]!;
  }
  if (strings) writeMappedStrings(strings, tableTensor.bytes, outputTensor.bytes);
}

/** EMBEDDING_LOOKUP registration (op versions 1..4). */
export const EMBEDDING_LOOKUP: Registration = {
  builtinCode: BuiltinOperator.EMBEDDING_LOOKUP,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TABLE_TYPES, 1),
  init: newOpData,
  prepare,
  invoke,
};
