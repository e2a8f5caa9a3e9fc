/**
 * TFLM's int16 LOGISTIC and TANH (reference_integer_ops::Logistic / Tanh on int16: a 256-entry sigmoid
 * table with linear interpolation). Shared by the reference kernels and by the integer LSTMs of every
 * kernel package, which apply them to their Q3.12 gates and cell state.
 */

/**
 * sigmoid(i / 24) for i = 0..255 in unsigned Q0.16 (65535 at the end): the lookup table of TFLM's int16
 * LOGISTIC and TANH (tanh(x) = 2 * sigmoid(2x) - 1).
 */
export const SIGMOID_TABLE_UINT16: Uint16Array = Uint16Array.from([
  32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511,
  45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983,
  54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743,
  59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778,
  62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257,
  64308, 64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900, 64926, 64950,
  64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258, 65269,
  65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415,
  65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481,
  65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511,
  65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
  65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
  65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65533, 65534, 65534,
  65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
]);

/** TFLM int16 LOGISTIC of one value (sigmoid LUT, 9 fractional interpolation bits). */
export function logisticInt16(x: number, multiplier: number, leftShift: number, round: number): number {
  const input = (x * multiplier + round) >> leftShift;
  const absInput = input < 0 ? -input : input;
  const uh = absInput >>> 9;
  let result: number;
  if (uh >= 255) {
    result = 0x7fff << 10;
  } else {
    const ua = SIGMOID_TABLE_UINT16[uh]!;
    const ub = SIGMOID_TABLE_UINT16[uh + 1]!;
    result = ua * 512 + (absInput & 0x1ff) * (ub - ua);
  }
  result = input >= 0 ? result + 512 : (1 << 25) - result + 512 - 1;
  return ((result >>> 10) << 16) >> 16;
}

/** TFLM int16 TANH of one value (same LUT as sigmoid, 8 interpolation bits). */
export function tanhInt16(x: number, multiplier: number, leftShift: number, round: number): number {
  const input = (x * multiplier + round) >> leftShift;
  const absInput = input < 0 ? -input : input;
  const uh = absInput >>> 8;
  let result: number;
  if (uh >= 255) {
    result = 0xffff << 8;
  } else {
    const ua = SIGMOID_TABLE_UINT16[uh]!;
    const ub = SIGMOID_TABLE_UINT16[uh + 1]!;
    result = ua * 256 + (absInput & 0xff) * (ub - ua);
  }
  result = input >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  return ((result >> 8) << 16) >> 16;
}

/**
 * TFLM int16 LOGISTIC (reference_integer_ops::Logistic) over `count` values from `input[inOffset ..]` to
 * `output[outOffset ..]` (they may be the same array at the same offset), with the prepare-time
 * `multiplier` and `leftShift` of `Int16ActivationParams` (multiplier 0: power-of-two input scale, which
 * runs as multiplier 3 << leftShift with no shift).
 */
export function logisticInt16Run(
  input: Int16Array,
  inOffset: number,
  output: Int16Array,
  outOffset: number,
  count: number,
  multiplier: number,
  leftShift: number,
): void {
  const pot = multiplier === 0;
  const m = pot ? 3 << leftShift : multiplier;
  const shift = pot ? 0 : leftShift;
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  for (let i = 0; i < count; i++) output[outOffset + i] = logisticInt16(input[inOffset + i]!, m, shift, round);
}

/** TFLM int16 TANH (reference_integer_ops::Tanh), with the conventions of `logisticInt16Run`. */
export function tanhInt16Run(
  input: Int16Array,
  inOffset: number,
  output: Int16Array,
  outOffset: number,
  count: number,
  multiplier: number,
  leftShift: number,
): void {
  const pot = multiplier === 0;
  const m = pot ? 3 << leftShift : multiplier;
  const shift = pot ? 0 : leftShift;
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  for (let i = 0; i < count; i++) output[outOffset + i] = tanhInt16(input[inOffset + i]!, m, shift, round);
}
