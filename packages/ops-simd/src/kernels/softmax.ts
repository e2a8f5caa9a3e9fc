/**
 * SOFTMAX with int8 input and int8 (or int16) output, as TFLM's CMSIS-NN kernel (kernels/cmsis_nn/softmax.cc)
 * runs it: arm_softmax_s8 / arm_softmax_s8_s16 over rows of the last dimension, with TFLM's
 * PreprocessSoftmaxScaling / CalculateInputRadius parameters. int16 input (LUT-based arm_softmax_s16) and
 * float are declined. No scratch.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  quantizeMultiplier,
  type Node,
  type Registration,
  type SoftmaxOptions,
  type TfLiteContext,
} from '@micrort/core';
import { softmaxS8Emu, softmaxS8Fast, type SoftmaxParams } from '../cmsis/softmax-s8.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { expectQuantized } from './conv-common.js';
import { arityReason, int8Reason } from './supports-common.js';

const OP = 'SOFTMAX';
const SCALED_DIFF_INTEGER_BITS = 5;

interface SoftmaxData {
  g: SoftmaxParams;
  emu: NodeEmulation;
}

/**
 * TFLite PreprocessSoftmaxScaling (double rounding build): `min(beta * input_scale * 2^(31 - 5), 2^31 - 1)`
 * quantized with QuantizeMultiplierGreaterThanOne.
 */
export function preprocessSoftmaxScaling(beta: number, inputScale: number): { multiplier: number; leftShift: number } {
  const real = Math.min(beta * inputScale * Math.pow(2, 31 - SCALED_DIFF_INTEGER_BITS), 2147483647);
  const q = quantizeMultiplier(real);
  return { multiplier: q.multiplier, leftShift: q.shift };
}

/** TFLite CalculateInputRadius(5, leftShift): floor(31 * 2^26 / 2^leftShift). */
export function calculateInputRadius(leftShift: number): number {
  return Math.floor((((1 << SCALED_DIFF_INTEGER_BITS) - 1) * Math.pow(2, 31 - SCALED_DIFF_INTEGER_BITS)) / Math.pow(2, leftShift));
}

function supported(context: TfLiteContext, node: Node): true | string {
  return arityReason(node, 1, 1) ?? int8Reason(context, node, [0], [TensorType.INT16]) ?? true;
}

function prepare(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxData;
  const params = node.builtinData as SoftmaxOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing SoftmaxOptions');
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  if (input.type !== TensorType.INT8) throw new KernelError(OP, node.index, `input (tensor ${input.index}) must be int8`);
  expectQuantized(OP, node, 'input', input);
  expectQuantized(OP, node, 'output', output);
  if (input.dims.length < 1 || input.elementCount !== output.elementCount) {
    throw new KernelError(
      OP,
      node.index,
      `input [${Array.from(input.dims).join(', ')}] and output [${Array.from(output.dims).join(', ')}] must have the same size`,
    );
  }
  const g = data.g;
  if (output.type === TensorType.INT8) {
    if (output.params.zeroPoint !== -128 || Math.abs(output.params.scale - 1 / 256) > 0.001 / 256) {
      throw new KernelError(
        OP,
        node.index,
        `int8 output must have scale 1/256 and zero point -128, got ${output.params.scale} and ${output.params.zeroPoint}`,
      );
    }
    g.outBits = 8;
  } else if (output.type === TensorType.INT16) {
    if (output.params.zeroPoint !== -32768 || Math.abs(output.params.scale - 1 / 65536) > 0.001 / 65536) {
      throw new KernelError(
        OP,
        node.index,
        `int16 output must have scale 1/65536 and zero point -32768, got ${output.params.scale} and ${output.params.zeroPoint}`,
      );
    }
    g.outBits = 16;
  } else {
    throw new KernelError(OP, node.index, `output (tensor ${output.index}) must be int8 or int16`);
  }
  if (!Number.isFinite(params.beta)) throw new KernelError(OP, node.index, `beta must be finite, got ${params.beta}`);
  const q = preprocessSoftmaxScaling(Math.fround(params.beta), input.params.scale);
  if (q.leftShift < 0) throw new KernelError(OP, node.index, `beta * input scale gives a negative left shift ${q.leftShift}`);
  g.rowSize = input.dims[input.dims.length - 1]!;
  g.rows = g.rowSize === 0 ? 0 : input.elementCount / g.rowSize;
  g.mult = q.multiplier;
  g.shift = q.leftShift;
  g.diffMin = Math.trunc(-1.0 * calculateInputRadius(q.leftShift));
  data.emu = nodeEmulation(o, node, OP, g.outBits === 8 ? 'arm_softmax_s8' : 'arm_softmax_s8_s16');
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as SoftmaxData;
  const input = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const output = context.getEvalTensor(node.outputs[0]!).data as Int8Array | Int16Array;
  const m = data.emu.machine;
  if (m === null) {
    softmaxS8Fast(data.g, input, output);
    return;
  }
  data.emu.record!.invocations++;
  softmaxS8Emu(m, data.g, input, output);
}

/** Creates the SOFTMAX registration for the given options. */
export function createSoftmax(o: ResolvedOptions): Registration<SoftmaxData> {
  return {
    builtinCode: BuiltinOperator.SOFTMAX,
    version: 3,
    provider: PROVIDER,
    name: 'SOFTMAX/cmsis-nn-s8',
    supports: supported,
    init: (): SoftmaxData => ({
      g: { rows: 0, rowSize: 0, mult: 0, shift: 0, diffMin: 0, outBits: 8 },
      emu: { machine: null, record: null },
    }),
    prepare: (context, node) => prepare(o, context, node),
    invoke,
  };
}
