/**
 * DEPTH_TO_SPACE (TFLM kernels/depth_to_space.cc, reference_ops::DepthToSpace): 4-D NHWC; each input
 * pixel's channels become a block_size x block_size patch of output pixels with depth / block_size^2
 * channels: out[b][h][w][c] = in[b][h / bs][w / bs][((h % bs) * bs + w % bs) * outDepth + c].
 * Types: float32 and int8 as TFLM (int16 is refused, as TFLM refuses it), and uint8, int32 and int64 as
 * TFLite.
 */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';
import { BLOCK_REARRANGE_TYPES, fillOpData, newOpData, opData, prepareBlockRearrange } from '@micrort/kernel-support';

const OP = 'DEPTH_TO_SPACE';

/** Op data computed in prepare (TFLM keeps none). */
interface DepthToSpaceOpData {
  layout: ElementLayout;
  batch: number;
  inHeight: number;
  inWidth: number;
  blockSize: number;
  outDepth: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const { input, batch, inHeight, inWidth, blockSize, outDepth } = prepareBlockRearrange(OP, 'depthToSpace', context, node);
  const data: DepthToSpaceOpData = { layout: elementLayout(input.type, OP, node), batch, inHeight, inWidth, blockSize, outDepth };
  fillOpData(OP, node, data);
}

function depthToSpace(d: DepthToSpaceOpData, input: NumberArray, output: NumberArray): void {
  const { batch, inHeight, inWidth, blockSize } = d;
  // An element of `units` slots moves as that many channels.
  const outDepth = d.outDepth * d.layout.units;
  const inDepth = outDepth * blockSize * blockSize;
  let o = 0;
  for (let b = 0; b < batch; b++)
    for (let h = 0; h < inHeight * blockSize; h++) {
      const inH = (h / blockSize) | 0;
      const offH = (h % blockSize) * blockSize;
      for (let w = 0; w < inWidth * blockSize; w++) {
        const inW = (w / blockSize) | 0;
        let i = ((b * inHeight + inH) * inWidth + inW) * inDepth + (offH + (w % blockSize)) * outDepth;
        for (let c = 0; c < outDepth; c++) output[o++] = input[i++]!;
      }
    }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<DepthToSpaceOpData>(OP, node);
  depthToSpace(
    d,
    movableData(context.getEvalTensor(node.inputs[0]!), d.layout),
    movableData(context.getEvalTensor(node.outputs[0]!), d.layout),
  );
}

/** DEPTH_TO_SPACE registration (op versions 1..2). */
export const DEPTH_TO_SPACE: Registration = {
  builtinCode: BuiltinOperator.DEPTH_TO_SPACE,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, BLOCK_REARRANGE_TYPES),
  init: newOpData,
  prepare,
  invoke,
};
