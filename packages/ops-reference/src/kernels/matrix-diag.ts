/**
 * MATRIX_DIAG (TFLite matrix_diag.cc): an input [..., N] becomes [..., N, N] matrices with the input on
 * their diagonal and zeros elsewhere. Any fixed-size element type, moved as bytes.
 */
import {
  BuiltinOperator,
  KernelError,
  checkArity,
  getInput,
  getOutput,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, expectSameType, fillOpData, newOpData, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { copyElements, fixedElementSize, supportsFixedSize } from './tflite-ops-common.js';

const OP = 'MATRIX_DIAG';

interface MatrixDiagOpData {
  batches: number;
  n: number;
  size: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  const size = fixedElementSize(OP, node, 'input', input);
  expectSameType(OP, node, 'input and output', input, output);
  if (input.dims.length < 1) throw new KernelError(OP, node.index, 'the input must have at least 1 dimension');
  const n = input.dims[input.dims.length - 1]!;
  setOutputShape(OP, context, node, 0, [...input.dims, n]);
  fillOpData<MatrixDiagOpData>(OP, node, { batches: n === 0 ? 0 : input.elementCount / n, n, size });
}

function invoke(context: TfLiteContext, node: Node): void {
  const { batches, n, size } = opData<MatrixDiagOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).bytes;
  const y = context.getEvalTensor(node.outputs[0]!).bytes;
  y.fill(0, 0, batches * n * n * size);
  for (let b = 0; b < batches; b++) for (let i = 0; i < n; i++) copyElements(x, b * n + i, y, (b * n + i) * n + i, 1, size);
}

/** MATRIX_DIAG registration (op version 1). */
export const MATRIX_DIAG: Registration = {
  builtinCode: BuiltinOperator.MATRIX_DIAG,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? supportsFixedSize(context, node, 0),
  init: newOpData,
  prepare,
  invoke,
};
