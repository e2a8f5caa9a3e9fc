/**
 * `Registration.inPlace` answers for the reference kernels whose invoke loop stays correct when output 0
 * aliases an input byte for byte (interpreter option `inPlace: true`). Each answer is conservative: the
 * input must have the output's element width, so element `i` of both occupies the same bytes, and the
 * loop must read input element `i` no later than it writes output element `i` and never read an input
 * element below `i` again after writing it. The allocator then checks lifetimes and sizes.
 */
import { elementSize, numElements, type Node, type Tensor, type TfLiteContext } from '@micrort/core';

function sameWidth(a: Tensor, b: Tensor): boolean {
  const w = elementSize(a.type);
  return w !== undefined && w === elementSize(b.type);
}

/** True when `a` and `b` have the same dimensions once right-aligned (leading 1s ignored). */
export function sameShapeUpToLeadingOnes(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  const rank = Math.max(a.length, b.length);
  for (let k = 1; k <= rank; k++) {
    const x = k <= a.length ? a[a.length - k]! : 1;
    const y = k <= b.length ? b[b.length - k]! : 1;
    if (x !== y) return false;
  }
  return true;
}

/**
 * For kernels with one flat loop `out[i] = f(in[i])` over input 0 (activations, QUANTIZE, CAST, RESHAPE's
 * copy) or row-wise passes that read row element `c` before writing it (SOFTMAX): input 0 when it has
 * the output's element width and element count, else null.
 */
export function flatInPlace(context: TfLiteContext, node: Node): number | null {
  const i = node.inputs[0] ?? -1;
  const o = node.outputs[0] ?? -1;
  if (i < 0 || o < 0) return null;
  const input = context.getTensor(i);
  const output = context.getTensor(o);
  return sameWidth(input, output) && numElements(input.dims) === numElements(output.dims) ? 0 : null;
}

/**
 * For binary elementwise kernels walking a `BroadcastPlan` (ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM): the
 * inputs that have the output's element width and its full shape. Such an input is never broadcast, so
 * its element index equals the output's at every step of the loop; the other input may be broadcast (it
 * is a different, live buffer, or the same tensor). None when an input has a data-dependent shape: its
 * actual dims may broadcast where its bound does not.
 */
export function broadcastInPlace(context: TfLiteContext, node: Node): number[] | null {
  const o = node.outputs[0] ?? -1;
  if (o < 0) return null;
  const output = context.getTensor(o);
  // a data-dependent input may be broadcast at invoke (its actual dims have 1s its bound has not)
  for (let p = 0; p < node.inputs.length && p < 2; p++)
    if (node.inputs[p]! >= 0 && context.getTensor(node.inputs[p]!).upperBound) return null;
  const positions: number[] = [];
  for (let p = 0; p < node.inputs.length && p < 2; p++) {
    const t = node.inputs[p]!;
    if (t < 0) continue;
    const input = context.getTensor(t);
    if (sameWidth(input, output) && sameShapeUpToLeadingOnes(input.dims, output.dims)) positions.push(p);
  }
  return positions.length > 0 ? positions : null;
}
