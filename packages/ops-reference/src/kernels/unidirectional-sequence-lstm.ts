/**
 * UNIDIRECTIONAL_SEQUENCE_LSTM reference kernel (TFLM kernels/unidirectional_sequence_lstm.cc,
 * lstm_eval.cc, lstm_eval_common.cc): the standard (Keras) LSTM, float32, int8 x int8 -> int16 cell
 * (int32 bias) and int16 x int8 -> int16 cell (int64 bias), time-major or batch-major, with cell clip.
 *
 * The float variants TFLM's kernel rejects and TFLite runs — CIFG (no input gate), peephole, projection,
 * layer normalization — take TFLite's full float cell, and float32 input with int8/uint8 weights TFLite's
 * hybrid cell (EvalHybrid), both through unidirectional-sequence-lstm-full.ts; the
 * integer kernels reject them, as TFLM's. The node's intermediate tensors are not used (TFLM's integer LSTM
 * works on fixed Q3.12 gate inputs and Q0.15 gate outputs).
 *
 * Inputs: see `LstmTensor`; 18 (hidden state) and 19 (cell state) are variable tensors that persist across
 * invokes. Output: [batch, time, state] (or [time, batch, state] when time-major), the hidden state of
 * every step.
 */
import {
  ActivationFunctionType,
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  numElements,
  quantizeMultiplier,
  roundHalfAwayFromZero,
  tensorTypeName,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
  type UnidirectionalSequenceLSTMOptions,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import {
  GATE_BIAS,
  GATE_INPUT_WEIGHTS,
  GATE_NAMES,
  GATE_RECURRENT_WEIGHTS,
  Gate,
  LstmParam,
  LstmTensor,
  fcBase,
  hiddenTanhParams,
  type LstmSizeInfo,
} from './lstm-common.js';
import { FloatLstmEval } from './lstm-eval-float.js';
import { IntegerLstmEval } from './lstm-eval-integer.js';
import { FullSequenceLstm, prepareFullSequenceLstm, usesFullFloatCell } from './unidirectional-sequence-lstm-full.js';
import { opData, setOutputShape, typeRange } from '@micrort/kernel-support';

const OP = 'UNIDIRECTIONAL_SEQUENCE_LSTM';
/** Q3.12: the scale of the gate fully connected outputs (inputs of sigmoid/tanh). */
const NONLINEAR_INPUT_SCALE = Math.pow(2, -12);
/** Q0.15: the scale of the sigmoid/tanh outputs. */
const NONLINEAR_OUTPUT_SCALE = Math.pow(2, -15);

/** Per-node data. Numeric parameters live in `params`, a persistent arena buffer (see `LstmParam`). */
interface LstmOpData {
  params: Int32Array;
  eval: FloatLstmEval | IntegerLstmEval | FullSequenceLstm | null;
}

function init(context: TfLiteContext): LstmOpData {
  const region = context.allocatePersistentBuffer(LstmParam.COUNT * 4);
  return { params: region.i32, eval: null };
}

function fail(node: Node, detail: string): never {
  throw new KernelError(OP, node.index, detail);
}

function shapeOf(t: Tensor): string {
  return `[${Array.from(t.dims).join(', ')}]`;
}

/** The node's tensor at input `i`, or null when omitted. */
function optionalInput(context: TfLiteContext, node: Node, i: number): Tensor | null {
  const idx = node.inputs[i]!;
  return idx < 0 ? null : context.getTensor(idx);
}

function requiredInput(context: TfLiteContext, node: Node, i: number, what: string): Tensor {
  const t = optionalInput(context, node, i);
  if (t === null) fail(node, `${what} (input ${i}) is missing`);
  return t;
}

/** TFLM LstmTensors::ValidateTensorStatus plus the variant checks, returning the tensors the kernel uses. */
function validateTensors(context: TfLiteContext, node: Node) {
  const input = requiredInput(context, node, LstmTensor.INPUT, 'input');
  const hidden = requiredInput(context, node, LstmTensor.OUTPUT_STATE, 'hidden state');
  const cell = requiredInput(context, node, LstmTensor.CELL_STATE, 'cell state');
  const output = context.getTensor(node.outputs[0]!);
  if (!hidden.isVariable) fail(node, `hidden state (tensor ${hidden.index}) must be a variable tensor`);
  if (!cell.isVariable) fail(node, `cell state (tensor ${cell.index}) must be a variable tensor`);
  if (hidden.type !== input.type)
    fail(node, `hidden state type ${tensorTypeName(hidden.type)} differs from input type ${tensorTypeName(input.type)}`);
  if (output.type !== input.type)
    fail(node, `output type ${tensorTypeName(output.type)} differs from input type ${tensorTypeName(input.type)}`);

  if (optionalInput(context, node, LstmTensor.INPUT_TO_INPUT_WEIGHTS) === null)
    fail(node, 'CIFG LSTM (no input gate weights, input 1) is not supported (TFLM supports the standard LSTM only)');
  const variants: [number, number, string][] = [
    [LstmTensor.CELL_TO_INPUT_WEIGHTS, LstmTensor.CELL_TO_OUTPUT_WEIGHTS, 'peephole connections'],
    [LstmTensor.PROJECTION_WEIGHTS, LstmTensor.PROJECTION_BIAS, 'projection'],
    [LstmTensor.INPUT_LAYER_NORM_COEFFICIENTS, LstmTensor.OUTPUT_LAYER_NORM_COEFFICIENTS, 'layer normalization'],
  ];
  for (const [first, last, name] of variants)
    for (let i = first; i <= last; i++)
      if (optionalInput(context, node, i) !== null)
        fail(node, `${name} (input ${i}) is not supported (TFLM supports the standard LSTM only)`);

  const inputWeights = GATE_INPUT_WEIGHTS.map((i, g) => requiredInput(context, node, i, `input-to-${GATE_NAMES[g]} weights`));
  const recurrentWeights = GATE_RECURRENT_WEIGHTS.map((i, g) => requiredInput(context, node, i, `recurrent-to-${GATE_NAMES[g]} weights`));
  const biases = GATE_BIAS.map((i, g) => requiredInput(context, node, i, `${GATE_NAMES[g]} gate bias`));
  const weightType = inputWeights[Gate.FORGET]!.type;
  for (const w of [...inputWeights, ...recurrentWeights])
    if (w.type !== weightType)
      fail(
        node,
        `weight tensor ${w.index} has type ${tensorTypeName(w.type)}, expected ${tensorTypeName(weightType)} like the other weights`,
      );
  const biasType = biases[Gate.FORGET]!.type;
  for (const b of biases)
    if (b.type !== biasType)
      fail(node, `bias tensor ${b.index} has type ${tensorTypeName(b.type)}, expected ${tensorTypeName(biasType)} like the other biases`);
  return { input, hidden, cell, output, inputWeights, recurrentWeights, biases, weightType, biasType };
}

type LstmTensors = ReturnType<typeof validateTensors>;

/** TFLM CreateLstmSizeInfo + ValidateTensorSize. */
function validateSizes(node: Node, t: LstmTensors, timeMajor: boolean): LstmSizeInfo {
  const { input, hidden, cell, output } = t;
  if (input.dims.length !== 3) fail(node, `input (tensor ${input.index}) must be 3-D, got ${shapeOf(input)}`);
  if (hidden.dims.length !== 2) fail(node, `hidden state (tensor ${hidden.index}) must be 2-D, got ${shapeOf(hidden)}`);
  const size: LstmSizeInfo = {
    timeMajor,
    batchSize: timeMajor ? input.dims[1]! : input.dims[0]!,
    timeSteps: timeMajor ? input.dims[0]! : input.dims[1]!,
    inputDimension: input.dims[2]!,
    stateDimension: hidden.dims[1]!,
  };
  const { inputDimension: I, stateDimension: S, batchSize: B } = size;
  const checkMatrix = (w: Tensor, rows: number, cols: number) => {
    if (w.dims.length !== 2 || w.dims[0] !== rows || w.dims[1] !== cols)
      fail(node, `weight tensor ${w.index} has shape ${shapeOf(w)}, expected [${rows}, ${cols}]`);
  };
  for (const w of t.inputWeights) checkMatrix(w, S, I);
  for (const w of t.recurrentWeights) checkMatrix(w, S, S);
  for (const b of t.biases)
    if (b.dims.length !== 1 || b.dims[0] !== S) fail(node, `bias tensor ${b.index} has shape ${shapeOf(b)}, expected [${S}]`);
  if (numElements(hidden.dims) !== B * S)
    fail(node, `hidden state (tensor ${hidden.index}) has ${numElements(hidden.dims)} elements, expected batch ${B} x state ${S}`);
  if (numElements(cell.dims) !== B * S)
    fail(node, `cell state (tensor ${cell.index}) has ${numElements(cell.dims)} elements, expected batch ${B} x state ${S}`);
  if (output.dims.length !== 3 || output.dims[0] !== input.dims[0] || output.dims[1] !== input.dims[1] || output.dims[2] !== S)
    fail(node, `output (tensor ${output.index}) has shape ${shapeOf(output)}, expected [${input.dims[0]}, ${input.dims[1]}, ${S}]`);
  return size;
}

/** Throws unless `t` has a positive, finite quantization scale (else the multipliers are NaN or infinite). */
function requireScale(node: Node, what: string, t: Tensor): void {
  const s = t.params.scale;
  if (!(s > 0 && s < Infinity))
    fail(node, `${what} (tensor ${t.index}) needs a positive finite quantization scale, got ${t.quantization ? s : 'none'}`);
}

/** quantizeMultiplier of a multiplier checked to be finite (scale products can still overflow). */
function checkedMultiplier(node: Node, real: number, what: string) {
  if (!(real >= 0 && real < Infinity)) fail(node, `${what}: effective scale ${real} is not a finite non-negative number`);
  return quantizeMultiplier(real);
}

/** Writes one fully connected block (TFLM CalculateOpDataFullyConnected + FullyConnectedParamsQuantized). */
function writeFcParams(node: Node, p: Int32Array, base: number, x: Tensor, w: Tensor): void {
  if (w.quantization === null || w.quantization.scale.length !== 1)
    fail(node, `weight tensor ${w.index} must be per-tensor quantized (got ${w.quantization?.scale.length ?? 0} scales)`);
  requireScale(node, 'weight tensor', w);
  // GetQuantizedConvolutionMultipler: float product of the scales, widened, over the Q3.12 output scale.
  const productScale = Math.fround(x.params.scale * w.params.scale);
  if (!(productScale >= 0)) fail(node, `negative scale product ${productScale} for weight tensor ${w.index}`);
  const q = checkedMultiplier(node, productScale / NONLINEAR_INPUT_SCALE, `weight tensor ${w.index}`);
  p[base + LstmParam.FC_IN_OFFSET] = -x.params.zeroPoint;
  p[base + LstmParam.FC_WEIGHTS_OFFSET] = -w.params.zeroPoint;
  p[base + LstmParam.FC_OUT_OFFSET] = 0;
  p[base + LstmParam.FC_MULTIPLIER] = q.multiplier;
  p[base + LstmParam.FC_SHIFT] = q.shift;
  p[base + LstmParam.FC_ACT_MIN] = -32768;
  p[base + LstmParam.FC_ACT_MAX] = 32767;
}

/** Writes one element-wise multiplication block (TFLM CreateInterGateMulParams). */
function writeMulParams(
  node: Node,
  p: Int32Array,
  base: number,
  scale1: number,
  scale2: number,
  outScale: number,
  outType: TensorType,
  outZeroPoint: number,
): void {
  const q = checkedMultiplier(node, (scale1 * scale2) / outScale, 'gate multiplication');
  const [lo, hi] = typeRange(outType);
  p[base + LstmParam.MUL_IN1_OFFSET] = 0;
  p[base + LstmParam.MUL_IN2_OFFSET] = 0;
  p[base + LstmParam.MUL_OUT_OFFSET] = outZeroPoint;
  p[base + LstmParam.MUL_MULTIPLIER] = q.multiplier;
  p[base + LstmParam.MUL_SHIFT] = q.shift;
  p[base + LstmParam.MUL_ACT_MIN] = lo;
  p[base + LstmParam.MUL_ACT_MAX] = hi;
}

/** TFLM PrepareGateParametersInteger + CreateLstmCellStateInfo. */
function prepareInteger(node: Node, p: Int32Array, t: LstmTensors, cellClip: number): void {
  const { input, hidden, cell } = t;
  requireScale(node, 'input', input);
  requireScale(node, 'hidden state', hidden);
  requireScale(node, 'cell state', cell);
  for (let g = 0; g < 4; g++) {
    writeFcParams(node, p, fcBase(g, false), input, t.inputWeights[g]!);
    writeFcParams(node, p, fcBase(g, true), hidden, t.recurrentWeights[g]!);
  }
  if (cell.quantization === null) fail(node, `cell state (tensor ${cell.index}) must be quantized`);
  const cellScale = cell.params.scale;
  writeMulParams(node, p, LstmParam.MUL_FORGET_CELL, NONLINEAR_OUTPUT_SCALE, cellScale, cellScale, TensorType.INT16, 0);
  writeMulParams(node, p, LstmParam.MUL_INPUT_CELL_GATE, NONLINEAR_OUTPUT_SCALE, NONLINEAR_OUTPUT_SCALE, cellScale, TensorType.INT16, 0);
  writeMulParams(
    node,
    p,
    LstmParam.MUL_HIDDEN,
    NONLINEAR_OUTPUT_SCALE,
    NONLINEAR_OUTPUT_SCALE,
    hidden.params.scale,
    hidden.type,
    hidden.params.zeroPoint,
  );

  // CheckedLog2 (its status is ignored by TFLM): the rounded log2 of the cell scale.
  const power = roundHalfAwayFromZero(Math.fround(Math.log2(cellScale)));
  p[LstmParam.CELL_STATE_SCALE_POWER] = power;
  const clipQ = Math.min(Math.max(cellClip / cellScale, -32768), 32767);
  p[LstmParam.QUANTIZED_CELL_CLIP] = Math.trunc(clipQ);
  const [tanhMultiplier, tanhShift] = hiddenTanhParams(power);
  p[LstmParam.HIDDEN_TANH_MULTIPLIER] = tanhMultiplier;
  p[LstmParam.HIDDEN_TANH_SHIFT] = tanhShift;
}

function checkVariantTypes(node: Node, t: LstmTensors): 'float' | 'int8' | 'int16' {
  const combo = `input ${tensorTypeName(t.input.type)}, weights ${tensorTypeName(t.weightType)}, bias ${tensorTypeName(t.biasType)}, cell state ${tensorTypeName(t.cell.type)}`;
  const is = (i: TensorType, w: TensorType, b: TensorType, c: TensorType) =>
    t.input.type === i && t.weightType === w && t.biasType === b && t.cell.type === c;
  if (is(TensorType.FLOAT32, TensorType.FLOAT32, TensorType.FLOAT32, TensorType.FLOAT32)) return 'float';
  if (is(TensorType.INT8, TensorType.INT8, TensorType.INT32, TensorType.INT16)) return 'int8';
  if (is(TensorType.INT16, TensorType.INT8, TensorType.INT64, TensorType.INT16)) return 'int16';
  fail(node, `unsupported type combination (${combo}); supported: all float32; int8/int8/int32/int16; int16/int8/int64/int16`);
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<LstmOpData>(OP, node);
  const options = node.builtinData as UnidirectionalSequenceLSTMOptions | null;
  if (!options) fail(node, 'missing UnidirectionalSequenceLSTMOptions');
  checkArity(OP, node, LstmTensor.COUNT, 1);
  if (usesFullFloatCell(context, node)) {
    data.eval = prepareFullSequenceLstm(OP, context, node, options);
    return;
  }
  const t = validateTensors(context, node);
  // The output is [time, batch, state] or [batch, time, state], as the input's first two dimensions.
  if (t.input.dims.length === 3 && t.hidden.dims.length === 2)
    setOutputShape(OP, context, node, 0, [t.input.dims[0]!, t.input.dims[1]!, t.hidden.dims[1]!]);
  const size = validateSizes(node, t, options.timeMajor);
  if (!(options.cellClip >= 0)) fail(node, `cell_clip must be >= 0, got ${options.cellClip}`);
  if (options.fusedActivationFunction !== ActivationFunctionType.TANH)
    fail(
      node,
      `unsupported cell gate activation ${ActivationFunctionType[options.fusedActivationFunction] ?? options.fusedActivationFunction} (TFLM supports TANH)`,
    );
  const variant = checkVariantTypes(node, t);

  const p = data.params;
  const cellClip = Math.fround(options.cellClip);
  const elementBytes = variant === 'float' ? 4 : 2;
  for (let i = 0; i < 4; i++)
    p[LstmParam.SCRATCH_0 + i] = context.requestScratchBufferInArena(size.batchSize * size.stateDimension * elementBytes);

  if (variant === 'float') {
    const clip = new Float32Array(p.buffer, p.byteOffset + LstmParam.CELL_CLIP_F32 * 4, 1);
    clip[0] = cellClip;
    data.eval = new FloatLstmEval(size, p, clip);
    return;
  }
  prepareInteger(node, p, t, cellClip);
  let bias64: Float64Array | null = null;
  if (variant === 'int16') {
    // int64 biases as exact doubles, so invoke reads no BigInt.
    const region = context.allocatePersistentBuffer(4 * size.stateDimension * 8);
    bias64 = new Float64Array(region.buffer, region.offset, 4 * size.stateDimension);
    for (let g = 0; g < 4; g++) {
      const b = t.biases[g]!.data as BigInt64Array;
      for (let o = 0; o < size.stateDimension; o++) {
        const v = Number(b[o]!);
        if (!Number.isSafeInteger(v))
          fail(node, `${GATE_NAMES[g]} gate bias (tensor ${t.biases[g]!.index}) element ${o} = ${b[o]} exceeds 2^53`);
        bias64[g * size.stateDimension + o] = v;
      }
    }
  }
  data.eval = new IntegerLstmEval(size, p, bias64, cellClip > 0);
}

function invoke(context: TfLiteContext, node: Node): void {
  opData<LstmOpData>(OP, node).eval!.run(context, node);
}

/** UNIDIRECTIONAL_SEQUENCE_LSTM: float32, hybrid (float32 × int8/uint8 weights), int8x8->16 and int16x8->16. */
export const UNIDIRECTIONAL_SEQUENCE_LSTM: Registration<LstmOpData> = {
  builtinCode: BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM,
  version: 4,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
