/**
 * What kernels of STRING tensors share (core's kernel/strings.ts holds TFLite's serialized format: int32
 * count, count + 1 int32 offsets, the bytes): reading one string, comparing strings, the size bounds a
 * kernel sets on its string output in prepare, and {@link StringWriter}, which writes serialized
 * strings into the planned bytes in invoke without allocating.
 *
 * Why bounds: TFLite grows a string output on the heap in Eval (DynamicBuffer::WriteToTensor); micrort
 * allocates nothing in invoke, so a kernel states in prepare how many bytes its string output can need
 * (`setStringOutputCapacity`) and the planner places that many. The bound comes from the inputs: a
 * constant's exact contents, or another string tensor's capacity.
 */
import {
  KernelError,
  StringCapacityError,
  MicrortError,
  TensorType,
  stringCount,
  stringHeaderBytes,
  stringStart,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';

/** Byte length of string `i` of a serialized buffer. */
export function stringLength(bytes: Uint8Array, i: number): number {
  return stringStart(bytes, i + 1) - stringStart(bytes, i);
}

/** Whether string `i` of `a` and string `j` of `b` hold the same bytes (TFLite compares strings bytewise). */
export function stringsEqual(a: Uint8Array, i: number, b: Uint8Array, j: number): boolean {
  const as = stringStart(a, i);
  const n = stringStart(a, i + 1) - as;
  const bs = stringStart(b, j);
  if (stringStart(b, j + 1) - bs !== n) return false;
  for (let k = 0; k < n; k++) if (a[as + k] !== b[bs + k]) return false;
  return true;
}

/** Whether string `i` of `bytes` equals the bytes `value` (for keys read in prepare). */
export function stringEqualsBytes(bytes: Uint8Array, i: number, value: Uint8Array): boolean {
  const s = stringStart(bytes, i);
  if (stringStart(bytes, i + 1) - s !== value.byteLength) return false;
  for (let k = 0; k < value.byteLength; k++) if (bytes[s + k] !== value[k]) return false;
  return true;
}

/**
 * The longest any one string of a STRING tensor can be, known in prepare: for a constant, its longest
 * string; otherwise its capacity less the header (one string could take all of it).
 */
export function maxStringBytes(t: Tensor): number {
  if (t.isConstant) {
    const n = stringCount(t.bytes);
    let max = 0;
    for (let i = 0; i < n; i++) max = Math.max(max, stringLength(t.bytes, i));
    return max;
  }
  return Math.max(0, t.stringCapacity - stringHeaderBytes(t.elementCount));
}

/** Bytes of all the strings of a STRING tensor at most (its payload), known in prepare. */
export function stringPayloadBound(t: Tensor): number {
  if (t.isConstant) return stringStart(t.bytes, stringCount(t.bytes)) - stringStart(t.bytes, 0);
  return Math.max(0, t.stringCapacity - stringHeaderBytes(t.elementCount));
}

/**
 * The capacity of `count` strings each taken from `source` (STRING tensor): `count` × its longest
 * string, and when `distinct` (each source string used at most once: slices, reshapes) no more than the
 * source's payload; plus the header.
 */
export function selectedStringsBound(source: Tensor, count: number, distinct: boolean): number {
  const each = maxStringBytes(source) * count;
  return stringHeaderBytes(count) + (distinct ? Math.min(each, stringPayloadBound(source)) : each);
}

/**
 * Sets the byte capacity of string output `position` of `node` (in prepare): the most its serialized
 * strings can take, what the planner places. A KernelError when the output is not a STRING tensor or
 * already has data.
 */
export function setStringOutputCapacity(op: string, context: TfLiteContext, node: Node, position: number, bytes: number): Tensor {
  const t = context.getTensor(node.outputs[position]!);
  if (t.type !== TensorType.STRING) throw new KernelError(op, node.index, `output ${position} (tensor ${t.index}) is not a string tensor`);
  if (t.isConstant) throw new KernelError(op, node.index, `output ${position} (tensor ${t.index}) is a constant`);
  t.setStringCapacity(Math.max(bytes, stringHeaderBytes(t.elementCount)));
  return t;
}

function setI32At(bytes: Uint8Array, at: number, v: number): void {
  bytes[at] = v;
  bytes[at + 1] = v >> 8;
  bytes[at + 2] = v >> 16;
  bytes[at + 3] = v >> 24;
}

/**
 * Writes serialized strings into a planned buffer without allocating: `begin(out, count)`, then for
 * each string `append` (bytes copied from a buffer), `appendString` (string i of a serialized buffer)
 * or `appendByte`s closed by `end()`, and `finish()`. One writer per kernel, made in prepare with the
 * name errors give the buffer (`what`). Going past the planned bytes throws a StringCapacityError (a
 * kernel that bounded its output never does).
 */
export class StringWriter {
  private out: Uint8Array = new Uint8Array(0);
  private count = 0;
  private index = 0;
  private at = 0;

  constructor(private readonly what = 'string tensor') {}

  /** Starts a buffer of `count` strings in `out`. */
  begin(out: Uint8Array, count: number): void {
    this.out = out;
    this.count = count;
    this.index = 0;
    const what = this.what;
    this.at = stringHeaderBytes(count);
    if (this.at > out.byteLength) throw new StringCapacityError(what, this.at, out.byteLength);
    setI32At(out, 0, count);
    setI32At(out, 4, this.at);
  }

  /** Appends bytes `[start, end)` of `src` as the next string. */
  append(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.at + n > this.out.byteLength) throw new StringCapacityError(this.what, this.at + n, this.out.byteLength);
    for (let k = 0; k < n; k++) this.out[this.at + k] = src[start + k]!;
    this.at += n;
    this.end();
  }

  /** Appends string `i` of the serialized buffer `src`. */
  appendString(src: Uint8Array, i: number): void {
    this.append(src, stringStart(src, i), stringStart(src, i + 1));
  }

  /** Appends one byte to the string being written (close it with {@link end}). */
  appendByte(b: number): void {
    if (this.at + 1 > this.out.byteLength) throw new StringCapacityError(this.what, this.at + 1, this.out.byteLength);
    this.out[this.at++] = b;
  }

  /** Closes the string being written by `appendByte`s. */
  end(): void {
    this.index++;
    setI32At(this.out, 4 + 4 * this.index, this.at);
  }

  /** Checks that every announced string was written; returns the bytes used. */
  finish(): number {
    if (this.index !== this.count) throw new MicrortError(`${this.what}: ${this.index} strings written, ${this.count} announced`);
    return this.at;
  }
}
