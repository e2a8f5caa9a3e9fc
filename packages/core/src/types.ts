/**
 * TFLite tensor element types. Numbering is the `TensorType` enum of the TFLite schema.
 */
export enum TensorType {
  FLOAT32 = 0,
  FLOAT16 = 1,
  INT32 = 2,
  UINT8 = 3,
  INT64 = 4,
  STRING = 5,
  BOOL = 6,
  INT16 = 7,
  COMPLEX64 = 8,
  INT8 = 9,
  FLOAT64 = 10,
  COMPLEX128 = 11,
  UINT64 = 12,
  RESOURCE = 13,
  VARIANT = 14,
  UINT32 = 15,
  UINT16 = 16,
  INT4 = 17,
  BFLOAT16 = 18,
  /** Two-bit integers, packed four per byte in constants (LiteRT). */
  INT2 = 19,
  /** Unsigned four-bit integers, packed two per byte in constants (LiteRT). */
  UINT4 = 20,
  /** 8-bit floats (LiteRT): 4 exponent bits, 3 mantissa bits, finite only. */
  FLOAT8_E4M3FN = 21,
  /** 8-bit floats (LiteRT): 5 exponent bits, 2 mantissa bits. */
  FLOAT8_E5M2 = 22,
}

/** The typed array a tensor of each supported element type is viewed through. */
export type TensorData =
  | Float32Array
  | Float64Array
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

const ELEMENT_SIZE: Record<number, number> = {
  [TensorType.FLOAT32]: 4,
  [TensorType.FLOAT16]: 2,
  [TensorType.INT32]: 4,
  [TensorType.UINT8]: 1,
  [TensorType.INT64]: 8,
  [TensorType.BOOL]: 1,
  [TensorType.INT16]: 2,
  [TensorType.COMPLEX64]: 8,
  [TensorType.INT8]: 1,
  [TensorType.FLOAT64]: 8,
  [TensorType.COMPLEX128]: 16,
  [TensorType.UINT64]: 8,
  [TensorType.UINT32]: 4,
  [TensorType.UINT16]: 2,
  [TensorType.BFLOAT16]: 2,
  // A resource handle (VAR_HANDLE's output): an int32 resource id, as TFLM's TfLiteTypeSizeOf.
  [TensorType.RESOURCE]: 4,
};

/**
 * Bytes per element of `type`, or `undefined` for types without a fixed whole-byte element: STRING
 * (variable length, see `kernel/strings.ts`), the sub-byte INT4 (two per byte, see {@link dataByteLength}),
 * UINT4 and INT2, VARIANT, and the 8-bit floats micrort cannot hold in an arena.
 */
export function elementSize(type: TensorType): number | undefined {
  return ELEMENT_SIZE[type];
}

/**
 * Bytes of the data of `elements` elements of `type`: the element size times the count, for INT4 the
 * packed size (two values per byte, low nibble first: TFLite's packed int4), `undefined` for STRING and
 * VARIANT, whose size depends on their contents.
 */
export function dataByteLength(type: TensorType, elements: number): number | undefined {
  if (type === TensorType.INT4) return Math.ceil(elements / 2);
  const es = ELEMENT_SIZE[type];
  return es === undefined ? undefined : elements * es;
}

/** Lower-case dtype name as used by the conformance files (`int8`, `float32`, ...). */
export function tensorTypeName(type: TensorType): string {
  const n = TensorType[type];
  return n === undefined ? `unknown(${type})` : n.toLowerCase();
}

/** Parses a dtype name (`int8`, `FLOAT32`, ...) back to a TensorType, or undefined. */
export function tensorTypeFromName(name: string): TensorType | undefined {
  const v = (TensorType as unknown as Record<string, number>)[name.toUpperCase()];
  return typeof v === 'number' ? (v as TensorType) : undefined;
}

/**
 * A typed view of `length` elements of `type` over `buffer` at `byteOffset`.
 * `byteOffset` must be a multiple of the element size. FLOAT16/BFLOAT16 are viewed as raw Uint16Array,
 * BOOL as Uint8Array, COMPLEX64 as Float32Array pairs, RESOURCE (resource ids) as Int32Array. STRING and
 * INT4 are viewed as their raw bytes (`length` is then a byte count): a string tensor's serialized
 * buffer (count, offsets, bytes), an int4 tensor's packed nibbles (as Int8Array).
 */
export function makeTypedView(type: TensorType, buffer: ArrayBufferLike, byteOffset: number, length: number): TensorData {
  switch (type) {
    case TensorType.FLOAT32:
      return new Float32Array(buffer, byteOffset, length);
    case TensorType.FLOAT64:
      return new Float64Array(buffer, byteOffset, length);
    case TensorType.INT8:
      return new Int8Array(buffer, byteOffset, length);
    case TensorType.UINT8:
    case TensorType.BOOL:
      return new Uint8Array(buffer, byteOffset, length);
    case TensorType.INT16:
      return new Int16Array(buffer, byteOffset, length);
    case TensorType.UINT16:
    case TensorType.FLOAT16:
    case TensorType.BFLOAT16:
      return new Uint16Array(buffer, byteOffset, length);
    case TensorType.INT32:
    case TensorType.RESOURCE:
      return new Int32Array(buffer, byteOffset, length);
    case TensorType.UINT32:
      return new Uint32Array(buffer, byteOffset, length);
    case TensorType.INT64:
      return new BigInt64Array(buffer, byteOffset, length);
    case TensorType.UINT64:
      return new BigUint64Array(buffer, byteOffset, length);
    case TensorType.COMPLEX64:
      return new Float32Array(buffer, byteOffset, length * 2);
    case TensorType.COMPLEX128:
      return new Float64Array(buffer, byteOffset, length * 2);
    case TensorType.STRING:
      return new Uint8Array(buffer, byteOffset, length);
    case TensorType.INT4:
      return new Int8Array(buffer, byteOffset, length);
    default:
      throw new RangeError(`makeTypedView: tensor type ${tensorTypeName(type)} has no typed-array view`);
  }
}

/** Product of the dims (1 for a scalar with no dims). */
export function numElements(dims: ArrayLike<number>): number {
  let n = 1;
  for (let i = 0; i < dims.length; i++) n *= dims[i]!;
  return n;
}

/** Arena alignment in bytes, as TFLM's `MicroArenaBufferAlignment()` (kBufferAlignment = 16). */
export const ARENA_ALIGNMENT = 16;

/** Rounds `n` up to a multiple of `alignment` (a power of two). */
export function alignUp(n: number, alignment: number = ARENA_ALIGNMENT): number {
  return Math.ceil(n / alignment) * alignment;
}
