/**
 * A seed with STRING tensors: string constants, a string graph input (the fuzzer writes random strings
 * into it, see execute.ts), GATHER of strings, and TFLite's hash tables — HASHTABLE (string → int64 and
 * int64 → string), HASHTABLE_IMPORT, HASHTABLE_FIND with defaults, HASHTABLE_SIZE.
 */
import { BuiltinOperator as Op, TensorType, encodeStrings } from '@micrort/core';
import { Zoo } from './zoo-common.js';

const WORDS = ['alpha', 'beta', '', 'gamma delta', 'ε'];

/** HashtableOptions { table_id, key_dtype, value_dtype }. */
function tableOptions(id: number, key: TensorType, value: TensorType) {
  return [
    { id: 0, type: 'int32' as const, value: id },
    { id: 1, type: 'int8' as const, value: key },
    { id: 2, type: 'int8' as const, value: value },
  ];
}

function strings(z: Zoo, name: string, values: readonly string[], shape = [values.length]): number {
  return z.t({ name, type: TensorType.STRING, shape, data: encodeStrings(values) });
}

function int64s(z: Zoo, name: string, values: readonly number[], shape = [values.length]): number {
  return z.t({ name, type: TensorType.INT64, shape, data: BigInt64Array.from(values.map(BigInt)) });
}

/**
 * ids int32 [3] → clamped to [0, 4] → GATHER from 5 string constants → HASHTABLE_FIND in table 1
 * (string → int64, default -1) → HASHTABLE_FIND in table 2 (int64 → string, default "?"); words (a string
 * graph input [2]) → HASHTABLE_FIND in table 1; HASHTABLE_SIZE of table 1.
 */
export function stringsNet(): Uint8Array {
  const z = new Zoo('STRING tensors: string GATHER and hash tables');
  const ids = z.i32t('ids', [3]);
  const words = z.t({ name: 'words', type: TensorType.STRING, shape: [2] });
  const low = z.i32t('ids/low', [3]);
  z.op(Op.MAXIMUM, [ids, z.i32('ids/zero', [0])], [low]);
  const clamped = z.i32t('ids/clamped', [3]);
  z.op(Op.MINIMUM, [low, z.i32('ids/four', [4])], [clamped]);
  const gathered = z.t({ name: 'gathered', type: TensorType.STRING, shape: [3] });
  z.op(Op.GATHER, [strings(z, 'vocabulary', WORDS), clamped], [gathered], { axis: 0 });

  const t1 = z.t({ name: 'table1', type: TensorType.RESOURCE, shape: [] });
  z.b.addOperator({ op: Op.HASHTABLE, inputs: [], outputs: [t1], rawOptions: tableOptions(1, TensorType.STRING, TensorType.INT64) });
  z.op(
    Op.HASHTABLE_IMPORT,
    [t1, strings(z, 'table1/keys', ['alpha', 'gamma delta', 'ε', 'zeta']), int64s(z, 'table1/values', [10, 30, 40, 99])],
    [],
  );
  const found = z.t({ name: 'found', type: TensorType.INT64, shape: [3] });
  z.op(Op.HASHTABLE_FIND, [t1, gathered, int64s(z, 'table1/default', [-1], [])], [found]);
  const foundWords = z.t({ name: 'found_words', type: TensorType.INT64, shape: [2] });
  z.op(Op.HASHTABLE_FIND, [t1, words, int64s(z, 'table1/default2', [-7], [])], [foundWords]);
  const size = z.t({ name: 'size', type: TensorType.INT64, shape: [1] });
  z.op(Op.HASHTABLE_SIZE, [t1], [size]);

  const t2 = z.t({ name: 'table2', type: TensorType.RESOURCE, shape: [] });
  z.b.addOperator({ op: Op.HASHTABLE, inputs: [], outputs: [t2], rawOptions: tableOptions(2, TensorType.INT64, TensorType.STRING) });
  z.op(Op.HASHTABLE_IMPORT, [t2, int64s(z, 'table2/keys', [10, 40, -1]), strings(z, 'table2/values', ['ten', 'forty', 'missing'])], []);
  const back = z.t({ name: 'back', type: TensorType.STRING, shape: [3] });
  z.op(Op.HASHTABLE_FIND, [t2, found, strings(z, 'table2/default', ['?'], [])], [back]);
  return z.build([ids, words], [back, found, foundWords, size]);
}
