// Windowed int8 kernels (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED as 1x1, the LSTM's gates): the
// parameter block they share (written at prepare by src/kernels/*.ts through the `W` word indices of
// kernel-common.ts) and the tap-pointer lookup.
// Parameter block (byte offsets of int32 words). DEPTHWISE_CONV_2D: P_OUT_C = channels, P_KB8 = 8-channel groups.
export const P_TOTAL = 0; // batches * outH * outW
export const P_OUT_HW = 4;
export const P_OUT_W = 8;
export const P_IN_H = 12;
export const P_IN_W = 16;
export const P_IN_C = 20;
export const P_IN_IMAGE = 24; // inH * inW * inC
export const P_OUT_C = 28;
export const P_K_H = 32;
export const P_K_W = 36;
export const P_STRIDE_H = 40;
export const P_STRIDE_W = 44;
export const P_DIL_H = 48;
export const P_DIL_W = 52;
export const P_PAD_H = 56;
export const P_PAD_W = 60;
export const P_KB8 = 64; // CONV_2D: 8-value slices per tap (of the compact row when gathered); DEPTHWISE_CONV_2D: 8-channel groups
export const P_PACKED = 68;
export const P_ZERO = 72;
export const P_PTRS = 76; // room for the tap pointers (CONV_2D: of four pixels; DEPTHWISE_CONV_2D: two tables of taps rounded up to even)
export const P_ACT_MIN = 80;
export const P_ACT_MAX = 84;
export const P_ZP_OUT = 88;
export const P_GATHER = 92; // CONV_2D: 1 when the taps' rows are gathered into compact im2col rows first
export const P_ROWS = 96; // CONV_2D gather: four rows of ceil(K / 8) * 8 + 16 bytes
export const P_DIRECT = 100; // 1 when pixel q's only tap is input + q * inC (1x1, stride 1, no padding)
export const P_RIGHT_ONLY = 104; // CONV_2D, DEPTHWISE_CONV_2D: 1 when every channel has left shift 0 and right shift >= 1
export const P_OUT16 = 108; // one-pixel GEMM (LSTM gates): int16 outputs clamped to [act_min, act_max]
export const P_DM_TABLE = 116; // DEPTHWISE_CONV_2D with depth multiplier > 1: per group, an i16 swizzle mask and the first input channel (32 bytes)
export const P_EXT = 112; // CONV_2D tile: scratch for four sign-extended rows, each slice stored twice (written by the TypeScript side at invoke)

/** Writes the tap pointers of output pixel `q` to `dst`. */
@inline export function tapPointers(pp: usize, input: usize, q: i32, dst: usize): void {
  if (load<i32>(pp, P_DIRECT) != 0) {
    store<u32>(dst, <u32>(input + <usize>(q * load<i32>(pp, P_IN_C))));
    return;
  }
  const outHW = load<i32>(pp, P_OUT_HW);
  const outW = load<i32>(pp, P_OUT_W);
  const b = q / outHW;
  const r = q - b * outHW;
  const oh = r / outW;
  tapPointersAt(pp, input + <usize>(b * load<i32>(pp, P_IN_IMAGE)), oh, r - oh * outW, dst);
}

/** Writes the tap pointers of output pixel (oh, ow) of the image at `image` to `dst`. */
@inline export function tapPointersAt(pp: usize, image: usize, oh: i32, ow: i32, dst: usize): void {
  const inH = load<i32>(pp, P_IN_H);
  const inW = load<i32>(pp, P_IN_W);
  const inC = load<i32>(pp, P_IN_C);
  const kH = load<i32>(pp, P_K_H);
  const kW = load<i32>(pp, P_K_W);
  const dH = load<i32>(pp, P_DIL_H);
  const dW = load<i32>(pp, P_DIL_W);
  const zero = load<u32>(pp, P_ZERO);
  const ih0 = oh * load<i32>(pp, P_STRIDE_H) - load<i32>(pp, P_PAD_H);
  const iw0 = ow * load<i32>(pp, P_STRIDE_W) - load<i32>(pp, P_PAD_W);
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
