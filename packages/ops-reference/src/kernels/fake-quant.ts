/**
 * FAKE_QUANT (TFLite fake_quant.cc, reference_ops::FakeQuant): float32 values clamped to the nudged
 * [min, max] of `num_bits` levels and snapped to that grid, computed in float as TFLite's
 * NudgeQuantizationRange and FakeQuantizeArray do. TFLite refuses `narrow_range` at runtime (it is
 * meant for weights); so does this kernel.
 */
import { BuiltinOperator, TensorType, type FakeQuantOptions, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { OptionError, declineArity, declineTypes, fillOpData, newOpData, opData } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { prepareUnary } from './tflite-ops-common.js';

const OP = 'FAKE_QUANT';
const F32: readonly TensorType[] = [TensorType.FLOAT32];

interface FakeQuantOpData {
  count: number;
  nudgedMin: number;
  nudgedMax: number;
  nudgedScale: number;
  inverseScale: number;
}

/** TfLiteRound (round half away from zero) of a float. */
function roundAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function prepare(context: TfLiteContext, node: Node): void {
  const options = node.builtinData as FakeQuantOptions | null;
  if (options?.narrowRange)
    throw new OptionError(OP, node.index, 'narrow_range', 1, 'narrow_range FakeQuant is not supported at runtime (TFLite refuses it too)');
  const { count } = prepareUnary(OP, context, node, F32);
  const f = Math.fround;
  const min = f(options?.min ?? 0);
  const max = f(options?.max ?? 0);
  const quantMax = f((1 << (options?.numBits ?? 0)) - 1);
  const scale = f(f(max - min) / quantMax);
  const zeroFromMin = f(0 - f(min / scale));
  const zero = zeroFromMin < 0 ? 0 : zeroFromMin > quantMax ? quantMax : roundAway(zeroFromMin) & 0xffff;
  fillOpData<FakeQuantOpData>(OP, node, {
    count,
    nudgedScale: scale,
    nudgedMin: f(f(0 - zero) * scale),
    nudgedMax: f(f(quantMax - zero) * scale),
    inverseScale: f(1 / scale),
  });
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<FakeQuantOpData>(OP, node);
  const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  const { nudgedMin: lo, nudgedMax: hi, nudgedScale: scale, inverseScale: inv } = d;
  const f = Math.fround;
  for (let i = 0; i < d.count; i++) {
    const v = x[i]!;
    const clamped = hi < v ? hi : v > lo ? v : lo;
    y[i] = f(roundAway(f(f(clamped - lo) * inv)) * scale) + lo;
  }
}

/** FAKE_QUANT registration (op versions 1..2). */
export const FAKE_QUANT: Registration = {
  builtinCode: BuiltinOperator.FAKE_QUANT,
  version: 2,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => declineArity(node, 1, 1) ?? declineTypes(context, node, [0], F32) ?? true,
  init: newOpData,
  prepare,
  invoke,
};
