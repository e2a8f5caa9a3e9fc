/**
 * L2_POOL_2D (TFLM kernels/l2_pool_2d.cc, reference_ops::L2Pool): float32 NHWC only (TFLM has no quantized
 * implementation: int8 is refused, as TFLM refuses it). Each output is sqrt(mean of the squares) over the
 * part of its window inside the input, computed in float32 like TFLM, then clamped to the fused
 * activation's range. Padding and output size follow the options (ComputePaddingHeightWidth); the output
 * shape must be the one they give. TFLM keeps no op data.
 */
import { ActivationFunctionType, BuiltinOperator, KernelError, Padding, TensorType, checkArity, getInput, getOutput } from '@micrort/core';
import type { Node, Pool2DOptions, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { requireSameTypeAs, requireShape, typeSupport } from './data-common.js';
import { shapeString } from './transpose-common.js';
import { calculateActivationRangeFloat, computePaddingHeightWidth, expectType, FLT_MAX } from '@micrort/kernel-support';

const OP = 'L2_POOL_2D';
const f32 = Math.fround;

/** Op data computed in prepare. */
interface L2PoolOpData {
  batches: number;
  inHeight: number;
  inWidth: number;
  depth: number;
  outHeight: number;
  outWidth: number;
  strideHeight: number;
  strideWidth: number;
  filterHeight: number;
  filterWidth: number;
  padHeight: number;
  padWidth: number;
  activationMin: number;
  activationMax: number;
}

const ACTIVATIONS = new Set<number>([
  ActivationFunctionType.NONE,
  ActivationFunctionType.RELU,
  ActivationFunctionType.RELU6,
  ActivationFunctionType.RELU_N1_TO_1,
]);

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const params = node.builtinData as Pool2DOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing Pool2DOptions');
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  if (input.dims.length !== 4) throw new KernelError(OP, node.index, `input must be 4-D (NHWC), got shape ${shapeString(input.dims)}`);
  expectType(OP, node, 'input', input, [TensorType.FLOAT32]);
  requireSameTypeAs(OP, node, output, 'output', input, 'input');
  const { strideH: strideHeight, strideW: strideWidth, filterHeight, filterWidth } = params;
  if (!(strideHeight >= 1 && strideWidth >= 1))
    throw new KernelError(OP, node.index, `strides must be >= 1, got stride_h ${strideHeight}, stride_w ${strideWidth}`);
  if (!(filterHeight >= 1 && filterWidth >= 1))
    throw new KernelError(OP, node.index, `filter size must be >= 1, got ${filterHeight}x${filterWidth}`);
  if (params.padding !== Padding.SAME && params.padding !== Padding.VALID)
    throw new KernelError(OP, node.index, `unsupported padding ${params.padding}`);
  if (!ACTIVATIONS.has(params.fusedActivationFunction))
    throw new KernelError(
      OP,
      node.index,
      `unsupported fused activation ${ActivationFunctionType[params.fusedActivationFunction] ?? params.fusedActivationFunction}`,
    );
  const [batches, inHeight, inWidth, depth] = input.dims as unknown as [number, number, number, number];
  const pad = computePaddingHeightWidth(strideHeight, strideWidth, 1, 1, inHeight, inWidth, filterHeight, filterWidth, params.padding);
  requireShape(OP, node, output, 'output', [batches, pad.outHeight, pad.outWidth, depth]);
  if (pad.outHeight > 0 && pad.outWidth > 0 && (filterHeight - pad.height <= 0 || filterWidth - pad.width <= 0))
    throw new KernelError(
      OP,
      node.index,
      `filter ${filterHeight}x${filterWidth} with padding ${pad.height}x${pad.width} has a window outside the input`,
    );
  const [lo, hi] = calculateActivationRangeFloat(params.fusedActivationFunction);
  const data: L2PoolOpData = {
    batches,
    inHeight,
    inWidth,
    depth,
    outHeight: pad.outHeight,
    outWidth: pad.outWidth,
    strideHeight,
    strideWidth,
    filterHeight,
    filterWidth,
    padHeight: pad.height,
    padWidth: pad.width,
    activationMin: Math.max(lo, -FLT_MAX),
    activationMax: Math.min(hi, FLT_MAX),
  };
  node.userData = data;
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
    activationMin,
    activationMax,
  } = d;
  let o = 0;
  for (let b = 0; b < batches; b++)
    for (let oy = 0; oy < outHeight; oy++) {
      const inY0 = oy * strideHeight - d.padHeight;
      const fyStart = Math.max(0, -inY0);
      const fyEnd = Math.min(filterHeight, inHeight - inY0);
      for (let ox = 0; ox < outWidth; ox++) {
        const inX0 = ox * strideWidth - d.padWidth;
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
    node.userData as L2PoolOpData,
    context.getEvalTensor(node.inputs[0]!).data as Float32Array,
    context.getEvalTensor(node.outputs[0]!).data as Float32Array,
  );
}

/** L2_POOL_2D registration: float32. */
export const L2_POOL_2D: Registration = {
  builtinCode: BuiltinOperator.L2_POOL_2D,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, [TensorType.FLOAT32]),
  prepare,
  invoke,
};
