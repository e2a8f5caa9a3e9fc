/**
 * LSTM's BASIC kernel (LSTMOptions.kernel_type 1; TFLite lstm.cc `basic`, reference_ops LstmCell, TFLite
 * 2.9): one fused cell of 5 inputs — input [batch, inDepth], previous activation [batch, depth], weights
 * [4·depth, inDepth + depth], bias [4·depth], previous state [batch, depth] — and 4 outputs: activation,
 * state, the concatenated input [batch, inDepth + depth] and the fully connected output [batch, 4·depth]
 * (gates in the order input, input modulation, forget, output). After the step TFLite copies the new
 * activation and state into the previous-activation and previous-state inputs; so does this kernel
 * (unless those are constants).
 *
 * Float32, or the quantized cell `LstmCell<4>`: uint8 activations on [-1, 127/128] (offset 128),
 * uint8 weights with their zero point, int32 bias, the fully connected output int16 Q3.12 (multiplier
 * 4096 · bias scale), an int16 state with 4 integer bits (scale 2^-11), gemmlowp's int16 sigmoid and tanh.
 */
import {
  KernelError,
  TensorType,
  multiplyByQuantizedMultiplier,
  quantizeMultiplier,
  roundHalfAwayFromZero,
  roundingDivideByPOT,
  saturatingAddInt16,
  saturatingRoundingDoublingHighMulInt16,
  tensorTypeName,
  type Node,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import {
  gemmlowpLogisticInt16,
  gemmlowpTanhInt16,
  saturatingRoundingMultiplyByPOTInt16,
  setOutputShape,
  shapeText,
} from '@micrort/kernel-support';

const INPUT = 0;
const PREV_ACTIV = 1;
const WEIGHTS = 2;
const BIAS = 3;
const PREV_STATE = 4;
const OUT_ACTIV = 0;
const OUT_STATE = 1;
const OUT_CONCAT = 2;
const OUT_ACTIV_TEMP = 3;
/** The quantized cell's state integer bits (TFLite supports 4 only). */
const STATE_INTEGER_BITS = 4;

const F32 = [TensorType.FLOAT32, TensorType.FLOAT32, TensorType.FLOAT32, TensorType.FLOAT32, TensorType.FLOAT32];
const Q_IN = [TensorType.UINT8, TensorType.UINT8, TensorType.UINT8, TensorType.INT32, TensorType.INT16];
const Q_OUT = [TensorType.UINT8, TensorType.INT16, TensorType.UINT8, TensorType.INT16];

/** The BASIC cell of one node: geometry and, for uint8, the fully connected node's requantization. */
export class BasicLstmCell {
  readonly quantized: boolean;
  readonly batches: number;
  readonly inDepth: number;
  readonly depth: number;
  /** Weights zero point, accumulator multiplier and shift (the multiplier is beyond V8's small ints). */
  private readonly q: Int32Array;
  private readonly copyActiv: boolean;
  private readonly copyState: boolean;

  constructor(op: string, context: TfLiteContext, node: Node) {
    const fail = (msg: string): never => {
      throw new KernelError(op, node.index, msg);
    };
    if (node.inputs.length !== 5 || node.outputs.length !== 4)
      fail(`the BASIC LSTM kernel takes 5 inputs and 4 outputs, got ${node.inputs.length} and ${node.outputs.length}`);
    const ins = [0, 1, 2, 3, 4].map((i) => {
      const t = node.inputs[i]!;
      return t >= 0 ? context.getTensor(t) : fail(`input ${i} of the BASIC LSTM kernel is missing`);
    });
    const input = ins[INPUT]!;
    const prevActiv = ins[PREV_ACTIV]!;
    const weights = ins[WEIGHTS]!;
    const bias = ins[BIAS]!;
    const prevState = ins[PREV_STATE]!;
    const is2d = (t: Tensor, what: string) => {
      if (t.dims.length !== 2) fail(`${what} (tensor ${t.index}) must be 2-D, got ${shapeText(t.dims)}`);
    };
    is2d(input, 'input');
    is2d(prevActiv, 'previous activation');
    is2d(weights, 'weights');
    is2d(prevState, 'previous state');
    this.batches = input.dims[0]!;
    this.inDepth = input.dims[1]!;
    this.depth = prevActiv.dims[1]!;
    const { batches, inDepth, depth } = this;
    const total = inDepth + depth;
    if (prevActiv.dims[0] !== batches) fail(`previous activation has ${prevActiv.dims[0]} rows, the input ${batches}`);
    if (weights.dims[0] !== 4 * depth || weights.dims[1] !== total)
      fail(`weights (tensor ${weights.index}) have shape ${shapeText(weights.dims)}, expected [${4 * depth}, ${total}]`);
    if (bias.dims.length !== 1 || bias.dims[0] !== 4 * depth)
      fail(`bias (tensor ${bias.index}) has shape ${shapeText(bias.dims)}, expected [${4 * depth}]`);
    if (prevState.dims[0] !== batches || prevState.dims[1] !== depth)
      fail(`previous state (tensor ${prevState.index}) has shape ${shapeText(prevState.dims)}, expected [${batches}, ${depth}]`);
    const outs = [
      setOutputShape(op, context, node, OUT_ACTIV, [batches, depth]),
      setOutputShape(op, context, node, OUT_STATE, [batches, depth]),
      setOutputShape(op, context, node, OUT_CONCAT, [batches, total]),
      setOutputShape(op, context, node, OUT_ACTIV_TEMP, [batches, 4 * depth]),
    ];
    const types = (ts: Tensor[], want: TensorType[]) => ts.every((t, i) => t.type === want[i]);
    this.quantized = types(ins, Q_IN) && types(outs, Q_OUT);
    if (!this.quantized && !(types(ins, F32) && types(outs, F32)))
      fail(
        `unsupported types ${ins.map((t) => tensorTypeName(t.type)).join(', ')} → ${outs.map((t) => tensorTypeName(t.type)).join(', ')}: float32, or uint8, uint8, uint8, int32, int16 → uint8, int16, uint8, int16`,
      );
    this.q = context.allocatePersistentBuffer(12).i32;
    if (this.quantized) {
      const stateScale = outs[OUT_STATE]!.params.scale;
      const log2 = Math.log2(stateScale);
      const rounded = roundHalfAwayFromZero(log2);
      if (!(stateScale > 0) || Math.abs(log2 - rounded) >= 1e-3)
        fail(`the state (tensor ${outs[OUT_STATE]!.index}) must have a power-of-two scale, got ${stateScale}`);
      if (15 + rounded !== STATE_INTEGER_BITS)
        fail(`the quantized LSTM cell takes a state with ${STATE_INTEGER_BITS} integer bits (scale 2^-11), got 2^${rounded}`);
      const real = 4096 * bias.params.scale;
      if (!(real > 0 && real < Infinity)) fail(`bias (tensor ${bias.index}) needs a positive finite scale`);
      const q = quantizeMultiplier(real);
      this.q[0] = weights.params.zeroPoint;
      this.q[1] = q.multiplier;
      this.q[2] = q.shift;
    }
    this.copyActiv = !prevActiv.isConstant;
    this.copyState = !prevState.isConstant;
  }

  /** One step: concatenation, the fully connected node, the gates, the outputs; then the copies back. */
  run(context: TfLiteContext, node: Node): void {
    const x = context.getEvalTensor(node.inputs[INPUT]!).data;
    const prevActiv = context.getEvalTensor(node.inputs[PREV_ACTIV]!).data;
    const w = context.getEvalTensor(node.inputs[WEIGHTS]!).data;
    const bias = context.getEvalTensor(node.inputs[BIAS]!).data;
    const prevState = context.getEvalTensor(node.inputs[PREV_STATE]!).data;
    const activ = context.getEvalTensor(node.outputs[OUT_ACTIV]!).data;
    const state = context.getEvalTensor(node.outputs[OUT_STATE]!).data;
    const concat = context.getEvalTensor(node.outputs[OUT_CONCAT]!).data;
    const activTemp = context.getEvalTensor(node.outputs[OUT_ACTIV_TEMP]!).data;
    if (this.quantized)
      this.runQuantized(
        x as Uint8Array,
        prevActiv as Uint8Array,
        w as Uint8Array,
        bias as Int32Array,
        prevState as Int16Array,
        activ as Uint8Array,
        state as Int16Array,
        concat as Uint8Array,
        activTemp as Int16Array,
      );
    else
      this.runFloat(
        x as Float32Array,
        prevActiv as Float32Array,
        w as Float32Array,
        bias as Float32Array,
        prevState as Float32Array,
        activ as Float32Array,
        state as Float32Array,
        concat as Float32Array,
        activTemp as Float32Array,
      );
    const n = this.batches * this.depth;
    if (this.copyActiv) for (let i = 0; i < n; i++) prevActiv[i] = activ[i]!;
    if (this.copyState) for (let i = 0; i < n; i++) prevState[i] = state[i]!;
  }

  private concat(x: Uint8Array | Float32Array, prev: Uint8Array | Float32Array, concat: Uint8Array | Float32Array): void {
    const { batches, inDepth, depth } = this;
    const total = inDepth + depth;
    for (let b = 0; b < batches; b++) {
      for (let i = 0; i < inDepth; i++) concat[b * total + i] = x[b * inDepth + i]!;
      for (let i = 0; i < depth; i++) concat[b * total + inDepth + i] = prev[b * depth + i]!;
    }
  }

  private runQuantized(
    x: Uint8Array,
    prevActiv: Uint8Array,
    w: Uint8Array,
    bias: Int32Array,
    prevState: Int16Array,
    activ: Uint8Array,
    state: Int16Array,
    concat: Uint8Array,
    activTemp: Int16Array,
  ): void {
    const { batches, depth } = this;
    const total = this.inDepth + depth;
    const fcDepth = 4 * depth;
    this.concat(x, prevActiv, concat);
    const wZp = this.q[0]!;
    const mult = this.q[1]!;
    const shift = this.q[2]!;
    for (let b = 0; b < batches; b++)
      for (let o = 0; o < fcDepth; o++) {
        let acc = bias[o]!;
        for (let d = 0; d < total; d++) acc = (acc + (concat[b * total + d]! - 128) * (w[o * total + d]! - wZp)) | 0;
        const v = multiplyByQuantizedMultiplier(acc, mult, shift);
        activTemp[b * fcDepth + o] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
      }
    for (let b = 0; b < batches; b++)
      for (let c = 0; c < depth; c++) {
        const at = b * fcDepth + c;
        const inputGate = gemmlowpLogisticInt16(activTemp[at]!, 3);
        const modulation = gemmlowpTanhInt16(activTemp[at + depth]!, 3);
        const forgetGate = gemmlowpLogisticInt16(activTemp[at + 2 * depth]!, 3);
        const outputGate = gemmlowpLogisticInt16(activTemp[at + 3 * depth]!, 3);
        const inputTimesModulation = saturatingRoundingDoublingHighMulInt16(inputGate, modulation);
        const prevTimesForget = saturatingRoundingDoublingHighMulInt16(forgetGate, prevState[b * depth + c]!);
        const newState = saturatingAddInt16(roundingDivideByPOT(inputTimesModulation, STATE_INTEGER_BITS), prevTimesForget);
        const newStateF3 = saturatingRoundingMultiplyByPOTInt16(newState, STATE_INTEGER_BITS - 3);
        const outputActiv = saturatingRoundingDoublingHighMulInt16(outputGate, gemmlowpTanhInt16(newStateF3, 3));
        state[b * depth + c] = newState;
        const r = roundingDivideByPOT(outputActiv, 8);
        activ[b * depth + c] = 128 + (r > 127 ? 127 : r < -128 ? -128 : r);
      }
  }

  private runFloat(
    x: Float32Array,
    prevActiv: Float32Array,
    w: Float32Array,
    bias: Float32Array,
    prevState: Float32Array,
    activ: Float32Array,
    state: Float32Array,
    concat: Float32Array,
    activTemp: Float32Array,
  ): void {
    const { batches, depth } = this;
    const total = this.inDepth + depth;
    const fcDepth = 4 * depth;
    this.concat(x, prevActiv, concat);
    for (let b = 0; b < batches; b++)
      for (let o = 0; o < fcDepth; o++) {
        let acc = 0;
        for (let d = 0; d < total; d++) acc = Math.fround(acc + Math.fround(concat[b * total + d]! * w[o * total + d]!));
        activTemp[b * fcDepth + o] = Math.fround(acc + bias[o]!);
      }
    for (let b = 0; b < batches; b++)
      for (let c = 0; c < depth; c++) {
        const at = b * fcDepth + c;
        // 1 / (1 + exp(-x)) in float, inline (no double crosses a call).
        const inputGate = Math.fround(1 / Math.fround(1 + Math.fround(Math.exp(-activTemp[at]!))));
        const modulation = Math.fround(Math.tanh(activTemp[at + depth]!));
        const forgetGate = Math.fround(1 / Math.fround(1 + Math.fround(Math.exp(-activTemp[at + 2 * depth]!))));
        const outputGate = Math.fround(1 / Math.fround(1 + Math.fround(Math.exp(-activTemp[at + 3 * depth]!))));
        const newState = Math.fround(Math.fround(inputGate * modulation) + Math.fround(forgetGate * prevState[b * depth + c]!));
        state[b * depth + c] = newState;
        activ[b * depth + c] = Math.fround(outputGate * Math.fround(Math.tanh(newState)));
      }
  }
}
