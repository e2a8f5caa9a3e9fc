/**
 * The quantized LEAKY_RELU arithmetic every kernel package shares (tflite-micro leaky_relu.cc,
 * leaky_relu_common.cc; reference_ops::QuantizeLeakyRelu): non-negative input differences are requantized
 * with the identity multiplier (input scale / output scale), negative ones with the alpha multiplier (input
 * scale × alpha / output scale, computed in float32 as TFLM), plus the output zero point, clamped to the
 * type. For 8-bit types `leakyReluTable` tabulates the 256 outputs.
 */
import { checkedQuantizeMultiplier, multiplyByQuantizedMultiplier, type Node, type Tensor } from '@micrort/core';

/** TFLM's LeakyReluOpData, decoded. */
export interface LeakyReluQuantParams {
  multiplierAlpha: number;
  shiftAlpha: number;
  multiplierIdentity: number;
  shiftIdentity: number;
  inputZeroPoint: number;
  outputZeroPoint: number;
}

/** TFLM's quantized LEAKY_RELU prepare: the two multipliers for `alpha` (a float32 value) and the scales. */
export function leakyReluQuantParams(op: string, node: Node, input: Tensor, output: Tensor, alpha: number): LeakyReluQuantParams {
  const f = Math.fround;
  const a = checkedQuantizeMultiplier(op, node, f(f(input.params.scale * alpha) / output.params.scale), 'alpha multiplier');
  const identity = checkedQuantizeMultiplier(op, node, f(input.params.scale / output.params.scale), 'identity multiplier');
  return {
    multiplierAlpha: a.multiplier,
    shiftAlpha: a.shift,
    multiplierIdentity: identity.multiplier,
    shiftIdentity: identity.shift,
    inputZeroPoint: input.params.zeroPoint,
    outputZeroPoint: output.params.zeroPoint,
  };
}

/** reference_ops::QuantizeLeakyRelu of one value, clamped to [`lo`, `hi`]. */
export function leakyReluQuantized(x: number, p: LeakyReluQuantParams, lo: number, hi: number): number {
  const d = x - p.inputZeroPoint;
  const v =
    (p.outputZeroPoint +
      (d >= 0
        ? multiplyByQuantizedMultiplier(d, p.multiplierIdentity, p.shiftIdentity)
        : multiplyByQuantizedMultiplier(d, p.multiplierAlpha, p.shiftAlpha))) |
    0;
  return v < lo ? lo : v > hi ? hi : v;
}

/**
 * Fills `table` (256 entries, indexed by the input's byte) with leakyReluQuantized of every input:
 * `unsigned` for uint8, else int8 (byte b is the value b − 256 from 128 on).
 */
export function leakyReluTable(p: LeakyReluQuantParams, unsigned: boolean, table: Uint8Array): void {
  for (let b = 0; b < 256; b++) {
    const x = unsigned || b < 128 ? b : b - 256;
    table[b] = leakyReluQuantized(x, p, unsigned ? 0 : -128, unsigned ? 255 : 127) & 255;
  }
}
