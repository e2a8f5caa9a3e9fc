/**
 * The int64 paths of the binary arithmetic kernels TFLite runs on int64 (ADD, SUB, MUL, MAXIMUM,
 * MINIMUM, FLOOR_MOD): elementwise over a broadcast plan, each element two int32 words of the tensors'
 * `words` views, with kernel-support's exact word-pair arithmetic (wrap-around modulo 2^64, as C++'s
 * int64 in TFLite's reference_ops). The fused activation clamps to TFLite's int64 activation range.
 */
import { ActivationFunctionType, KernelError, type Node } from '@micrort/core';
import {
  type BroadcastPlan,
  add64,
  compare64,
  copy64,
  mul64,
  setInt64FromNumber,
  sub64,
  truncMod64,
  isZero64,
} from '@micrort/kernel-support';

/** The elementwise int64 operations. */
export enum Int64Op {
  Add,
  Sub,
  Mul,
  Max,
  Min,
  FloorMod,
}

/** TFLite's CalculateActivationRange<int64_t>: [min, max] as four words (lo, hi, lo, hi); null for none. */
export function int64ActivationRange(op: string, node: Node, activation: ActivationFunctionType): Int32Array | null {
  const range = new Int32Array(4);
  switch (activation) {
    case ActivationFunctionType.NONE:
      return null;
    case ActivationFunctionType.RELU:
      setInt64FromNumber(range, 0, 0);
      range[2] = -1;
      range[3] = 0x7fffffff;
      return range;
    case ActivationFunctionType.RELU6:
      setInt64FromNumber(range, 0, 0);
      setInt64FromNumber(range, 2, 6);
      return range;
    case ActivationFunctionType.RELU_N1_TO_1:
      setInt64FromNumber(range, 0, -1);
      setInt64FromNumber(range, 2, 1);
      return range;
    default:
      throw new KernelError(
        op,
        node.index,
        `fused activation ${ActivationFunctionType[activation] ?? activation} is not supported for int64`,
      );
  }
}

/** FLOOR_MOD's divisor was 0 (TFLite fails its eval the same way). */
function divisionByZero(op: string, node: Node): never {
  throw new KernelError(op, node.index, 'division by zero');
}

/**
 * out = a ∘ b elementwise over `plan` (int64 word arrays), clamped to `range` when given. `op`/`node`
 * name the kernel in errors (FLOOR_MOD by zero).
 */
export function binaryInt64(
  kernel: string,
  node: Node,
  fn: Int64Op,
  plan: BroadcastPlan,
  a: Int32Array,
  b: Int32Array,
  out: Int32Array,
  range: Int32Array | null,
): void {
  const n = plan.inner;
  const s1 = plan.innerStride1 * 2;
  const s2 = plan.innerStride2 * 2;
  plan.reset();
  for (let r = 0; r < plan.rows; r++) {
    let i1 = plan.off1 * 2;
    let i2 = plan.off2 * 2;
    for (let k = 0, o = plan.offOut * 2; k < n; k++, o += 2, i1 += s1, i2 += s2) {
      switch (fn) {
        case Int64Op.Add:
          add64(out, o, a, i1, b, i2);
          break;
        case Int64Op.Sub:
          sub64(out, o, a, i1, b, i2);
          break;
        case Int64Op.Mul:
          mul64(out, o, a, i1, b, i2);
          break;
        case Int64Op.Max:
          if (compare64(a, i1, b, i2) > 0) copy64(out, o, a, i1);
          else copy64(out, o, b, i2);
          break;
        case Int64Op.Min:
          if (compare64(a, i1, b, i2) < 0) copy64(out, o, a, i1);
          else copy64(out, o, b, i2);
          break;
        case Int64Op.FloorMod: {
          if (isZero64(b, i2)) divisionByZero(kernel, node);
          // Reads of a and b finish before out is written, so out may alias either input.
          const bNeg = (b[i2 + 1]! | 0) < 0;
          const b0 = b[i2]!;
          const b1 = b[i2 + 1]!;
          truncMod64(out, o, a, i1, b, i2);
          if (!isZero64(out, o) && (out[o + 1]! | 0) < 0 !== bNeg) {
            FLOOR_TMP[0] = b0;
            FLOOR_TMP[1] = b1;
            add64(out, o, out, o, FLOOR_TMP, 0);
          }
          break;
        }
      }
      if (range) {
        if (compare64(out, o, range, 0) < 0) copy64(out, o, range, 0);
        else if (compare64(out, o, range, 2) > 0) copy64(out, o, range, 2);
      }
    }
    plan.next();
  }
}

const FLOOR_TMP = new Int32Array(2);
