/**
 * L2_POOL_2D (TFLM kernels/l2_pool_2d.cc, reference_ops::L2Pool): float32 NHWC only (TFLM has no quantized
 * implementation: int8 is refused, as TFLM refuses it). Each output is sqrt(mean of the squares) over the
 * part of its window inside the input, computed in float32 like TFLM, then clamped to the fused
 * activation's range. Padding and output size follow the options (ComputePaddingHeightWidth); the output
 * shape must be the one they give. TFLM keeps no op data in the arena.
 */
import { BuiltinOperator, TensorType, getOutput } from '@micrort/core';
import type { Node, Pool2DOptions, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { requireShape, typeSupport } from './data-common.js';
import {
  calculateOpDataPooling,
  computePaddingHeightWidth,
  emptyOpDataPooling,
  FLOAT32_ONLY,
  opData,
  type OpDataPooling,
} from '@micrort/kernel-support';

const OP = 'L2_POOL_2D';
const f32 = Math.fround;

/** Op data: kernel-support's OpDataPooling (TFLM keeps none; micrort keeps the geometry eval reads). */
type L2PoolOpData = OpDataPooling;

function init(): L2PoolOpData {
  return emptyOpDataPooling();
}

/**
 * TFLM's L2 pool prepare: PoolingPrepare's checks (kernel-support's `calculateOpDataPooling`, float32
 * only), and the output must have the shape the options give (TFLM resizes it to that shape).
 */
function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<L2PoolOpData>(OP, node);
  Object.assign(d, calculateOpDataPooling(OP, context, node, FLOAT32_ONLY));
  const params = node.builtinData as Pool2DOptions;
  const pad = computePaddingHeightWidth(
    d.strideHeight,
    d.strideWidth,
    1,
    1,
    d.inHeight,
    d.inWidth,
    d.filterHeight,
    d.filterWidth,
    params.padding,
  );
  requireShape(OP, node, getOutput(context, node, 0, OP), 'output', [d.batches, pad.outHeight, pad.outWidth, d.depth]);
}

function l2Pool(d: L2PoolOpData, input: Float32Array, output: Float32Array): void {
  const {
    batches,
    inHeight,
    inWidth,
    depth,
    outHeight,
    outWidth,
    strideHeight,
    strideWidth,
    filterHeight,
    filterWidth,
    actMinF: activationMin,
    actMaxF: activationMax,
  } = d;
  let o = 0;
  for (let b = 0; b < batches; b++)
    for (let oy = 0; oy < outHeight; oy++) {
      const inY0 = oy * strideHeight - d.padding.height;
      const fyStart = Math.max(0, -inY0);
      const fyEnd = Math.min(filterHeight, inHeight - inY0);
      for (let ox = 0; ox < outWidth; ox++) {
        const inX0 = ox * strideWidth - d.padding.width;
        const fxStart = Math.max(0, -inX0);
        const fxEnd = Math.min(filterWidth, inWidth - inX0);
        const count = (fyEnd - fyStart) * (fxEnd - fxStart);
        for (let c = 0; c < depth; c++) {
          let sum = 0;
          for (let fy = fyStart; fy < fyEnd; fy++) {
            let p = ((b * inHeight + inY0 + fy) * inWidth + inX0 + fxStart) * depth + c;
            for (let fx = fxStart; fx < fxEnd; fx++, p += depth) {
              const v = input[p]!;
              sum = f32(sum + f32(v * v));
            }
          }
          const r = f32(Math.sqrt(f32(sum / count)));
          output[o++] = r < activationMin ? activationMin : r > activationMax ? activationMax : r;
        }
      }
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  l2Pool(
    opData<L2PoolOpData>(OP, node),
    context.getEvalTensor(node.inputs[0]!).data as Float32Array,
    context.getEvalTensor(node.outputs[0]!).data as Float32Array,
  );
}

/** L2_POOL_2D registration: float32. */
export const L2_POOL_2D: Registration<L2PoolOpData> = {
  builtinCode: BuiltinOperator.L2_POOL_2D,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, [TensorType.FLOAT32]),
  init,
  prepare,
  invoke,
};
