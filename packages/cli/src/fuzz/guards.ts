import { TensorType, elementSize, makeTypedView, type MicroInterpreter, type Tensor } from '@micrort/core';

/** Byte written into every guard region. As int8 it is 92, as float32 about 2.5e17: reads of it show. */
export const GUARD_BYTE = 0x5c;
/** Smallest guard region, in bytes; a tensor's guard is at least as long as the tensor itself. */
const MIN_GUARD_BYTES = 64;

/** One tensor rebound with guard bytes after its elements. */
export interface GuardedTensor {
  tensor: Tensor;
  /** The tensor's own byte length (the guard starts here). */
  logicalBytes: number;
  /** Elements and guard together. */
  all: Uint8Array;
}

/**
 * Rebinds every tensor of an allocated interpreter (constants, variables, planned tensors) to a private
 * buffer that holds its current bytes followed by a guard region filled with {@link GUARD_BYTE}, with
 * `data`/`bytes` views that cover the guard too. In the normal runtime a typed-array read past a view's
 * end silently yields `undefined` (→ 0 or NaN in kernel math) and a write past it is dropped; with the
 * guard, such a read sees the guard value (the outputs change) and such a write lands in the guard (the
 * guard changes). The guarded views report the tensor's own element count as their `length` (an own
 * property shadowing the typed-array getter), so kernels that size loops by `.length` behave as usual,
 * while indexed accesses past it reach the guard. EvalTensor objects stay the same objects, so kernels
 * that read `.data` in invoke see the guarded views. Not covered: views a kernel cached in prepare (constants), scratch and persistent
 * buffers, and reads before index 0 (typed arrays yield undefined for negative indices either way).
 */
export function guardTensors(interp: MicroInterpreter, tensorCount: number): GuardedTensor[] {
  const guarded: GuardedTensor[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const t = interp.tensor(i);
    const size = elementSize(t.type);
    if (size === undefined || t.bytes.byteLength === 0) continue;
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
    Object.defineProperty(data, 'length', { value: (viewLength * logicalBytes) / (logicalBytes + guardBytes) });
    const bytes = new Uint8Array(buffer);
    Object.defineProperty(bytes, 'length', { value: logicalBytes });
    t.data = data;
    t.bytes = bytes;
    guarded.push({ tensor: t, logicalBytes, all });
  }
  return guarded;
}

/** The first guard byte that changed, as `tensor <i> (<name>) byte <k> past the end`, or null. */
export function findGuardWrite(guarded: readonly GuardedTensor[]): string | null {
  for (const g of guarded) {
    for (let k = g.logicalBytes; k < g.all.length; k++) {
      if (g.all[k] !== GUARD_BYTE) {
        return `tensor ${g.tensor.index} (${g.tensor.name}, ${TensorType[g.tensor.type]}[${Array.from(g.tensor.dims).join(',')}]) written ${k - g.logicalBytes} bytes past its end`;
      }
    }
  }
  return null;
}
