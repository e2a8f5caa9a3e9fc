/**
 * REVERSE_V2 (TFLM kernels/reverse.cc, reference_ops::Reverse): reverses the input along the axes of a
 * constant 1-D int32 tensor (negative counts from the end). As TFLM, the axes must be contiguous once
 * sorted ("Non-contiguous axes not supported"), the input has at most 6 dimensions and no more axes than
 * dimensions; reversing contiguous axes a..b reverses their combined index. An empty axis list copies.
 * Types: float32, int8, uint8, int16, int32, int64, bool (as TFLM), and float16 (as TFLite).
 */
import { BuiltinOperator } from '@micrort/core';
import type { Node, Registration, TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { typeSupport } from './data-common.js';
import { type ElementLayout, type NumberArray, elementLayout, movableData } from './transpose-common.js';
import { REVERSE_V2_TYPES as TYPES, fillOpData, newOpData, opData, prepareReverse } from '@micrort/kernel-support';

const OP = 'REVERSE_V2';
/** Op data computed in prepare (TFLM keeps none). */
interface ReverseOpData {
  layout: ElementLayout;
  outer: number;
  /** Product of the reversed dimensions. */
  middle: number;
  /** Array slots after the reversed dimensions. */
  inner: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const g = prepareReverse(OP, context, node);
  const layout = elementLayout(g.input.type, OP, node);
  const data: ReverseOpData = { layout, outer: g.outer, middle: g.middle, inner: g.inner * layout.units };
  fillOpData(OP, node, data);
}

function reverse(d: ReverseOpData, src: NumberArray, dst: NumberArray): void {
  const { outer, middle, inner } = d;
  for (let o = 0; o < outer; o++) {
    const base = o * middle;
    for (let m = 0; m < middle; m++) {
      let p = (base + m) * inner;
      let q = (base + middle - 1 - m) * inner;
      for (let k = 0; k < inner; k++) dst[q++] = src[p++]!;
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<ReverseOpData>(OP, node);
  reverse(d, movableData(context.getEvalTensor(node.inputs[0]!), d.layout), movableData(context.getEvalTensor(node.outputs[0]!), d.layout));
}

/** REVERSE_V2 registration (op versions 1..3). */
export const REVERSE_V2: Registration = {
  builtinCode: BuiltinOperator.REVERSE_V2,
  version: 3,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => typeSupport(context, node, TYPES),
  init: newOpData,
  prepare,
  invoke,
};
