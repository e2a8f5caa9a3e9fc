// Windowed int8 kernels (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED as 1x1, the LSTM's gates): the
// parameter block they share (written at prepare by src/kernels/*.ts through the `W` word indices of
// kernel-common.ts) and the tap-pointer lookup.
// Parameter block W (scripts/abi.mjs). DEPTHWISE_CONV_2D: W_OUT_C = channels, W_KB8 = 8-channel groups.
import { W_DIL_H, W_DIL_W, W_EXPAND_RQ, W_IN_C, W_IN_H, W_IN_W, W_KH, W_KW, W_PAD_H, W_PAD_W, W_RQ, W_SCRATCH, W_SCR_THREAD, W_SCR_THREAD_BYTES, W_SCR_ZERO, W_STRIDE_H, W_STRIDE_W, W_ZERO, W_ZERO_BYTES, W_ZP_IN } from '../generated/abi';
import { expandRequant } from './requant';

// The node's scratch buffer (planned memory, W_SCRATCH, set at each invoke):
//   [requantization blocks, when W_EXPAND_RQ][zero row][per thread: tap pointers | gathered rows | sign-extended rows]
// Only the threads' areas differ between threads; windowBegin fills the rest once per invoke.

/**
 * Prologue of a windowed kernel, once per invoke before any pixel: points W_ZERO at the zero row in the
 * scratch buffer and fills it with the input zero point, and (W_EXPAND_RQ) points W_RQ at the start of
 * the scratch buffer and expands the per-channel multipliers and shifts into requantization blocks there.
 */
export function windowBegin(pp: usize): void {
  const base = <usize>load<u32>(pp, W_SCRATCH);
  const zero = base + <usize>load<i32>(pp, W_SCR_ZERO);
  store<u32>(pp, <u32>zero, W_ZERO);
  memory.fill(zero, <u8>load<i32>(pp, W_ZP_IN), <usize>load<i32>(pp, W_ZERO_BYTES));
  if (load<i32>(pp, W_EXPAND_RQ) != 0) {
    store<u32>(pp, <u32>base, W_RQ);
    expandRequant(pp, base);
  }
}

/** The scratch area of thread `tid` (tap pointers first). */
@inline export function threadArea(pp: usize, tid: i32): usize {
  return <usize>load<u32>(pp, W_SCRATCH) + <usize>load<i32>(pp, W_SCR_THREAD) + <usize>(tid * load<i32>(pp, W_SCR_THREAD_BYTES));
}

/** Writes the tap pointers of output pixel (oh, ow) of the image at `image` to `dst`. */
@inline export function tapPointersAt(pp: usize, image: usize, oh: i32, ow: i32, dst: usize): void {
  const inH = load<i32>(pp, W_IN_H);
  const inW = load<i32>(pp, W_IN_W);
  const inC = load<i32>(pp, W_IN_C);
  const kH = load<i32>(pp, W_KH);
  const kW = load<i32>(pp, W_KW);
  const dH = load<i32>(pp, W_DIL_H);
  const dW = load<i32>(pp, W_DIL_W);
  const zero = load<u32>(pp, W_ZERO);
  const ih0 = oh * load<i32>(pp, W_STRIDE_H) - load<i32>(pp, W_PAD_H);
  const iw0 = ow * load<i32>(pp, W_STRIDE_W) - load<i32>(pp, W_PAD_W);
  for (let kh = 0; kh < kH; kh++) {
    const ih = ih0 + kh * dH;
    const rowOk = ih >= 0 && ih < inH;
    for (let kw = 0; kw < kW; kw++) {
      const iw = iw0 + kw * dW;
      const p: usize = rowOk && iw >= 0 && iw < inW ? image + <usize>((ih * inW + iw) * inC) : zero;
      store<u32>(dst, <u32>p);
      dst += 4;
    }
  }
}
