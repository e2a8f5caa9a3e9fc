/**
 * LSTM (TFLite lstm.cc, the full kernel), float32: one step of TFLite's LSTM cell with every variant its
 * float kernel runs — CIFG, peephole, layer normalization, projection with clip, cell clip
 * (lstm-full-float.ts). Inputs (20, or 24 with the layer norm coefficients): 0 input [batch, nInput],
 * 1–4 input-to-{input, forget, cell, output} weights, 5–8 recurrent weights, 9–11 peephole weights,
 * 12–15 gate biases, 16 projection weights, 17 projection bias, 18 output state and 19 cell state
 * (variables), 20–23 layer norm coefficients. Output [batch, nOutput]: the new output state.
 *
 * With int8/uint8 weights, TFLite's hybrid cell (lstm-hybrid.ts); with an int8 input, TFLite's
 * 8x8_16 integer cell (lstm-integer-tflite.ts: int16 cell state, 5 intermediate tensors). With
 * LSTMOptions.kernel_type 1, the BASIC kernel (lstm-basic.ts: 5 inputs, 4 outputs, float32 or uint8).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  type LSTMOptions,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, expectType, opData, setOutputShape, shapeText } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { BasicLstmCell } from './lstm-basic.js';
import { TfliteIntegerLstmCell } from './lstm-integer-tflite.js';
import type { FullLstmInputs } from './lstm-full-float.js';
import {
  checkFullLstmCell,
  checkLstmState,
  fullLstmDecline,
  lstmWeightType,
  newLstmCell,
  type LstmCellRunner,
} from './lstm-full-prepare.js';

const OP = 'LSTM';
const OUTPUT_STATE = 18;
const CELL_STATE = 19;
const AT: FullLstmInputs = {
  inputWeights: [1, 2, 3, 4],
  auxWeights: [-1, -1, -1, -1],
  recurrentWeights: [5, 6, 7, 8],
  peephole: [9, 10, 11],
  biases: [12, 13, 14, 15],
  projectionWeights: 16,
  projectionBias: 17,
  layerNorm: [20, 21, 22, 23],
};
const WEIGHTS = [1, 2, 3, 4, 5, 6, 7, 8, 16];
const EMPTY = new Float32Array(0);

interface LstmOpData {
  cell: LstmCellRunner | null;
  integer: TfliteIntegerLstmCell | null;
  basic: BasicLstmCell | null;
  batch: number;
}

function prepare(context: TfLiteContext, node: Node): void {
  const options = node.builtinData as LSTMOptions | null;
  if (!options) throw new KernelError(OP, node.index, 'missing LSTMOptions');
  const d = opData<LstmOpData>(OP, node);
  if (options.kernelType === 1) {
    d.basic = new BasicLstmCell(OP, context, node);
    return;
  }
  if (options.kernelType !== 0) throw new KernelError(OP, node.index, `unknown LSTM kernel_type ${options.kernelType}`);
  if (node.inputs.length !== 20) checkArity(OP, node, 24, 1);
  else checkArity(OP, node, 20, 1);
  const input = getInput(context, node, 0, OP);
  if (input.dims.length !== 2)
    throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be 2-D, got ${shapeText(input.dims)}`);
  const nBatch = input.dims[0]!;
  if (input.type === TensorType.INT8) {
    const cell = new TfliteIntegerLstmCell(OP, context, node, nBatch, Math.fround(options.cellClip), Math.fround(options.projClip));
    expectType(OP, node, 'output', setOutputShape(OP, context, node, 0, [nBatch, cell.nOutput]), TensorType.INT8);
    d.integer = cell;
    d.batch = nBatch;
    return;
  }
  expectType(OP, node, 'input', input, TensorType.FLOAT32);
  const weightType = lstmWeightType(context, node, AT);
  const o = { activation: options.fusedActivationFunction, cellClip: options.cellClip, projClip: options.projClip };
  const shape = checkFullLstmCell(OP, context, node, AT, nBatch, input.dims[1]!, 0, o, weightType);
  checkLstmState(OP, node, getInput(context, node, OUTPUT_STATE, OP), 'output state', nBatch, shape.nOutput);
  checkLstmState(OP, node, getInput(context, node, CELL_STATE, OP), 'cell state', nBatch, shape.nCell);
  expectType(OP, node, 'output', setOutputShape(OP, context, node, 0, [nBatch, shape.nOutput]), TensorType.FLOAT32);
  d.cell = newLstmCell(OP, context, node, shape, AT, nBatch, weightType, options.asymmetricQuantizeInputs);
  d.batch = nBatch;
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<LstmOpData>(OP, node);
  if (d.basic !== null) {
    d.basic.run(context, node);
    return;
  }
  const integer = d.integer;
  if (integer !== null) {
    integer.bind(context, node);
    integer.step(
      context.getEvalTensor(node.inputs[0]!).data as Int8Array,
      context.getEvalTensor(node.inputs[OUTPUT_STATE]!).data as Int8Array,
      context.getEvalTensor(node.inputs[CELL_STATE]!).data as Int16Array,
      context.getEvalTensor(node.outputs[0]!).data as Int8Array,
    );
    return;
  }
  const cell = d.cell!;
  cell.bind(context, node);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const h = context.getEvalTensor(node.inputs[OUTPUT_STATE]!).data as Float32Array;
  const c = context.getEvalTensor(node.inputs[CELL_STATE]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  cell.step(d.batch, x, 0, EMPTY, 0, h, 0, c, 0, y, 0, cell.shape.nOutput);
}

/** LSTM registration (the full float, hybrid and 8x8_16 integer kernels, the BASIC kernel; op versions 1..4). */
export const LSTM: Registration<LstmOpData> = {
  builtinCode: BuiltinOperator.LSTM,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => {
    const options = node.builtinData as LSTMOptions | null;
    if (options && options.kernelType === 1) return declineArity(node, 5, 4) ?? true;
    if (options && options.kernelType !== 0) return `unknown LSTM kernel_type ${options.kernelType}`;
    const arity = declineArity(node, node.inputs.length === 20 ? 20 : 24, 1);
    if (arity !== null) return arity;
    const x = node.inputs.length > 0 && node.inputs[0]! >= 0 ? context.getTensor(node.inputs[0]!) : null;
    return x?.type === TensorType.INT8 ? true : fullLstmDecline(context, node, WEIGHTS);
  },
  init: () => ({ cell: null, integer: null, basic: null, batch: 0 }),
  prepare,
  invoke,
};
