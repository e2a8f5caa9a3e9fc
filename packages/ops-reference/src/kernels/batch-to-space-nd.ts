/**
 * BATCH_TO_SPACE_ND (TFLM kernels/batch_to_space_nd.cc, reference_ops::BatchToSpaceND): moves blocks of
 * the batch dimension back into the spatial dimensions, then crops. 3-D or 4-D; constant int32
 * block_shape and crops (space-batch-common.ts). Types: float32 and int8 as TFLM, and every other
 * fixed-size type (an element copy, as TFLite's kernel). TFLM keeps no op data.
 */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { FIXED_SIZE_TYPES, typeSupport } from './data-common.js';
import { type SpaceBatchOpData, prepareSpaceBatch } from './space-batch-common.js';
import { type NumberArray, movableData } from './transpose-common.js';
import { fillOpData, newOpData, opData } from '@micrort/kernel-support';

const OP = 'BATCH_TO_SPACE_ND';
const TYPES = FIXED_SIZE_TYPES;

function prepare(context: TfLiteContext, node: Node): void {
  fillOpData(OP, node, prepareSpaceBatch(OP, context, node, TYPES, 'crops', false));
}

/** For each input pixel that survives the crop, copies its `depth` elements to its output position. */
function batchToSpace(d: SpaceBatchOpData, input: NumberArray, output: NumberArray): void {
  const { inBatch, inHeight, inWidth, outBatch, outHeight, outWidth, blockHeight, blockWidth, top, left } = d;
  const depth = d.depth * d.layout.units;
  for (let b = 0; b < inBatch; b++) {
    const outB = b % outBatch;
    const spatialOffset = (b / outBatch) | 0;
    const shiftH = (spatialOffset / blockWidth) | 0;
    const shiftW = spatialOffset % blockWidth;
    for (let h = 0; h < inHeight; h++) {
      const outH = h * blockHeight + shiftH - top;
      if (outH < 0 || outH >= outHeight) continue;
      for (let w = 0; w < inWidth; w++) {
        const outW = w * blockWidth + shiftW - left;
        if (outW < 0 || outW >= outWidth) continue;
        let o = ((outB * outHeight + outH) * outWidth + outW) * depth;
        let i = ((b * inHeight + h) * inWidth + w) * depth;
        for (let c = 0; c < depth; c++) output[o++] = input[i++]!;
      }
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<SpaceBatchOpData>(OP, node);
  batchToSpace(
    d,
    movableData(context.getEvalTensor(node.inputs[0]!), d.layout),
    movableData(context.getEvalTensor(node.outputs[0]!), d.layout),
  );
}

/** BATCH_TO_SPACE_ND registration (op versions 1..4). */
export const BATCH_TO_SPACE_ND: Registration = {
  builtinCode: BuiltinOperator.BATCH_TO_SPACE_ND,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
