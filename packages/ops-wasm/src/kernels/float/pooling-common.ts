/**
 * What float32 MAX_POOL_2D and AVERAGE_POOL_2D share (TFLM kernels/pooling_common.cc): validation, TFLite
 * padding, the fused activation's range and the parameter block of assembly/float/pool.ts.
 */
import { KernelError, Padding, type Node, type Pool2DOptions, type Registration, type TfLiteContext } from '@micrort/core';
import { FP, FP_BYTES } from '../../generated/abi.js';
import { PROVIDER } from '../../provider.js';
import { computeOutSize, computePadding, constantInputCopies, inputOffset } from '../kernel-common.js';
import {
  declineNonFloat,
  floatActivationRange,
  floatKernelsFor,
  isClampActivation,
  shapeText,
  type FloatKernelExports,
} from './float-common.js';

/** Parameter block FP (scripts/abi.mjs). */
const POOL_PARAMS_BYTES = FP_BYTES;

/** Op data of a float pooling node. */
export interface PoolData {
  k: FloatKernelExports | null;
  params: number;
  /** Arena offset of a constant input's copy, or -1. */
  input: number;
}

/** A float32 pooling registration running `kernel`. */
export function poolRegistration(op: string, code: number, kernel: 'f32_maxpool' | 'f32_avgpool'): Registration<PoolData> {
  return {
    builtinCode: code,
    version: 3,
    provider: PROVIDER,
    name: `${op}/wasm-f32`,
    supports(context, node) {
      if (node.inputs.length !== 1 || node.outputs.length !== 1) return 'arity';
      const input = context.getTensor(node.inputs[0]!);
      const why = declineNonFloat([input, context.getTensor(node.outputs[0]!)]);
      if (why) return why;
      const params = node.builtinData as Pool2DOptions | null;
      if (params && !isClampActivation(params.fusedActivationFunction)) return `fused activation ${params.fusedActivationFunction}`;
      return true;
    },
    init: (): PoolData => ({ k: null, params: 0, input: -1 }),
    prepare(context: TfLiteContext, node: Node) {
      const data = node.userData as PoolData;
      const params = node.builtinData as Pool2DOptions | null;
      if (!params) throw new KernelError(op, node.index, 'missing Pool2DOptions');
      if (node.inputs.length !== 1 || node.outputs.length !== 1) throw new KernelError(op, node.index, 'expects 1 input and 1 output');
      const input = context.getTensor(node.inputs[0]!);
      const output = context.getTensor(node.outputs[0]!);
      if (input.dims.length !== 4) throw new KernelError(op, node.index, `input must be 4-D (NHWC), got shape ${shapeText(input)}`);
      if (output.dims.length !== 4) throw new KernelError(op, node.index, `output must be 4-D (NHWC), got shape ${shapeText(output)}`);
      const { strideH: sH, strideW: sW, filterHeight: fH, filterWidth: fW } = params;
      if (!(sH >= 1 && sW >= 1)) throw new KernelError(op, node.index, `strides must be >= 1, got stride_h ${sH}, stride_w ${sW}`);
      if (!(fH >= 1 && fW >= 1)) throw new KernelError(op, node.index, `filter size must be >= 1, got ${fH}x${fW}`);
      if (params.padding !== Padding.SAME && params.padding !== Padding.VALID)
        throw new KernelError(op, node.index, `unsupported padding ${params.padding}`);
      const [batches, inH, inW, depth] = input.dims as unknown as number[];
      if (output.dims[0] !== batches || output.dims[3] !== depth)
        throw new KernelError(
          op,
          node.index,
          `output shape ${shapeText(output)} must keep the input's batch ${batches} and depth ${depth} (input ${shapeText(input)})`,
        );
      // As TFLM: the output size comes from the output tensor, the padding from the options.
      const padH = computePadding(sH, 1, inH!, fH, computeOutSize(params.padding, inH!, fH, sH, 1));
      const padW = computePadding(sW, 1, inW!, fW, computeOutSize(params.padding, inW!, fW, sW, 1));
      const outH = output.dims[1]!;
      const outW = output.dims[2]!;
      if (outH > 0 && outW > 0 && (fH - padH <= 0 || fW - padW <= 0 || (outH - 1) * sH - padH >= inH! || (outW - 1) * sW - padW >= inW!))
        throw new KernelError(
          op,
          node.index,
          `output ${outH}x${outW} with filter ${fH}x${fW}, stride ${sH}x${sW} and padding ${padH}x${padW} has a window entirely outside the ${inH}x${inW} input`,
        );
      const [lo, hi] = floatActivationRange(op, node, params.fusedActivationFunction);
      const region = context.allocatePersistentBuffer(POOL_PARAMS_BYTES);
      data.k = floatKernelsFor(op, node, region);
      data.input = constantInputCopies(context, node, [0])[0]!;
      const p = region.i32;
      p[FP.Batches] = batches!;
      p[FP.InH] = inH!;
      p[FP.InW] = inW!;
      p[FP.C] = depth!;
      p[FP.OutH] = outH;
      p[FP.OutW] = outW;
      p[FP.FH] = fH;
      p[FP.FW] = fW;
      p[FP.SH] = sH;
      p[FP.SW] = sW;
      p[FP.PadH] = padH;
      p[FP.PadW] = padW;
      region.f32[FP.ActMin] = lo;
      region.f32[FP.ActMax] = hi;
      data.params = region.offset;
    },
    invoke(context, node) {
      const data = node.userData as PoolData;
      data.k![kernel](data.params, inputOffset(context, node, 0, data.input), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
    },
  };
}
