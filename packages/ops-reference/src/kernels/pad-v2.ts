/**
 * PADV2 (TFLM registers it with the PAD kernel): PAD whose third input is a scalar pad value of the input
 * type (for int8 with the output's scale and zero point). See pad-common.ts.
 */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { initPad, invokePad, padInPlaceVariant, preparePad, usePadInPlaceVariant } from './pad-common.js';
import { fillOpData } from '@micrort/kernel-support';

const OP = 'PADV2';

function prepare(context: TfLiteContext, node: Node): void {
  fillOpData(OP, node, preparePad(OP, context, node));
}

/** PADV2 registration (op versions 1..4). */
export const PADV2: Registration = {
  builtinCode: BuiltinOperator.PADV2,
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
