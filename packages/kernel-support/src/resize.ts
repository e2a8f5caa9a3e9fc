/**
 * The source coordinates of RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR (TFLite's
 * reference_ops::ComputeInterpolationValues, ComputeInterpolationValuesInteger and GetNearestNeighbor,
 * which TFLM runs too), written once for every kernel package: which input rows and columns an output
 * row or column reads and with which weights, computed in prepare with TFLite's arithmetic (float32 or
 * 10-bit fixed point) so that the chosen neighbours are TFLite's to the bit.
 */

const f32 = Math.fround;

/**
 * The float32 scale from output to input coordinates: `(in - 1) / (out - 1)` with align_corners (and
 * more than one output), else `in / out` (TFLite's resize_bilinear.h and GetNearestNeighbor).
 */
export function resizeScaleF32(inSize: number, outSize: number, alignCorners: boolean): number {
  return alignCorners && outSize > 1 ? f32((inSize - 1) / (outSize - 1)) : f32(inSize / outSize);
}

/**
 * reference_ops::ComputeInterpolationValues in float32 for output coordinate `value`:
 * `[lower, upper, fraction]` (the fraction `scaled - lower` weighs the upper neighbour, `1 - fraction`
 * the lower one). `scale` is {@link resizeScaleF32}'s.
 */
export function interpolationValues(value: number, scale: number, halfPixelCenters: boolean, inputSize: number): [number, number, number] {
  const scaled = halfPixelCenters ? f32(f32(f32(value + 0.5) * scale) - 0.5) : f32(value * scale);
  const lower = Math.max(Math.floor(scaled), 0) | 0;
  const upper = Math.min(Math.ceil(scaled), inputSize - 1) | 0;
  return [lower, upper, f32(scaled - lower)];
}

/** The 10-bit fixed-point scale of reference_ops::ResizeBilinearInteger (int8, int16). */
export function resizeScaleInteger(inSize: number, outSize: number, alignCorners: boolean): number {
  return alignCorners && outSize > 1
    ? Math.trunc((1024 * (inSize - 1) + Math.trunc((outSize - 1) / 2)) / (outSize - 1))
    : Math.trunc((1024 * inSize + Math.trunc(outSize / 2)) / outSize);
}

/**
 * reference_ops::ComputeInterpolationValuesInteger: `[scaled, lower, upper]` for output coordinate
 * `value`, `scaled` in 10-bit fixed point. The upper neighbour's weight is `scaled - 1024 * lower` and the
 * lower one's `1024` minus it; before the first input pixel (half_pixel_centers) `scaled` is negative,
 * both neighbours are pixel 0 and the weights still sum to 1024.
 */
export function interpolationValuesInteger(
  value: number,
  scale10: number,
  halfPixelCenters: boolean,
  inputSize: number,
): [number, number, number] {
  const scaled = halfPixelCenters ? value * scale10 + Math.trunc(scale10 / 2) - 512 : value * scale10;
  const lower = Math.max(Math.trunc(scaled / 1024), 0);
  const upper = Math.min(Math.trunc((scaled + 1023) / 1024), inputSize - 1);
  return [scaled, lower, upper];
}

/**
 * reference_ops::GetNearestNeighbor in float32: the input coordinate output coordinate `value` copies —
 * `floor(scaled)`, or rounded half away from zero with align_corners, at most `inputSize - 1` (and at
 * least 0 with half_pixel_centers).
 */
export function nearestNeighbor(
  value: number,
  inputSize: number,
  outputSize: number,
  alignCorners: boolean,
  halfPixelCenters: boolean,
): number {
  const scale = resizeScaleF32(inputSize, outputSize, alignCorners);
  const offset = halfPixelCenters ? 0.5 : 0;
  const scaled = f32(f32(value + offset) * scale);
  // TfLiteRound rounds half away from zero; `scaled` is never negative here, where Math.round agrees.
  let out = Math.min(alignCorners ? Math.round(scaled) : Math.floor(scaled), inputSize - 1);
  if (halfPixelCenters) out = Math.max(0, out);
  return out;
}
