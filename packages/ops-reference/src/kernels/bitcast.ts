/**
 * BITCAST (TFLite bitcast.cc, after TFLite 2.9): the input's bytes reinterpreted as another fixed-size
 * type. Equal element sizes keep the shape; a wider input gains an innermost dimension of the size ratio;
 * a narrower input must end in that ratio, which the output drops.
 */
import {
  BuiltinOperator,
  KernelError,
  checkArity,
  elementSize,
  getInput,
  getOutput,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, fillOpData, newOpData, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { supportsFixedSize } from './tflite-ops-common.js';

const OP = 'BITCAST';

interface BitcastOpData {
  bytes: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  const a = elementSize(input.type);
  const b = elementSize(output.type);
  if (a === undefined || b === undefined)
    throw new KernelError(
      OP,
      node.index,
      `${tensorTypeName(input.type)} → ${tensorTypeName(output.type)}: both types must have a fixed element size`,
    );
  const dims = Array.from(input.dims);
  if (a > b) dims.push(a / b);
  else if (a < b) {
    const last = dims.pop();
    if (last !== b / a)
      throw new KernelError(
        OP,
        node.index,
        `input [${input.dims.join(',')}] (${tensorTypeName(input.type)}) must end in ${b / a} to become ${tensorTypeName(output.type)}`,
      );
  }
  setOutputShape(OP, context, node, 0, dims);
  fillOpData<BitcastOpData>(OP, node, { bytes: input.byteLength });
}

function invoke(context: TfLiteContext, node: Node): void {
  const n = opData<BitcastOpData>(OP, node).bytes;
  const x = context.getEvalTensor(node.inputs[0]!).bytes;
  const y = context.getEvalTensor(node.outputs[0]!).bytes;
  if (x.byteOffset !== y.byteOffset || x.buffer !== y.buffer) for (let i = 0; i < n; i++) y[i] = x[i]!;
}

/** BITCAST registration (op version 1). */
export const BITCAST: Registration = {
  builtinCode: BuiltinOperator.BITCAST,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? supportsFixedSize(context, node, 0),
  init: newOpData,
  prepare,
  invoke,
};
