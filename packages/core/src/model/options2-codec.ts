/**
 * The `builtin_options_2` tables (StableHLO operators, LiteRT), read and written field by field from
 * their layouts in verifier-layout.ts rather than by hand: field `snake_case` becomes property
 * `camelCase`; bools are booleans, other scalars numbers, strings strings ('' when absent), byte vectors
 * Uint8Array views, int32 and int64 vectors Int32Array, float vectors Float32Array. int64 values
 * (StableHLO dimensions, indices and paddings) must fit in int32, as TFLite's tensor shapes do: the
 * verifier rejects others with a ModelError. Absent fields take the schema's defaults (all zero).
 */
import type * as flatbuffers from 'flatbuffers';
import { ModelError, type ModelErrorLocation } from '../errors.js';
import type { BuiltinOptions2 } from '../options.js';
import type { Operator } from './generated/tflite.js';
import { builtinOptions2Layout, type FieldLayout, type ScalarRead, type TableLayout } from './verifier-layout.js';

type Value = number | boolean | string | Int32Array | Float32Array | Uint8Array;

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;

/** `snake_case` → `camelCase`. */
function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function int64AsInt32(v: bigint, field: string, loc: ModelErrorLocation): number {
  if (v < BigInt(INT32_MIN) || v > BigInt(INT32_MAX))
    throw new ModelError(`${field} = ${v} does not fit in int32 (a dimension, index or padding)`, { ...loc, field });
  return Number(v);
}

function readScalar(
  bb: flatbuffers.ByteBuffer,
  at: number,
  read: ScalarRead | undefined,
  field: string,
  loc: ModelErrorLocation,
): number | boolean {
  switch (read) {
    case 'bool':
      return bb.readUint8(at) !== 0;
    case 'uint8':
      return bb.readUint8(at);
    case 'uint32':
      return bb.readUint32(at);
    case 'float32':
      return bb.readFloat32(at);
    case 'int64':
      return int64AsInt32(bb.readInt64(at), field, loc);
    case 'uint64':
      return int64AsInt32(bb.readUint64(at), field, loc);
    default:
      return bb.readInt32(at);
  }
}

/** The default of a field absent from its table. */
function absent(f: FieldLayout): Value {
  const t = f.type;
  if (t.kind === 'string') return '';
  if (t.kind === 'vector') return t.read === 'float32' ? new Float32Array(0) : t.read === 'uint8' ? new Uint8Array(0) : new Int32Array(0);
  return t.kind === 'scalar' && t.read === 'bool' ? false : 0;
}

function readField(bb: flatbuffers.ByteBuffer, pos: number, f: FieldLayout, loc: ModelErrorLocation): Value {
  const rel = bb.__offset(pos, 4 + 2 * f.id);
  if (rel === 0) return absent(f);
  const at = pos + rel;
  const t = f.type;
  if (t.kind === 'scalar') return readScalar(bb, at, t.read, f.name, loc);
  if (t.kind === 'string') return bb.__string(at) as string;
  if (t.kind !== 'vector') return absent(f);
  const start = bb.__vector(at);
  const n = bb.__vector_len(at);
  const bytes = bb.bytes();
  if (t.read === 'uint8') return bytes.subarray(start, start + n);
  if (t.read === 'float32') return Float32Array.from({ length: n }, (_, i) => bb.readFloat32(start + 4 * i));
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = t.elementSize === 8 ? int64AsInt32(bb.readInt64(start + 8 * i), f.name, { ...loc, index: i }) : bb.readInt32(start + 4 * i);
  }
  return out;
}

/** Every field of the table at `pos` described by `layout`, by camelCase name. Throws ModelError (int64 out of int32). */
export function readOptionsTable(
  bb: flatbuffers.ByteBuffer,
  pos: number,
  layout: TableLayout,
  loc: ModelErrorLocation,
): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const f of layout.fields) out[camel(f.name)] = readField(bb, pos, f, loc);
  return out;
}

/** The `builtin_options_2` table of a verified operator, parsed; null when the operator has none. */
export function readBuiltinOptions2(
  op: Operator,
  loc: ModelErrorLocation = { table: 'Operator', field: 'builtin_options_2' },
): BuiltinOptions2 | null {
  const layout = builtinOptions2Layout(op.builtinOptions2Type() as number);
  const table = op.builtinOptions2({ bb: null, bb_pos: 0 }) as { bb: flatbuffers.ByteBuffer | null; bb_pos: number } | null;
  if (!layout || !table?.bb) return null;
  return readOptionsTable(table.bb, table.bb_pos, layout, { ...loc, table: layout.name });
}

/** A `builtin_options_2` table of `type` with every field at its default (all zero, '' and empty). */
export function defaultBuiltinOptions2(type: number): BuiltinOptions2 {
  const out: Record<string, Value> = {};
  for (const f of builtinOptions2Layout(type)?.fields ?? []) out[camel(f.name)] = absent(f);
  return out;
}

/**
 * Writes `options` as the `builtin_options_2` table of `type` (fields missing from `options` take their
 * defaults; vectors and strings first, as FlatBuffers requires; every scalar written). Returns its offset.
 */
export function writeBuiltinOptions2(b: flatbuffers.Builder, type: number, options: BuiltinOptions2): flatbuffers.Offset {
  const fields = builtinOptions2Layout(type)?.fields ?? [];
  const value = (f: FieldLayout): unknown => (options as Readonly<Record<string, unknown>>)[camel(f.name)] ?? absent(f);
  const offsets = fields.map((f) => {
    const t = f.type;
    const v = value(f);
    if (t.kind === 'string') return b.createString(String(v));
    if (t.kind !== 'vector') return 0;
    const items = Array.from(v as ArrayLike<number>);
    b.startVector(t.elementSize, items.length, t.elementSize);
    for (let i = items.length - 1; i >= 0; i--) {
      const x = items[i]!;
      if (t.elementSize === 8) b.addInt64(BigInt(x));
      else if (t.read === 'float32') b.addFloat32(x);
      else if (t.elementSize === 1) b.addInt8(x);
      else b.addInt32(x);
    }
    return b.endVector();
  });
  b.startObject(fields.reduce((n, f) => Math.max(n, f.id + 1), 0));
  fields.forEach((f, i) => {
    const t = f.type;
    if (t.kind !== 'scalar') {
      b.addFieldOffset(f.id, offsets[i]!, 0);
      return;
    }
    const n = Number(value(f));
    // A default different from the value, so that the builder writes every field.
    if (t.size === 1) b.addFieldInt8(f.id, n, n + 1);
    else if (t.size === 8) b.addFieldInt64(f.id, BigInt(n), BigInt(n) + 1n);
    else if (t.read === 'float32') b.addFieldFloat32(f.id, n, Number.NaN);
    else b.addFieldInt32(f.id, n, n + 1);
  });
  return b.endObject();
}
