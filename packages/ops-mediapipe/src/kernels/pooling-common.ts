/**
 * What MaxPoolingWithArgmax2D and MaxUnpooling2D share: their options are a `TfLitePoolParams` struct
 * stored as custom options bytes (int32 padding, stride_width, stride_height, filter_width,
 * filter_height, activation, then the `computed` padding the kernels ignore), and MediaPipe's init
 * allocates a `TfLitePaddingValues` (4 int32: width, height, width_offset, height_offset) as op data.
 */
import { KernelError, Padding, type ActivationFunctionType, type Node, type TfLiteContext } from '@micrort/core';
import { calculateActivationRangeFloat } from '@micrort/kernel-support';
import { StructPadding, checkAtLeast, readStructFields } from './mediapipe-common.js';

/** The fields of `TfLitePoolParams` the kernels read. */
export interface PoolParams {
  padding: number;
  strideWidth: number;
  strideHeight: number;
  filterWidth: number;
  filterHeight: number;
  /** `TfLiteFusedActivation`: 0 none, 1 RELU, 2 RELU_N1_TO_1, 3 RELU6; 4..6 (TANH, SIGN_BIT, SIGMOID) clamp nothing, as TFLite's CalculateActivationRange. */
  activation: number;
}

/** Bytes of `TfLitePaddingValues` (MediaPipe's op data for both pooling kernels). */
export const PADDING_VALUES_BYTES = 16;
/** Int32 positions in the `TfLitePaddingValues` op data. */
export const PAD_WIDTH = 0;
export const PAD_HEIGHT = 1;

/** Reads and validates the node's `TfLitePoolParams` (strides and filter at least 1, known padding and activation). */
export function readPoolParams(op: string, node: Node): PoolParams {
  const f = readStructFields(op, node, 'TfLitePoolParams', [
    'padding',
    'stride_width',
    'stride_height',
    'filter_width',
    'filter_height',
    'activation',
  ]);
  const p: PoolParams = {
    padding: f[0]!,
    strideWidth: f[1]!,
    strideHeight: f[2]!,
    filterWidth: f[3]!,
    filterHeight: f[4]!,
    activation: f[5]!,
  };
  if (p.padding !== StructPadding.Same && p.padding !== StructPadding.Valid)
    throw new KernelError(op, node.index, `option padding is ${p.padding}, must be 1 (SAME) or 2 (VALID)`);
  checkAtLeast(op, node, 'stride_width', p.strideWidth, 1);
  checkAtLeast(op, node, 'stride_height', p.strideHeight, 1);
  checkAtLeast(op, node, 'filter_width', p.filterWidth, 1);
  checkAtLeast(op, node, 'filter_height', p.filterHeight, 1);
  if (!(p.activation >= 0 && p.activation <= 6))
    throw new KernelError(op, node.index, `option activation is ${p.activation}, must be a TfLiteFusedActivation (0..6)`);
  return p;
}

/** The op data MediaPipe's init allocates, as a persistent arena buffer: TfLitePaddingValues. */
export function allocatePaddingValues(context: TfLiteContext): Int32Array {
  return context.allocatePersistentBuffer(PADDING_VALUES_BYTES).i32;
}

/**
 * TFLite CalculateActivationRange(float) for a `TfLiteFusedActivation` (its values 0..5 are the schema's
 * ActivationFunctionType; 6, SIGMOID, clamps nothing): kernel-support's `calculateActivationRangeFloat`.
 */
export function activationRange(activation: number): [number, number] {
  return calculateActivationRangeFloat(activation as ActivationFunctionType);
}

/** The schema's padding for a `TfLitePoolParams` padding (SAME or VALID; readPoolParams refuses others). */
export function poolPadding(p: PoolParams): Padding {
  return p.padding === StructPadding.Same ? Padding.SAME : Padding.VALID;
}

/**
 * The custom options bytes of a MaxPoolingWithArgmax2D or MaxUnpooling2D node: a 40-byte
 * `TfLitePoolParams` struct (padding 1 = SAME or 2 = VALID, strides, filter size, activation; the
 * `computed` padding zero), as the converter writes it.
 */
export function poolOptions(o: {
  padding: 'SAME' | 'VALID';
  strideWidth: number;
  strideHeight: number;
  filterWidth: number;
  filterHeight: number;
  activation?: number;
}): Uint8Array {
  const bytes = new Uint8Array(40);
  const view = new DataView(bytes.buffer);
  const fields = [o.padding === 'SAME' ? 1 : 2, o.strideWidth, o.strideHeight, o.filterWidth, o.filterHeight, o.activation ?? 0];
  fields.forEach((v, k) => view.setInt32(4 * k, v, true));
  return bytes;
}
