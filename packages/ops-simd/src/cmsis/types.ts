/**
 * Parameter blocks of the CMSIS-NN ports, flattened from CMSIS-NN's cmsis_nn_conv_params /
 * cmsis_nn_dw_conv_params / cmsis_nn_dims / cmsis_nn_per_channel_quant_params. Filled once in prepare.
 */

/** A (depthwise) convolution: NHWC input, OHWI (conv) or 1HWO (depthwise) filter, NHWC output. */
export interface ConvParams {
  batches: number;
  inH: number;
  inW: number;
  inC: number;
  /** Filter height and width. */
  kH: number;
  kW: number;
  /** Filter input depth: `inC / groups` for CONV_2D (1 for depthwise). */
  kC: number;
  outH: number;
  outW: number;
  outC: number;
  /** Depth multiplier (depthwise only; 1 otherwise). */
  chMult: number;
  strideH: number;
  strideW: number;
  /** Leading padding (TFLM's padding.height/width). */
  padH: number;
  padW: number;
  dilH: number;
  dilW: number;
  /** `-input zero point`. */
  inputOffset: number;
  /** Output zero point. */
  outputOffset: number;
  actMin: number;
  actMax: number;
  /** Per-output-channel requantization (in the arena). */
  multiplier: Int32Array;
  shift: Int32Array;
}

/** Creates an all-zero ConvParams (filled in prepare). */
export function emptyConvParams(): ConvParams {
  const none = new Int32Array(0);
  return {
    batches: 0,
    inH: 0,
    inW: 0,
    inC: 0,
    kH: 0,
    kW: 0,
    kC: 0,
    outH: 0,
    outW: 0,
    outC: 0,
    chMult: 1,
    strideH: 1,
    strideW: 1,
    padH: 0,
    padW: 0,
    dilH: 1,
    dilW: 1,
    inputOffset: 0,
    outputOffset: 0,
    actMin: -128,
    actMax: 127,
    multiplier: none,
    shift: none,
  };
}

/** The requantization of a matrix product (arm_nn_mat_mult_nt_t_s8 / arm_nn_vec_mat_mult_t_s8 arguments). */
export interface MatMulQuant {
  /** Added to every lhs (activation) element: `-input zero point`. */
  lhsOffset: number;
  /** Output zero point. */
  dstOffset: number;
  actMin: number;
  actMax: number;
  /** Per-rhs-row (output channel) multipliers and shifts. */
  multiplier: Int32Array;
  shift: Int32Array;
}
