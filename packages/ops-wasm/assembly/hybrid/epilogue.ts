// The float32 end of the hybrid kernels (float32 activations x int8 weights, the converter's dynamic-range
// quantization): src/kernels/hybrid/ quantizes each batch of the float input to int8 at invoke
// (kernel-support's batchQuantizeFloats: TFLite's symmetric or asymmetric per-row quantization), the
// int8 GEMM / depthwise tiles (qs8_conv, qs8_dwconv with W_RAW) store the exact int32 accumulators in
// the output tensor, four bytes per output, and hybrid_epilogue turns them into float32 outputs in place,
// with TFLite's float32 operations in TFLite's order (as ops-reference's hybrid kernels):
//   acc  = acc - zero_point[b] * sum(w[c])              (int32, wrapping; asymmetric inputs only)
//   Mode 0: v = f32(acc) * factor[b]                    (the per-tensor weight scale already in factor)
//   Mode 1: v = f32(acc) * (factor[b] * scale[c])       (CONV_2D and FULLY_CONNECTED per channel)
//   Mode 2: v = (f32(acc) * factor[b]) * scale[c]       (DEPTHWISE_CONV_2D)
//   v = v + bias[c]; CONV_2D / DEPTHWISE_CONV_2D: v < lo ? lo : v > hi ? hi : v
// Each step is one float32 rounding, as the scalar C++ (and ops-reference's Math.fround steps), so the
// outputs are equal bit for bit. Padding taps read a zero row holding the batch's zero point, so they
// add zero_point * w, which the sum correction removes again: the result is TFLite's sum over the taps
// inside the image of w * (q - zero_point).
import { HY_BIAS, HY_CLAMP, HY_FACTORS, HY_HI, HY_LO, HY_MODE, HY_OUT_C, HY_PER_BATCH, HY_SCALES, HY_SUMS, HY_ZERO_POINTS } from '../generated/abi';

/** Converts the int32 accumulators of output pixels [q0, q1) at `output` to float32 outputs, in place (parameter block HY at `hp`). */
export function hybrid_epilogue(hp: usize, output: usize, q0: i32, q1: i32): void {
  const mode = load<i32>(hp, HY_MODE);
  if (mode == 0) epilogue(hp, output, q0, q1, 0);
  else if (mode == 1) epilogue(hp, output, q0, q1, 1);
  else epilogue(hp, output, q0, q1, 2);
}

/** hybrid_epilogue with `mode` constant. */
@inline function epilogue(hp: usize, output: usize, q0: i32, q1: i32, mode: i32): void {
  const outC = load<i32>(hp, HY_OUT_C);
  const perBatch = load<i32>(hp, HY_PER_BATCH);
  const sums = <usize>load<u32>(hp, HY_SUMS);
  const scales = <usize>load<u32>(hp, HY_SCALES);
  const bias = <usize>load<u32>(hp, HY_BIAS);
  const factors = <usize>load<u32>(hp, HY_FACTORS);
  const zps = <usize>load<u32>(hp, HY_ZERO_POINTS);
  const clamp = load<i32>(hp, HY_CLAMP) != 0;
  const lo = load<f32>(hp, HY_LO);
  const hi = load<f32>(hp, HY_HI);
  const lov = f32x4.splat(lo);
  const hiv = f32x4.splat(hi);
  const end4 = outC & ~3;
  for (let q = q0; q < q1; q++) {
    const b = <usize>(q / perBatch);
    const zp = load<i32>(zps + (b << 2));
    const factor = load<f32>(factors + (b << 2));
    const zpv = i32x4.splat(zp);
    const fv = f32x4.splat(factor);
    const o = output + <usize>q * <usize>(outC << 2);
    let c = 0;
    for (; c < end4; c += 4) {
      const k = <usize>(c << 2);
      let acc = v128.load(o + k);
      if (sums != 0) acc = i32x4.sub(acc, i32x4.mul(zpv, v128.load(sums + k)));
      let v = f32x4.convert_i32x4_s(acc);
      if (mode == 0) v = f32x4.mul(v, fv);
      else if (mode == 1) v = f32x4.mul(v, f32x4.mul(fv, v128.load(scales + k)));
      else v = f32x4.mul(f32x4.mul(v, fv), v128.load(scales + k));
      if (bias != 0) v = f32x4.add(v, v128.load(bias + k));
      // pmax(v, lo) = v < lo ? lo : v; pmin(t, hi) = hi < t ? hi : t (NaN and -0 pass as in the scalar code)
      if (clamp) v = f32x4.pmin(f32x4.pmax(v, lov), hiv);
      v128.store(o + k, v);
    }
    for (; c < outC; c++) {
      const k = <usize>(c << 2);
      let acc = load<i32>(o + k);
      if (sums != 0) acc -= zp * load<i32>(sums + k);
      let v = <f32>acc;
      if (mode == 0) v = v * factor;
      else if (mode == 1) v = v * (factor * load<f32>(scales + k));
      else v = v * factor * load<f32>(scales + k);
      if (bias != 0) v = v + load<f32>(bias + k);
      if (clamp) v = v < lo ? lo : v > hi ? hi : v;
      store<f32>(o + k, v);
    }
  }
}
