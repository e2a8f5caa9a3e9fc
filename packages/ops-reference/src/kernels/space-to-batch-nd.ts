/**
 * SPACE_TO_BATCH_ND (TFLM kernels/space_to_batch_nd.cc, reference_ops::SpaceToBatchND): pads the spatial
 * dimensions, then moves blocks of them into the batch dimension. 3-D or 4-D; constant int32 block_shape
 * and paddings (space-batch-common.ts). Types: float32 and int8 as TFLM, and every other fixed-size type
 * as TFLite (padding writes 0, or a uint8 output's zero point).
 *
 * Padded elements are raw 0 for float32 and int8, as in TFLM: its SpaceToBatchParams.output_offset (the
 * pad byte) is never set and stays 0, whatever the int8 zero point. For uint8, TFLite's kernel sets it to
 * the output zero point, and so does this one.
 */
import { BuiltinOperator, TensorType } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { FIXED_SIZE_TYPES, typeSupport } from './data-common.js';
import { type SpaceBatchOpData, prepareSpaceBatch } from './space-batch-common.js';
import { type NumberArray, allocateOpDataBlock, movableData, opDataBlock } from './transpose-common.js';
import { fillOpData, opData } from '@micrort/kernel-support';

const OP = 'SPACE_TO_BATCH_ND';
const TYPES = FIXED_SIZE_TYPES;
/** sizeof(SpaceToBatchParams) in TFLM: int32 output_offset. */
export const OP_DATA_SPACE_TO_BATCH_ND_BYTES = 4;

interface SpaceToBatchOpData extends SpaceBatchOpData {
  padValue: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const block = opDataBlock(OP, node);
  const d = prepareSpaceBatch(OP, context, node, TYPES, 'paddings', true);
  const output = context.getTensor(node.outputs[0]!);
  const padValue = output.type === TensorType.UINT8 ? output.params.zeroPoint & 0xff : 0;
  block.setInt32(0, padValue, true);
  const data: SpaceToBatchOpData = { ...d, padValue };
  fillOpData(OP, node, data);
}

/** For each output pixel: its `depth` elements from the padded input, or the pad value. */
function spaceToBatch(d: SpaceToBatchOpData, input: NumberArray, output: NumberArray): void {
  const { inBatch, inHeight, inWidth, outBatch, outHeight, outWidth, blockHeight, blockWidth, top, left, padValue } = d;
  const depth = d.depth * d.layout.units;
  let o = 0;
  for (let b = 0; b < outBatch; b++) {
    const inB = b % inBatch;
    const shift = (b / inBatch) | 0;
    const shiftW = shift % blockWidth;
    const shiftH = (shift / blockWidth) | 0;
    for (let h = 0; h < outHeight; h++) {
      const inH = h * blockHeight + shiftH - top;
      const rowPad = inH < 0 || inH >= inHeight;
      for (let w = 0; w < outWidth; w++) {
        const inW = w * blockWidth + shiftW - left;
        if (rowPad || inW < 0 || inW >= inWidth) {
          for (let c = 0; c < depth; c++) output[o++] = padValue;
        } else {
          let i = ((inB * inHeight + inH) * inWidth + inW) * depth;
          for (let c = 0; c < depth; c++) output[o++] = input[i++]!;
        }
      }
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SpaceToBatchOpData>(OP, node);
  spaceToBatch(
    d,
    movableData(context.getEvalTensor(node.inputs[0]!), d.layout),
    movableData(context.getEvalTensor(node.outputs[0]!), d.layout),
  );
}

/** SPACE_TO_BATCH_ND registration (op versions 1..4). */
export const SPACE_TO_BATCH_ND: Registration = {
  builtinCode: BuiltinOperator.SPACE_TO_BATCH_ND,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: (context) => allocateOpDataBlock(context, OP_DATA_SPACE_TO_BATCH_ND_BYTES),
  prepare,
  invoke,
};
