/**
 * Word access for the fast mode. CMSIS-NN reads four int8 (or two int16) at once with arm_nn_read_s8x4 /
 * arm_nn_read_q15x2, 32-bit loads that may be unaligned. JS typed arrays only read whole elements at
 * aligned offsets, so the fast kernels read words through DataViews made in prepare: one over the arena's
 * ArrayBuffer (activations, scratch) and one over the buffer holding the constant weights. In invoke a
 * kernel checks that the tensor lives in the viewed buffer (`viewBase`) and otherwise runs its byte loop;
 * nothing is allocated.
 */

/** A DataView over all of `buffer` (made once, in prepare). */
export function bufferView(buffer: ArrayBufferLike): DataView {
  return new DataView(buffer as ArrayBuffer);
}

/** Byte offset of `data[0]` in `view`, or -1 when `view` is null or does not cover `data`'s buffer. */
export function viewBase(view: DataView | null, data: ArrayBufferView): number {
  return view !== null && view.buffer === data.buffer ? data.byteOffset - view.byteOffset : -1;
}

/**
 * The word operands of a fast kernel call: views covering the activations and the weights and the byte
 * offsets of element 0 of each in them (-1: use the byte loops). Views are set in prepare, bases in invoke.
 */
export interface WordOperands {
  inView: DataView | null;
  inBase: number;
  wView: DataView | null;
  wBase: number;
}

/** Operands with no views (byte loops until prepare sets them). */
export function noWordOperands(): WordOperands {
  return { inView: null, inBase: -1, wView: null, wBase: -1 };
}
