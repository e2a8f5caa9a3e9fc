/**
 * SPACE_TO_DEPTH (TFLM kernels/space_to_depth.cc, reference_ops::SpaceToDepth): 4-D NHWC; each
 * block_size x block_size patch of input pixels becomes one output pixel with depth * block_size^2
 * channels: out[b][h / bs][w / bs][((h % bs) * bs + w % bs) * inDepth + c] = in[b][h][w][c]. Height and
 * width must be multiples of block_size. Types: float32 and int8 as TFLM (int16 is refused, as TFLM
 * refuses it), and uint8, int32 and int64 as TFLite.
 */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';
import { BLOCK_REARRANGE_TYPES, fillOpData, newOpData, opData, prepareBlockRearrange } from '@micrort/kernel-support';

const OP = 'SPACE_TO_DEPTH';

/** Op data computed in prepare (TFLM keeps none). */
interface SpaceToDepthOpData {
  layout: ElementLayout;
  batch: number;
  outHeight: number;
  outWidth: number;
  blockSize: number;
  inDepth: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const { input, batch, outHeight, outWidth, blockSize, inDepth } = prepareBlockRearrange(OP, 'spaceToDepth', context, node);
  const data: SpaceToDepthOpData = { layout: elementLayout(input.type, OP, node), batch, outHeight, outWidth, blockSize, inDepth };
  fillOpData(OP, node, data);
}

function spaceToDepth(d: SpaceToDepthOpData, input: NumberArray, output: NumberArray): void {
  const { batch, outHeight, outWidth, blockSize } = d;
  // An element of `units` slots moves as that many channels.
  const inDepth = d.inDepth * d.layout.units;
  const inHeight = outHeight * blockSize;
  const inWidth = outWidth * blockSize;
  let o = 0;
  for (let b = 0; b < batch; b++)
    for (let oh = 0; oh < outHeight; oh++)
      for (let ow = 0; ow < outWidth; ow++)
        for (let bh = 0; bh < blockSize; bh++)
          for (let bw = 0; bw < blockSize; bw++) {
            let i = ((b * inHeight + oh * blockSize + bh) * inWidth + ow * blockSize + bw) * inDepth;
            for (let c = 0; c < inDepth; c++) output[o++] = input[i++]!;
          }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SpaceToDepthOpData>(OP, node);
  spaceToDepth(
    d,
    movableData(context.getEvalTensor(node.inputs[0]!), d.layout),
    movableData(context.getEvalTensor(node.outputs[0]!), d.layout),
  );
}

/** SPACE_TO_DEPTH registration (op versions 1..2). */
export const SPACE_TO_DEPTH: Registration = {
  builtinCode: BuiltinOperator.SPACE_TO_DEPTH,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, BLOCK_REARRANGE_TYPES),
  init: newOpData,
  prepare,
  invoke,
};
