import { TensorType, elementSize, makeTypedView, type MicroInterpreter, type Tensor } from '@micrort/core';

/** Byte written into every guard region. As int8 it is 92, as float32 about 2.5e17: reads of it show. */
export const GUARD_BYTE = 0x5c;
/** Smallest guard region, in bytes; a tensor's guard is at least as long as the tensor itself. */
const MIN_GUARD_BYTES = 64;

/** One tensor rebound with guard bytes after its elements. */
export interface GuardedTensor {
  tensor: Tensor;
  /** Its subgraph. */
  subgraph: number;
  /** The tensor's own byte length (the guard starts here). */
  logicalBytes: number;
  /** Elements and guard together. */
  all: Uint8Array;
}

/**
 * Rebinds every tensor of every subgraph of an allocated interpreter (`tensorCounts[s]` tensors of
 * subgraph s: constants, variables, planned tensors) to a private
 * buffer that holds its current bytes followed by a guard region filled with {@link GUARD_BYTE}, with
 * `data`/`bytes` (and `words`) views that cover the guard too. In the normal runtime a typed-array read past a view's
 * end silently yields `undefined` (→ 0 or NaN in kernel math) and a write past it is dropped; with the
 * guard, such a read sees the guard value (the outputs change) and such a write lands in the guard (the
 * guard changes). The guarded views report the tensor's own size as their `length` and `byteLength`
 * (own properties shadowing the typed-array getters), and their whole-view methods (`fill`, `set`,
 * `subarray`, `slice`, `copyWithin`) work on that size too, as on an exact view — so kernels that size
 * loops by `.length` or copy and fill whole tensors behave as usual, while indexed accesses past the
 * end reach the guard. `bytes` is an exact byte view of the same memory (whole-tensor copies move exactly
 * the tensor). EvalTensor objects stay the same objects, so kernels that read `.data` in
 * invoke see the guarded views. Not covered: views a kernel cached in prepare (constants), scratch and
 * persistent buffers, reads before index 0 (typed arrays yield undefined for negative indices either
 * way), and a guarded view passed whole to another array's native `set` (the engine copies the view's
 * real extent, guard included: see {@link isGuardArtifact}).
 */
export function guardTensors(interp: MicroInterpreter, tensorCounts: readonly number[]): GuardedTensor[] {
  const guarded: GuardedTensor[] = [];
  for (let s = 0; s < tensorCounts.length; s++) {
    for (let i = 0; i < tensorCounts[s]!; i++) guardOne(interp.tensor(i, s), s, guarded);
  }
  return guarded;
}

function guardOne(t: Tensor, subgraph: number, guarded: GuardedTensor[]): void {
  {
    const size = elementSize(t.type);
    // RESOURCE tensors hold a variable id that VAR_HANDLE keeps in its op data (the tensor is bound to
    // it in prepare and rewritten there at invoke): a private copy would go stale.
    if (size === undefined || t.bytes.byteLength === 0 || t.type === TensorType.RESOURCE) return;
    const logicalBytes = t.byteLength;
    const guardBytes = Math.ceil(Math.max(MIN_GUARD_BYTES, logicalBytes) / 16) * 16;
    const buffer = new ArrayBuffer(logicalBytes + guardBytes);
    const all = new Uint8Array(buffer);
    all.set(t.bytes.subarray(0, logicalBytes));
    all.fill(GUARD_BYTE, logicalBytes);
    const elements = (logicalBytes + guardBytes) / size;
    // makeTypedView counts COMPLEX types in pairs.
    const viewLength = t.type === TensorType.COMPLEX64 || t.type === TensorType.COMPLEX128 ? elements / 2 : elements;
    const data = makeTypedView(t.type, buffer, 0, viewLength);
    exactSize(data, (viewLength * logicalBytes) / (logicalBytes + guardBytes), logicalBytes);
    // `bytes` is an exact view of the same memory: whole-tensor byte copies (subgraph and variable
    // copies, setInput) move exactly the tensor; indexed access goes through `data`, which has the guard.
    const bytes = new Uint8Array(buffer, 0, logicalBytes);
    t.data = data;
    t.bytes = bytes;
    // `words` (int32 words of the 4- and 8-byte types: int64 kernels work on word pairs) is guarded as `data` is.
    if (t.words.length > 0) {
      const words = new Int32Array(buffer, 0, (logicalBytes + guardBytes) / 4);
      exactSize(words, logicalBytes / 4, logicalBytes);
      t.words = words;
    }
    guarded.push({ tensor: t, subgraph, logicalBytes, all });
  }
}

type AnyTypedArray =
  | Uint8Array
  | Int8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

const TYPED_ARRAY_PROTO = Object.getPrototypeOf(Uint8Array.prototype) as object;
const realLengthGetter = Object.getOwnPropertyDescriptor(TYPED_ARRAY_PROTO, 'length')!.get!;
/** A typed array's real element count (a guarded view's own `length` hides its guard). */
function realLength(a: ArrayBufferView): number {
  return realLengthGetter.call(a) as number;
}

/**
 * Makes a guarded view look `length` elements / `byteLength` bytes long to kernels: the getters and the
 * whole-view methods are own properties working on that prefix (indexing past it still reaches the
 * guard). The view's real extent stays reachable through the prototype methods the overrides call.
 */
function exactSize(view: ArrayBufferView, length: number, byteLength: number): void {
  const v = view as unknown as AnyTypedArray;
  const proto = TYPED_ARRAY_PROTO as {
    fill: (this: AnyTypedArray, value: unknown, start?: number, end?: number) => AnyTypedArray;
    set: (this: AnyTypedArray, source: ArrayLike<unknown>, offset?: number) => void;
    subarray: (this: AnyTypedArray, begin?: number, end?: number) => AnyTypedArray;
    slice: (this: AnyTypedArray, begin?: number, end?: number) => AnyTypedArray;
    copyWithin: (this: AnyTypedArray, target: number, start: number, end?: number) => AnyTypedArray;
  };
  const clampEnd = (end: number | undefined) => (end === undefined ? length : end < 0 ? Math.max(0, length + end) : Math.min(end, length));
  const clampStart = (start: number | undefined) =>
    start === undefined ? 0 : start < 0 ? Math.max(0, length + start) : Math.min(start, length);
  Object.defineProperties(v, {
    length: { value: length },
    byteLength: { value: byteLength },
    fill: { value: (value: unknown, start?: number, end?: number) => proto.fill.call(v, value, clampStart(start), clampEnd(end)) },
    subarray: { value: (begin?: number, end?: number) => proto.subarray.call(v, clampStart(begin), clampEnd(end)) },
    slice: { value: (begin?: number, end?: number) => proto.slice.call(v, clampStart(begin), clampEnd(end)) },
    copyWithin: {
      value: (target: number, start: number, end?: number) =>
        proto.copyWithin.call(v, clampStart(target), clampStart(start), clampEnd(end)),
    },
    set: {
      value: (source: ArrayLike<unknown>, offset = 0) => {
        const n = source.length; // a guarded source reports its own size
        if (offset < 0 || offset + n > length) throw new RangeError('offset is out of bounds');
        const view = ArrayBuffer.isView(source) && n < realLength(source) ? proto.subarray.call(source as AnyTypedArray, 0, n) : source;
        proto.set.call(v, view, offset);
      },
    },
  });
}

/**
 * Whether an error thrown only in the guarded run is the guard's doing rather than a kernel bug: a
 * native RangeError from copying a guarded view whole into an unguarded array (the engine copies the
 * view's real extent, guard included, which the plain run never sees).
 */
export function isGuardArtifact(e: unknown): boolean {
  const err = (e as { cause?: unknown })?.cause ?? e;
  return err instanceof RangeError && /offset is out of bounds|Source is too large/.test(err.message);
}

/** The first guard byte that changed, as `tensor <i> (<name>) byte <k> past the end`, or null. */
export function findGuardWrite(guarded: readonly GuardedTensor[]): string | null {
  for (const g of guarded) {
    for (let k = g.logicalBytes; k < g.all.length; k++) {
      if (g.all[k] !== GUARD_BYTE) {
        return `${g.subgraph ? `subgraph ${g.subgraph} ` : ''}tensor ${g.tensor.index} (${g.tensor.name}, ${TensorType[g.tensor.type]}[${Array.from(g.tensor.dims).join(',')}]) written ${k - g.logicalBytes} bytes past its end`;
      }
    }
  }
  return null;
}
