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
  type Node,
  type Registration,
  type SoftmaxOptions,
  type TfLiteContext,
} from '@micrort/core';
import { softmaxS8Emu, softmaxS8Fast, type SoftmaxParams } from '../cmsis/softmax-s8.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import {
  calculateSoftmaxInt8Params,
  declineArity,
  declineTypes,
  expectSoftmaxShape,
  expectType,
  INT8_ONLY,
  opData,
} from '@micrort/kernel-support';

const OP = 'SOFTMAX';
const INT8_OR_INT16: readonly TensorType[] = [TensorType.INT8, TensorType.INT16];

interface SoftmaxData {
  g: SoftmaxParams;
  emu: NodeEmulation;
}

function supported(context: TfLiteContext, node: Node): true | string {
  return declineArity(node, 1, 1) ?? declineTypes(context, node, [0], INT8_ONLY, INT8_OR_INT16) ?? true;
}

function prepare(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const data = opData<SoftmaxData>(OP, node);
  const params = node.builtinData as SoftmaxOptions | null;
  if (!params) throw new KernelError(OP, node.index, 'missing SoftmaxOptions');
  checkArity(OP, node, 1, 1);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'input', input, TensorType.INT8);
  expectType(OP, node, 'output', output, INT8_OR_INT16);
  const shape = expectSoftmaxShape(OP, node, input, output);
  const q = calculateSoftmaxInt8Params(OP, node, input, output, params.beta);
  const g = data.g;
  g.outBits = q.outputBits;
  g.rowSize = shape.depth;
  g.rows = shape.outer;
  g.mult = q.inputMultiplier;
  g.shift = q.inputLeftShift;
  g.diffMin = q.diffMin;
  data.emu = nodeEmulation(o, node, OP, g.outBits === 8 ? 'arm_softmax_s8' : 'arm_softmax_s8_s16');
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<SoftmaxData>(OP, node);
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
