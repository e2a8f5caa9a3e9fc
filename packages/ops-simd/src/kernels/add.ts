/**
 * ADD, int8 without broadcasting, as TFLM's CMSIS-NN kernel (kernels/cmsis_nn/add.cc) runs it:
 * arm_elementwise_add_s8 with TFLM's CalculateOpDataAdd parameters (left shift 20, input multipliers
 * `scale_i / (2 * max scale)`, output multiplier `2 * max scale / (2^20 * output scale)`). No scratch.
 */
import { BuiltinOperator, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { elementwiseAddS8Emu, elementwiseAddS8Fast, type AddParams } from '../cmsis/elementwise-add-s8.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { calculateOpDataAdd, fusedActivation, opData } from '@micrort/kernel-support';
import { elementwiseSupported, prepareElementwise } from './elementwise-common.js';

const OP = 'ADD';

interface AddData {
  g: AddParams;
  emu: NodeEmulation;
}

function prepare(o: ResolvedOptions, context: TfLiteContext, node: Node): void {
  const data = opData<AddData>(OP, node);
  const { in1, in2, out } = prepareElementwise(OP, context, node);
  const q = calculateOpDataAdd(OP, node, in1, in2, out, fusedActivation(node));
  const g = data.g;
  g.size = out.elementCount;
  g.leftShift = q.leftShift;
  g.in1Offset = q.input1Offset;
  g.in2Offset = q.input2Offset;
  g.outOffset = q.outputOffset;
  g.in1Mult = q.input1Multiplier;
  g.in1Shift = q.input1Shift;
  g.in2Mult = q.input2Multiplier;
  g.in2Shift = q.input2Shift;
  g.outMult = q.outputMultiplier;
  g.outShift = q.outputShift;
  g.actMin = q.actMin;
  g.actMax = q.actMax;
  data.emu = nodeEmulation(o, node, OP, 'arm_elementwise_add_s8');
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<AddData>(OP, node);
  const a = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const b = context.getEvalTensor(node.inputs[1]!).data as Int8Array;
  const out = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const m = data.emu.machine;
  if (m === null) {
    elementwiseAddS8Fast(data.g, a, b, out);
    return;
  }
  data.emu.record!.invocations++;
  elementwiseAddS8Emu(m, data.g, a, b, out);
}

/** Creates the ADD registration for the given options. */
export function createAdd(o: ResolvedOptions): Registration<AddData> {
  return {
    builtinCode: BuiltinOperator.ADD,
    version: 5,
    provider: PROVIDER,
    name: 'ADD/cmsis-nn-s8',
    supports: elementwiseSupported,
    init: (): AddData => ({
      g: {
        size: 0,
        in1Offset: 0,
        in1Mult: 0,
        in1Shift: 0,
        in2Offset: 0,
        in2Mult: 0,
        in2Shift: 0,
        leftShift: 20,
        outOffset: 0,
        outMult: 0,
        outShift: 0,
        actMin: -128,
        actMax: 127,
      },
      emu: { machine: null, record: null },
    }),
    prepare: (context, node) => prepare(o, context, node),
    invoke,
  };
}
