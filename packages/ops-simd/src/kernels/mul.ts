/**
 * MUL, int8 without broadcasting, as TFLM's CMSIS-NN kernel (kernels/cmsis_nn/mul.cc) runs it:
 * arm_elementwise_mul_s8 with TFLM's CalculateOpDataMul multiplier
 * `double(scale_1) * double(scale_2) / double(output scale)`. No scratch.
 */
import { BuiltinOperator, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { elementwiseMulS8Emu, elementwiseMulS8Fast, type MulParams } from '../cmsis/elementwise-mul-s8.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { calculateOpDataMul, fusedActivation, opData } from '@micrort/kernel-support';
import { elementwiseSupported, prepareElementwise } from './elementwise-common.js';

const OP = 'MUL';

interface MulData {
  g: MulParams;
  emu: NodeEmulation;
}

function prepare(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const data = opData<MulData>(OP, node);
  const { in1, in2, out } = prepareElementwise(OP, context, node);
  const q = calculateOpDataMul(OP, node, in1, in2, out, fusedActivation(node));
  const g = data.g;
  g.size = out.elementCount;
  g.in1Offset = -q.input1ZeroPoint;
  g.in2Offset = -q.input2ZeroPoint;
  g.outOffset = q.outputZeroPoint;
  g.outMult = q.outputMultiplier;
  g.outShift = q.outputShift;
  g.actMin = q.actMin;
  g.actMax = q.actMax;
  data.emu = nodeEmulation(o, node, OP, 'arm_elementwise_mul_s8');
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<MulData>(OP, node);
  const a = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const b = context.getEvalTensor(node.inputs[1]!).data as Int8Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const m = data.emu.machine;
  if (m === null) {
    elementwiseMulS8Fast(data.g, a, b, out);
    return;
  }
  data.emu.record!.invocations++;
  elementwiseMulS8Emu(m, data.g, a, b, out);
}

/** Creates the MUL registration for the given options. */
export function createMul(o: ResolvedOptions): Registration<MulData> {
  return {
    builtinCode: BuiltinOperator.MUL,
    version: 7,
    provider: PROVIDER,
    name: 'MUL/cmsis-nn-s8',
    supports: elementwiseSupported,
    init: (): MulData => ({
      g: { size: 0, in1Offset: 0, in2Offset: 0, outOffset: 0, outMult: 0, outShift: 0, actMin: -128, actMax: 127 },
      emu: { machine: null, record: null },
    }),
    prepare: (context, node) => prepare(o, context, node),
    invoke,
  };
}
