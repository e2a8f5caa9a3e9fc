/**
 * PAD (TFLM kernels/pad.cc): constant padding of a float32/int8/int16/int32/uint8 tensor of up to 5
 * dimensions; paddings come from a constant int32/int64 tensor of shape [rank, 2]. int8 and uint8 pad
 * with the output zero point, the other types with 0. A data-dependent input is padded by its actual
 * dims at every invoke. See pad-common.ts.
 */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { initPad, invokePad, padInPlaceVariant, preparePad, usePadInPlaceVariant } from './pad-common.js';
import { fillOpData } from '@micrort/kernel-support';

const OP = 'PAD';

function prepare(context: TfLiteContext, node: Node): void {
  fillOpData(OP, node, preparePad(OP, context, node));
}

/** PAD registration (op versions 1..4). */
export const PAD: Registration = {
  builtinCode: BuiltinOperator.PAD,
  version: 4,
  provider: PROVIDER,
  name: OP,
  init: initPad,
  dynamicInputShapes: true,
  prepare,
  invoke: invokePad,
  inPlaceVariant: padInPlaceVariant,
  useInPlaceVariant: usePadInPlaceVariant,
};
