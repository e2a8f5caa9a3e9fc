/**
 * C data layout of the two targets TFLM's arena figures are predicted for, and a small struct-layout
 * calculator (sizeof/alignof with the usual C rules: each member at the next multiple of its alignment,
 * the struct padded to a multiple of its largest member alignment).
 *
 * - **LP64** (x86-64 System V, the reference figures): 8-byte pointers, `size_t`, `long`; 4-byte `int` and
 *   enums; `int64_t`/`double` aligned to 8.
 * - **ILP32, ARM EABI** (Cortex-M, arm-none-eabi-gcc): 4-byte pointers, `size_t`, `int`, `long`; `int64_t`
 *   and `double` aligned to 8 (AAPCS: 64-bit members are 8-byte aligned, unlike i386). Enums: GCC for
 *   arm-none-eabi defaults to `-fshort-enums` (AAPCS-based, non-Linux ABIs use the smallest integer type
 *   that holds every enumerator), and TFLM's cortex_m_generic makefile does not override it, so every TFLM
 *   enum (all values in 0..255) is one byte. `ilp32({ enumBytes: 4 })` models a build with
 *   `-fno-short-enums` (or a toolchain whose default is int-sized enums).
 *
 * An enum declared with a fixed underlying type (`enum X : int`) is that type whatever the enum flags:
 * TFLM's `TfLiteQuantizationType` is one in C++ (tensorflow/lite/micro/c/common.h at the reference
 * commit), so it stays 4 bytes under short enums (scalar `int-enum`).
 */

/** A target's C data model. */
export interface Abi {
  /** Short name: `lp64`, `ilp32` or `ilp32-int-enums`. */
  readonly name: string;
  /** Word size in bits (pointer width). */
  readonly word: 64 | 32;
  /** sizeof(void*) = sizeof(size_t) = sizeof(intptr_t) = sizeof(long). */
  readonly pointerBytes: 4 | 8;
  /** sizeof of a TFLM enum (TfLiteType, TfLiteFusedActivation, ...): 4, or 1 with short enums. */
  readonly enumBytes: 1 | 4;
  /** alignof(int64_t) = alignof(double). */
  readonly int64Align: 4 | 8;
  /** One line saying what this ABI assumes. */
  readonly description: string;
}

/** x86-64 Linux (System V LP64): the ABI of the reference figures in ../shared/conformance*. */
export const LP64: Abi = {
  name: 'lp64',
  word: 64,
  pointerBytes: 8,
  enumBytes: 4,
  int64Align: 8,
  description: 'LP64 (x86-64 System V): 8-byte pointers and size_t, 4-byte int and enums, int64/double aligned to 8',
};

/** 32-bit ARM EABI (Cortex-M). See the module comment for the enum-size assumption. */
export function ilp32(options: { enumBytes?: 1 | 4 } = {}): Abi {
  const enumBytes = options.enumBytes ?? 1;
  return {
    name: enumBytes === 1 ? 'ilp32' : 'ilp32-int-enums',
    word: 32,
    pointerBytes: 4,
    enumBytes,
    int64Align: 8,
    description:
      `ILP32 (ARM EABI, Cortex-M): 4-byte pointers, size_t and int, int64/double aligned to 8, ` +
      (enumBytes === 1 ? '1-byte enums (arm-none-eabi-gcc default -fshort-enums)' : '4-byte enums (-fno-short-enums)'),
  };
}

/** The default 32-bit target: ARM EABI with arm-none-eabi-gcc's short enums. */
export const ILP32: Abi = ilp32();

/** The ABI for a word size (`--word 64|32`). */
export function abiForWord(word: 64 | 32, options: { enumBytes?: 1 | 4 } = {}): Abi {
  return word === 64 ? LP64 : ilp32(options);
}

/**
 * Scalar C types used by TFLM's structs. `enum` is a plain C enum (its size follows the ABI's enum
 * rule); `int-enum` is a C++ enum with the fixed underlying type `int` (4 bytes on every target).
 */
export type Scalar =
  | 'bool'
  | 'char'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int'
  | 'float'
  | 'int64'
  | 'double'
  | 'ptr'
  | 'size_t'
  | 'intptr'
  | 'enum'
  | 'int-enum';

/** A member type: a scalar, a fixed array, or a nested struct. */
export type CType = Scalar | { array: CType; length: number } | StructDef;

/** A C struct (or class) as TFLM declares it. */
export interface StructDef {
  readonly name: string;
  /** Members in declaration order. */
  readonly fields: readonly (readonly [string, CType])[];
  /** Where TFLM declares it (file and line at the reference commit's layout). */
  readonly source: string;
  /** Number of vtable pointers in front of the members (polymorphic classes; 2 with two polymorphic bases). */
  readonly vptrs?: number;
}

/** Declares a struct. */
export function struct(name: string, source: string, fields: readonly (readonly [string, CType])[], vptrs = 0): StructDef {
  return { name, source, fields, vptrs };
}

function isStruct(t: CType): t is StructDef {
  return typeof t === 'object' && 'fields' in t;
}

function scalarSize(t: Scalar, abi: Abi): number {
  switch (t) {
    case 'bool':
    case 'char':
    case 'int8':
    case 'uint8':
      return 1;
    case 'int16':
    case 'uint16':
      return 2;
    case 'int32':
    case 'uint32':
    case 'int':
    case 'float':
      return 4;
    case 'int64':
    case 'double':
      return 8;
    case 'ptr':
    case 'size_t':
    case 'intptr':
      return abi.pointerBytes;
    case 'enum':
      return abi.enumBytes;
    case 'int-enum':
      return 4;
  }
}

function scalarAlign(t: Scalar, abi: Abi): number {
  return t === 'int64' || t === 'double' ? abi.int64Align : scalarSize(t, abi);
}

/** Layout of a type: its size and alignment. */
export interface Layout {
  size: number;
  align: number;
}

const cache = new WeakMap<StructDef, Map<string, Layout & { offsets: number[] }>>();

/** sizeof and alignof of `t` under `abi`. */
export function layoutOf(t: CType, abi: Abi): Layout {
  if (typeof t === 'string') return { size: scalarSize(t, abi), align: scalarAlign(t, abi) };
  if (!isStruct(t)) {
    const e = layoutOf(t.array, abi);
    return { size: e.size * t.length, align: e.align };
  }
  return structLayout(t, abi);
}

/** Layout of a struct with each member's offset. */
export function structLayout(s: StructDef, abi: Abi): Layout & { offsets: number[] } {
  let perAbi = cache.get(s);
  if (!perAbi) cache.set(s, (perAbi = new Map()));
  const hit = perAbi.get(abi.name);
  if (hit) return hit;
  let offset = (s.vptrs ?? 0) * abi.pointerBytes;
  let align = s.vptrs ? abi.pointerBytes : 1;
  const offsets: number[] = [];
  for (const [, type] of s.fields) {
    const l = layoutOf(type, abi);
    offset = alignTo(offset, l.align);
    offsets.push(offset);
    offset += l.size;
    align = Math.max(align, l.align);
  }
  // An empty struct is 1 byte in C++ (TFLM compiles as C++).
  const size = Math.max(1, alignTo(offset, align));
  const result = { size, align, offsets };
  perAbi.set(abi.name, result);
  return result;
}

/** sizeof(t). */
export function sizeOf(t: CType, abi: Abi): number {
  return layoutOf(t, abi).size;
}

/** alignof(t). */
export function alignOf(t: CType, abi: Abi): number {
  return layoutOf(t, abi).align;
}

/** `n` rounded up to a multiple of `a`. */
export function alignTo(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}
