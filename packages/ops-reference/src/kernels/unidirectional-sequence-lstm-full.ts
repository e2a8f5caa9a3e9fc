/**
 * The float UNIDIRECTIONAL_SEQUENCE_LSTM variants TFLM refuses and TFLite runs (TFLite
 * unidirectional_sequence_lstm.cc, lstm_eval.cc EvalFloat): CIFG (no input gate), peephole
 * connections, projection (with its bias and proj_clip), layer normalization, any cell activation.
 * TFLite's full float cell (lstm-full-float.ts, shared with LSTM) runs every time step: time-major as
 * one step over all batches per time, batch-major one batch row at a time (as EvalFloat does).
 *
 * The hybrid kernel (float32 activations × int8/uint8 weights, lstm_eval.cc EvalHybrid, every variant
 * and asymmetric_quantize_inputs) steps the same way through LSTM's hybrid cell (lstm-hybrid.ts).
 */
import { KernelError, TensorType, type Node, type TfLiteContext, type UnidirectionalSequenceLSTMOptions } from '@micrort/core';
import { setOutputShape, shapeText } from '@micrort/kernel-support';
import type { FullLstmInputs } from './lstm-full-float.js';
import { checkFullLstmCell, checkLstmState, lstmWeightType, newLstmCell, type LstmCellRunner } from './lstm-full-prepare.js';

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
/** Inputs whose presence makes a variant TFLM does not run (peephole, projection, layer norm). */
const VARIANT_INPUTS = [9, 10, 11, 16, 17, 20, 21, 22, 23];
const EMPTY = new Float32Array(0);

/**
 * Whether a node is a float32-input LSTM TFLM's kernel refuses: a variant (CIFG, peephole, projection,
 * layer norm) or hybrid (input-to-output weights neither float32 nor absent).
 */
export function usesFullFloatCell(context: TfLiteContext, node: Node): boolean {
  const present = (p: number) => p < node.inputs.length && node.inputs[p]! >= 0;
  if (!present(0) || context.getTensor(node.inputs[0]!).type !== TensorType.FLOAT32) return false;
  if (present(4) && context.getTensor(node.inputs[4]!).type !== TensorType.FLOAT32) return true;
  return !present(1) || VARIANT_INPUTS.some(present);
}

/** A prepared node: the cell and the sequence's geometry. */
export class FullSequenceLstm {
  constructor(
    private readonly cell: LstmCellRunner,
    private readonly timeMajor: boolean,
    private readonly steps: number,
    private readonly batches: number,
  ) {}

  run(context: TfLiteContext, node: Node): void {
    const cell = this.cell;
    cell.bind(context, node);
    const { nInput, nOutput, nCell } = cell.shape;
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const h = context.getEvalTensor(node.inputs[OUTPUT_STATE]!).data as Float32Array;
    const c = context.getEvalTensor(node.inputs[CELL_STATE]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    const { steps: T, batches: B } = this;
    if (this.timeMajor) {
      for (let t = 0; t < T; t++) cell.step(B, x, t * B * nInput, EMPTY, 0, h, 0, c, 0, y, t * B * nOutput, nOutput);
      return;
    }
    for (let b = 0; b < B; b++)
      for (let t = 0; t < T; t++) {
        const row = b * T + t;
        cell.step(1, x, row * nInput, EMPTY, 0, h, b * nOutput, c, b * nCell, y, row * nOutput, nOutput);
      }
  }
}

/** Checks the node (TFLite's CheckInputTensorDimensions) and sets the output's shape. */
export function prepareFullSequenceLstm(
  op: string,
  context: TfLiteContext,
  node: Node,
  options: UnidirectionalSequenceLSTMOptions,
): FullSequenceLstm {
  const input = context.getTensor(node.inputs[0]!);
  if (input.dims.length !== 3)
    throw new KernelError(op, node.index, `input (tensor ${input.index}) must be 3-D, got ${shapeText(input.dims)}`);
  const [d0, d1, nInput] = [input.dims[0]!, input.dims[1]!, input.dims[2]!];
  const [steps, batches] = options.timeMajor ? [d0, d1] : [d1, d0];
  const weightType = lstmWeightType(context, node, AT);
  const o = { activation: options.fusedActivationFunction, cellClip: options.cellClip, projClip: options.projClip };
  const shape = checkFullLstmCell(op, context, node, AT, batches, nInput, 0, o, weightType);
  checkLstmState(op, node, context.getTensor(node.inputs[OUTPUT_STATE]!), 'output state', batches, shape.nOutput);
  checkLstmState(op, node, context.getTensor(node.inputs[CELL_STATE]!), 'cell state', batches, shape.nCell);
  const output = setOutputShape(op, context, node, 0, [d0, d1, shape.nOutput]);
  if (output.type !== TensorType.FLOAT32) throw new KernelError(op, node.index, `output (tensor ${output.index}) must be float32`);
  const rows = options.timeMajor ? batches : 1;
  const cell = newLstmCell(op, context, node, shape, AT, rows, weightType, options.asymmetricQuantizeInputs);
  return new FullSequenceLstm(cell, options.timeMajor, steps, batches);
}
