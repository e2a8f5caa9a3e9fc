/** ARG_MIN (TFLM kernels/arg_min_max.cc): see arg-min-max-common.ts. */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { argMinMaxSupport, invokeArgMinMax, prepareArgMinMax } from './arg-min-max-common.js';
import { fillOpData, newOpData } from '@micrort/kernel-support';

const OP = 'ARG_MIN';

function prepare(context: TfLiteContext, node: Node): void {
  fillOpData(OP, node, prepareArgMinMax(OP, context, node));
}

function invoke(context: TfLiteContext, node: Node): void {
  invokeArgMinMax(context, node, false);
}

/** ARG_MIN registration: float32, int8 input; int32 axis and output (op versions 1..3). */
export const ARG_MIN: Registration = {
  builtinCode: BuiltinOperator.ARG_MIN,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: argMinMaxSupport,
  dynamicInputShapes: true,
  init: newOpData,
  prepare,
  invoke,
};
