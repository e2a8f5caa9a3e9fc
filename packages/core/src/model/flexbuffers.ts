/**
 * A small, bounds-checked reader for the FlexBuffers maps custom ops keep in their custom options
 * (`custom_options_format: FLEXBUFFERS`: TFLM's signal ops, TFLite_Detection_PostProcess, MediaPipe's ops). What such options hold
 * is decoded: a root map whose values are scalars (INT, UINT, BOOL, FLOAT and their indirect forms),
 * strings and keys, and vectors (typed `VECTOR_INT`/`UINT`/`FLOAT`/`BOOL`, fixed-length
 * `VECTOR_INT2`..`VECTOR_FLOAT4`, and untyped `VECTOR`s, whose elements are decoded like map values).
 * Other value types (nested maps, blobs) are recorded with their type so a caller can say what it found,
 * but carry no value.
 *
 * Every offset, width and length is checked against the buffer: a malformed buffer is a
 * `FlexBufferError` naming the problem and the byte offset, never an exception from a typed array or a
 * silently wrong value.
 *
 * Format reminder (flatbuffers/flexbuffers.h): the buffer ends with the root value, its packed type byte
 * and its byte width. A packed type is `type << 2 | log2(width of the children)`. Offsets are unsigned
 * and point backwards. A map's data is preceded by three words (offset to its keys vector, the keys
 * vector's byte width, its length) and followed by one packed type byte per value. Keys are sorted.
 */
import { MicrortError } from '../errors.js';

/** FlexBuffers value types (flexbuffers::Type). */
export enum FlexType {
  NULL = 0,
  INT = 1,
  UINT = 2,
  FLOAT = 3,
  KEY = 4,
  STRING = 5,
  INDIRECT_INT = 6,
  INDIRECT_UINT = 7,
  INDIRECT_FLOAT = 8,
  MAP = 9,
  VECTOR = 10,
  VECTOR_INT = 11,
  VECTOR_UINT = 12,
  VECTOR_FLOAT = 13,
  VECTOR_KEY = 14,
  VECTOR_STRING_DEPRECATED = 15,
  VECTOR_INT2 = 16,
  VECTOR_UINT2 = 17,
  VECTOR_FLOAT2 = 18,
  VECTOR_INT3 = 19,
  VECTOR_UINT3 = 20,
  VECTOR_FLOAT3 = 21,
  VECTOR_INT4 = 22,
  VECTOR_UINT4 = 23,
  VECTOR_FLOAT4 = 24,
  BLOB = 25,
  BOOL = 26,
  VECTOR_BOOL = 36,
}

/** Name of a FlexBuffers type for messages (`INT`, `MAP`, `type 99`). */
export function flexTypeName(type: number): string {
  return FlexType[type] ?? `type ${type}`;
}

/** A malformed FlexBuffer, or a value of the wrong type. `offset` is the byte offset of the problem (-1: none). */
export class FlexBufferError extends MicrortError {
  constructor(
    readonly detail: string,
    readonly offset: number,
  ) {
    super(offset >= 0 ? `flexbuffer: ${detail} (byte offset ${offset})` : `flexbuffer: ${detail}`);
  }
}

/** One decoded map value (or vector element). */
export interface FlexValue {
  readonly type: FlexType;
  /**
   * The value as a number for INT/UINT/BOOL/FLOAT (and indirect forms), NaN otherwise. 64-bit integers
   * beyond 2^53 lose precision here; `int32` keeps the exact low word.
   */
  readonly value: number;
  /** The low 32 bits as a signed int32, as TFLM's `FlexbufferWrapper::ElementAsInt32` truncates. */
  readonly int32: number;
  /** The text of a STRING or KEY (bytes decoded one to one), else undefined. */
  readonly text?: string;
  /**
   * The elements of a vector (any VECTOR* type), each decoded like a scalar value; elements of an
   * untyped VECTOR that are themselves vectors carry their own `elements`. Undefined for non-vectors.
   */
  readonly elements?: readonly FlexValue[];
}

/** Integer-like scalar types (what `int32` accepts). */
const INTEGER_TYPES = new Set<FlexType>([FlexType.INT, FlexType.UINT, FlexType.BOOL, FlexType.INDIRECT_INT, FlexType.INDIRECT_UINT]);

const SCALAR_TYPES = new Set<FlexType>([
  FlexType.INT,
  FlexType.UINT,
  FlexType.BOOL,
  FlexType.FLOAT,
  FlexType.INDIRECT_INT,
  FlexType.INDIRECT_UINT,
  FlexType.INDIRECT_FLOAT,
]);

/** The root map of a FlexBuffer: keys (sorted, as stored) and their values. */
export class FlexMap {
  constructor(private readonly entries: ReadonlyMap<string, FlexValue>) {}

  /** Keys in stored (sorted) order. */
  get keys(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The raw decoded value, or undefined. */
  get(key: string): FlexValue | undefined {
    return this.entries.get(key);
  }

  /**
   * An integer option as int32 (INT, UINT, BOOL or their indirect forms; truncated to the low 32 bits
   * like TFLM's `ElementAsInt32`). Throws FlexBufferError when the key is absent or not an integer.
   */
  int32(key: string): number {
    const v = this.require(key);
    if (v.type === FlexType.FLOAT || v.type === FlexType.INDIRECT_FLOAT || !SCALAR_TYPES.has(v.type))
      throw new FlexBufferError(`option "${key}" must be an integer, found ${flexTypeName(v.type)}`, -1);
    return v.int32;
  }

  /** A boolean option (BOOL, or an integer: non-zero is true, as TFLM's `ElementAsBool`). */
  bool(key: string): boolean {
    const v = this.require(key);
    if (v.type === FlexType.FLOAT || v.type === FlexType.INDIRECT_FLOAT || !SCALAR_TYPES.has(v.type))
      throw new FlexBufferError(`option "${key}" must be a bool or an integer, found ${flexTypeName(v.type)}`, -1);
    return v.value !== 0;
  }

  /**
   * A float option as float32 (FLOAT, or an INT/UINT/BOOL converted, as flexbuffers' `AsFloat` followed
   * by the cast to `float` the C++ kernels do). Throws FlexBufferError when the key is absent or not a
   * number.
   */
  float32(key: string): number {
    const v = this.require(key);
    if (!SCALAR_TYPES.has(v.type)) throw new FlexBufferError(`option "${key}" must be a number, found ${flexTypeName(v.type)}`, -1);
    return Math.fround(v.value);
  }

  /** A STRING (or KEY) option's text. Throws FlexBufferError when the key is absent or not a string. */
  string(key: string): string {
    const v = this.require(key);
    if (v.text === undefined) throw new FlexBufferError(`option "${key}" must be a string, found ${flexTypeName(v.type)}`, -1);
    return v.text;
  }

  /**
   * A vector option whose elements are integers (a typed or fixed-length INT/UINT/BOOL vector, or an
   * untyped VECTOR of integers), each truncated to int32 like `int32`. Throws FlexBufferError when the
   * key is absent, the value is not a vector, or an element is not an integer (naming its position).
   */
  int32Vector(key: string): number[] {
    const v = this.require(key);
    if (v.elements === undefined)
      throw new FlexBufferError(`option "${key}" must be a vector of integers, found ${flexTypeName(v.type)}`, -1);
    return v.elements.map((e, i) => {
      if (!INTEGER_TYPES.has(e.type))
        throw new FlexBufferError(`option "${key}" must be a vector of integers, element ${i} is ${flexTypeName(e.type)}`, -1);
      return e.int32;
    });
  }

  /** True when the key is absent or holds NULL (flexbuffers' `IsNull` on a map lookup). */
  isNull(key: string): boolean {
    const v = this.entries.get(key);
    return v === undefined || v.type === FlexType.NULL;
  }

  private require(key: string): FlexValue {
    const v = this.entries.get(key);
    if (!v) throw new FlexBufferError(`option "${key}" is missing (present: ${this.keys.map((k) => `"${k}"`).join(', ') || 'none'})`, -1);
    return v;
  }
}

const TWO_POW_32 = 4294967296;

/** Bounds-checked little-endian reads over one buffer. */
class Reader {
  private readonly view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.bytes.byteLength;
  }

  check(pos: number, width: number, what: string): void {
    if (!(pos >= 0 && pos + width <= this.length))
      throw new FlexBufferError(`${what}: ${width} byte(s) at ${pos} lie outside the ${this.length}-byte buffer`, Math.max(pos, 0));
  }

  uint(pos: number, width: number, what: string): number {
    this.check(pos, width, what);
    switch (width) {
      case 1:
        return this.view.getUint8(pos);
      case 2:
        return this.view.getUint16(pos, true);
      case 4:
        return this.view.getUint32(pos, true);
      case 8:
        return this.view.getUint32(pos + 4, true) * TWO_POW_32 + this.view.getUint32(pos, true);
      default:
        throw new FlexBufferError(`${what}: invalid byte width ${width}`, pos);
    }
  }

  int(pos: number, width: number, what: string): number {
    this.check(pos, width, what);
    switch (width) {
      case 1:
        return this.view.getInt8(pos);
      case 2:
        return this.view.getInt16(pos, true);
      case 4:
        return this.view.getInt32(pos, true);
      case 8:
        return this.view.getInt32(pos + 4, true) * TWO_POW_32 + this.view.getUint32(pos, true);
      default:
        throw new FlexBufferError(`${what}: invalid byte width ${width}`, pos);
    }
  }

  /** Low 32 bits of the integer at `pos`, as int32. */
  low32(pos: number, width: number, what: string): number {
    if (width === 8) {
      this.check(pos, 8, what);
      return this.view.getInt32(pos, true);
    }
    return this.int(pos, width, what) | 0;
  }

  float(pos: number, width: number, what: string): number {
    this.check(pos, width, what);
    if (width === 4) return this.view.getFloat32(pos, true);
    if (width === 8) return this.view.getFloat64(pos, true);
    throw new FlexBufferError(`${what}: a float must be 4 or 8 bytes wide, got ${width}`, pos);
  }

  /** Follows the unsigned backwards offset stored at `pos` (width `width`). */
  indirect(pos: number, width: number, what: string): number {
    const off = this.uint(pos, width, what);
    const target = pos - off;
    if (!(target >= 0 && target < this.length))
      throw new FlexBufferError(`${what}: offset ${off} at ${pos} points outside the buffer`, pos);
    return target;
  }

  /** The NUL-terminated key string at `pos` (bytes decoded one to one). */
  key(pos: number, what: string): string {
    let end = pos;
    while (end < this.length && this.bytes[end] !== 0) end++;
    if (end >= this.length) throw new FlexBufferError(`${what}: key string at ${pos} is not NUL-terminated`, pos);
    let s = '';
    for (let i = pos; i < end; i++) s += String.fromCharCode(this.bytes[i]!);
    return s;
  }
}

function checkWidth(width: number, what: string, pos: number): void {
  if (width !== 1 && width !== 2 && width !== 4 && width !== 8) throw new FlexBufferError(`${what}: invalid byte width ${width}`, pos);
}

/**
 * Decodes a FlexBuffer whose root is a map. Throws FlexBufferError for anything malformed (truncated
 * buffer, bad widths, offsets outside the buffer, a root that is not a map, key/value count mismatch,
 * duplicate keys).
 */
export function parseFlexMap(bytes: Uint8Array): FlexMap {
  const r = new Reader(bytes);
  const len = r.length;
  if (len < 3) throw new FlexBufferError(`buffer of ${len} bytes is too short (at least 3 needed)`, 0);
  const rootWidth = bytes[len - 1]!;
  checkWidth(rootWidth, 'root', len - 1);
  const rootPacked = bytes[len - 2]!;
  const rootPos = len - 2 - rootWidth;
  if (rootPos < 0) throw new FlexBufferError(`root value of ${rootWidth} bytes does not fit in ${len} bytes`, 0);
  const rootType = rootPacked >> 2;
  if (rootType !== FlexType.MAP) throw new FlexBufferError(`root must be a MAP, found ${flexTypeName(rootType)}`, len - 2);
  const w = 1 << (rootPacked & 3);

  const mapPos = r.indirect(rootPos, rootWidth, 'root offset');
  const headerPos = mapPos - 3 * w;
  if (headerPos < 0) throw new FlexBufferError(`map header of ${3 * w} bytes before ${mapPos} starts before the buffer`, mapPos);
  const size = r.uint(mapPos - w, w, 'map length');
  const valuesEnd = mapPos + size * w;
  if (valuesEnd + size > len)
    throw new FlexBufferError(
      `map of ${size} values (${w} bytes each, plus ${size} type bytes) at ${mapPos} overruns the ${len}-byte buffer`,
      mapPos,
    );
  const keysWidth = r.uint(mapPos - 2 * w, w, 'map keys width');
  checkWidth(keysWidth, 'map keys vector', mapPos - 2 * w);
  const keysPos = r.indirect(headerPos, w, 'map keys offset');
  const keysLen = r.uint(keysPos - keysWidth, keysWidth, 'keys vector length');
  if (keysLen !== size) throw new FlexBufferError(`map has ${size} values but ${keysLen} keys`, keysPos);
  r.check(keysPos, size * keysWidth, 'keys vector');

  const entries = new Map<string, FlexValue>();
  for (let i = 0; i < size; i++) {
    const keyPos = r.indirect(keysPos + i * keysWidth, keysWidth, `key ${i}`);
    const key = r.key(keyPos, `key ${i}`);
    if (entries.has(key)) throw new FlexBufferError(`duplicate key "${key}"`, keyPos);
    entries.set(key, readValue(r, mapPos + i * w, w, bytes[valuesEnd + i]!, key));
  }
  return new FlexMap(entries);
}

/** Nesting limit for untyped vectors inside untyped vectors (offsets may point anywhere backwards). */
const MAX_VECTOR_DEPTH = 8;

/** Reads a scalar of `type` stored inline at `pos` with byte width `width`. */
function readInline(r: Reader, type: FlexType, pos: number, width: number, what: string): FlexValue {
  switch (type) {
    case FlexType.INT:
      return { type, value: r.int(pos, width, what), int32: r.low32(pos, width, what) };
    case FlexType.UINT:
    case FlexType.BOOL:
      return { type, value: r.uint(pos, width, what), int32: r.low32(pos, width, what) };
    default: {
      const f = r.float(pos, width, what);
      return { type, value: f, int32: f | 0 };
    }
  }
}

/** Reads the STRING or KEY at `target`; `lengthWidth` is the byte width of a string's length prefix. */
function readText(r: Reader, type: FlexType, target: number, lengthWidth: number, what: string): FlexValue {
  if (type === FlexType.KEY) return { type, value: Number.NaN, int32: 0, text: r.key(target, what) };
  const length = r.uint(target - lengthWidth, lengthWidth, `${what} length`);
  r.check(target, length + 1, what);
  if (r.bytes[target + length] !== 0)
    throw new FlexBufferError(`${what}: string of ${length} bytes at ${target} is not NUL-terminated`, target);
  let text = '';
  for (let i = target; i < target + length; i++) text += String.fromCharCode(r.bytes[i]!);
  return { type, value: Number.NaN, int32: 0, text };
}

/** Element type and fixed length of a typed vector type (length 0: stored before the data). */
function typedVectorLayout(type: FlexType): [FlexType, number] | null {
  if (type >= FlexType.VECTOR_INT && type <= FlexType.VECTOR_FLOAT) return [type - FlexType.VECTOR_INT + FlexType.INT, 0];
  if (type === FlexType.VECTOR_KEY) return [FlexType.KEY, 0];
  if (type === FlexType.VECTOR_BOOL) return [FlexType.BOOL, 0];
  if (type >= FlexType.VECTOR_INT2 && type <= FlexType.VECTOR_FLOAT4) {
    const k = type - FlexType.VECTOR_INT2;
    return [(k % 3) + FlexType.INT, Math.floor(k / 3) + 2];
  }
  return null;
}

/** Reads the vector of `type` whose data start at `target`, elements `width` bytes wide. */
function readVector(r: Reader, type: FlexType, target: number, width: number, what: string, depth: number): FlexValue {
  const typed = typedVectorLayout(type);
  let length: number;
  if (typed !== null && typed[1] > 0) length = typed[1];
  else length = r.uint(target - width, width, `${what} length`);
  const typeBytes = typed === null ? length : 0;
  if (target + length * width + typeBytes > r.length)
    throw new FlexBufferError(
      `${what}: vector of ${length} elements (${width} bytes each) at ${target} overruns the ${r.length}-byte buffer`,
      target,
    );
  const elements: FlexValue[] = [];
  for (let i = 0; i < length; i++) {
    const at = target + i * width;
    const element = `${what}[${i}]`;
    if (typed !== null) {
      if (typed[0] === FlexType.KEY) elements.push(readText(r, FlexType.KEY, r.indirect(at, width, element), 0, element));
      else elements.push(readInline(r, typed[0], at, width, element));
    } else {
      elements.push(readValueAt(r, at, width, r.bytes[target + length * width + i]!, element, depth + 1));
    }
  }
  return { type, value: Number.NaN, int32: 0, elements };
}

function readValue(r: Reader, pos: number, parentWidth: number, packed: number, key: string): FlexValue {
  return readValueAt(r, pos, parentWidth, packed, `value of "${key}"`, 0);
}

function readValueAt(r: Reader, pos: number, parentWidth: number, packed: number, what: string, depth: number): FlexValue {
  const type = packed >> 2;
  const childWidth = 1 << (packed & 3);
  switch (type) {
    case FlexType.NULL:
      return { type, value: 0, int32: 0 };
    case FlexType.INT:
    case FlexType.UINT:
    case FlexType.BOOL:
    case FlexType.FLOAT:
      return readInline(r, type, pos, parentWidth, what);
    case FlexType.INDIRECT_INT: {
      const t = r.indirect(pos, parentWidth, what);
      return { type, value: r.int(t, childWidth, what), int32: r.low32(t, childWidth, what) };
    }
    case FlexType.INDIRECT_UINT: {
      const t = r.indirect(pos, parentWidth, what);
      return { type, value: r.uint(t, childWidth, what), int32: r.low32(t, childWidth, what) };
    }
    case FlexType.INDIRECT_FLOAT: {
      const t = r.indirect(pos, parentWidth, what);
      const f = r.float(t, childWidth, what);
      return { type, value: f, int32: f | 0 };
    }
    case FlexType.STRING:
    case FlexType.KEY:
      return readText(r, type, r.indirect(pos, parentWidth, what), childWidth, what);
    case FlexType.VECTOR:
    case FlexType.VECTOR_INT:
    case FlexType.VECTOR_UINT:
    case FlexType.VECTOR_FLOAT:
    case FlexType.VECTOR_KEY:
    case FlexType.VECTOR_BOOL:
    case FlexType.VECTOR_INT2:
    case FlexType.VECTOR_UINT2:
    case FlexType.VECTOR_FLOAT2:
    case FlexType.VECTOR_INT3:
    case FlexType.VECTOR_UINT3:
    case FlexType.VECTOR_FLOAT3:
    case FlexType.VECTOR_INT4:
    case FlexType.VECTOR_UINT4:
    case FlexType.VECTOR_FLOAT4:
      if (depth >= MAX_VECTOR_DEPTH) throw new FlexBufferError(`${what}: vectors nested deeper than ${MAX_VECTOR_DEPTH}`, pos);
      return readVector(r, type, r.indirect(pos, parentWidth, what), childWidth, what, depth);
    default:
      if (FlexType[type] === undefined) throw new FlexBufferError(`${what} has unknown type ${type}`, pos);
      return { type, value: Number.NaN, int32: 0 };
  }
}
