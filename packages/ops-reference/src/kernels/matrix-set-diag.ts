/**
 * MATRIX_SET_DIAG (TFLite matrix_set_diag.cc): a copy of the input [..., M, N] whose main diagonals are
 * replaced by the diagonal input [..., min(M, N)]. Any fixed-size element type, moved as bytes.
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
import { declineArity, expectSameType, fillOpData, newOpData, opData, sameDims, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { copyElements, fixedElementSize, supportsFixedSize } from './tflite-ops-common.js';

const OP = 'MATRIX_SET_DIAG';

interface MatrixSetDiagOpData {
  batches: number;
  rows: number;
  cols: number;
  diag: number;
  size: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const input = getInput(context, node, 0, OP);
  const diagonal = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  const size = fixedElementSize(OP, node, 'input', input);
  expectSameType(OP, node, 'input and diagonal', input, diagonal);
  expectSameType(OP, node, 'input and output', input, output);
  const r = input.dims.length;
  if (r < 2) throw new KernelError(OP, node.index, 'the input must have at least 2 dimensions');
  const rows = input.dims[r - 2]!;
  const cols = input.dims[r - 1]!;
  const diag = Math.min(rows, cols);
  const want = [...Array.from(input.dims).slice(0, r - 2), diag];
  if (!sameDims(diagonal.dims, want))
    throw new KernelError(OP, node.index, `diagonal has shape [${diagonal.dims.join(',')}], expected [${want.join(',')}]`);
  setOutputShape(OP, context, node, 0, input.dims);
  fillOpData<MatrixSetDiagOpData>(OP, node, { batches: diag === 0 ? 0 : diagonal.elementCount / diag, rows, cols, diag, size });
}

function invoke(context: TfLiteContext, node: Node): void {
  const { batches, rows, cols, diag, size } = opData<MatrixSetDiagOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).bytes;
  const dg = context.getEvalTensor(node.inputs[1]!).bytes;
  const y = context.getEvalTensor(node.outputs[0]!).bytes;
  if (x.byteOffset !== y.byteOffset || x.buffer !== y.buffer) copyElements(x, 0, y, 0, batches * rows * cols, size);
  for (let b = 0; b < batches; b++) for (let i = 0; i < diag; i++) copyElements(dg, b * diag + i, y, (b * rows + i) * cols + i, 1, size);
}

/** MATRIX_SET_DIAG registration (op version 1). */
export const MATRIX_SET_DIAG: Registration = {
  builtinCode: BuiltinOperator.MATRIX_SET_DIAG,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 2, 1) ?? supportsFixedSize(context, node, 0),
  init: newOpData,
  prepare,
  invoke,
};
