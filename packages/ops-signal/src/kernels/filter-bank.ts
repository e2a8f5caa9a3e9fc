/**
 * SignalFilterBank (TFLM signal/micro/kernels/filter_bank.cc, signal/src/filter_bank.cc): accumulates
 * the uint32 power spectrum into `num_channels` mel channels with triangular weights. Each frequency
 * adds `weight * energy` to its channel and `unweight * energy` to the next one; accumulation is in
 * uint64 (modulo 2^64, weights sign-extended as in C). Channel 0 of the `num_channels + 1` accumulators
 * is scratch and discarded.
 *
 * Inputs: 0 energy uint32 [bins], 1 weights int16 [w], 2 unweights int16 [w], 3 channel frequency starts
 * int16 [num_channels + 1], 4 channel weight starts int16 [num_channels + 1], 5 channel widths int16
 * [num_channels + 1]. Output: uint64 [num_channels]. Options: `num_channels`.
 * Persistent: the (num_channels + 1) uint64 accumulators (TFLM's work_area).
 *
 * When the channel tables are constant (as in converted models) prepare checks that every channel reads
 * inside the energy and weight tensors.
 */
import { BuiltinOperator, KernelError, TensorType, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { checkElements, checkIo, checkOptionRange, checkRank, checkType, optionInt32, WordView } from './signal-kernel-common.js';
import { readFlexOptions } from '@micrort/kernel-support';
import { U64 } from './uint64-common.js';

const OP = 'SignalFilterBank';

const ENERGY = 0;
const WEIGHTS = 1;
const UNWEIGHTS = 2;
const FREQ_STARTS = 3;
const WEIGHT_STARTS = 4;
const WIDTHS = 5;

interface FilterBankOpData {
  params: Int32Array;
  /** (num_channels + 1) uint64 accumulators as (lo, hi) words. */
  work: Uint32Array;
  output: WordView;
  weight: U64;
  unweight: U64;
}

function init(context: TfLiteContext): FilterBankOpData {
  return {
    params: context.allocatePersistentBuffer(4).i32,
    work: new Uint32Array(0),
    output: new WordView(),
    weight: new U64(),
    unweight: new U64(),
  };
}

function checkChannelTables(
  node: Node,
  numChannels: number,
  energy: Tensor,
  weights: Tensor,
  freqStarts: Tensor,
  weightStarts: Tensor,
  widths: Tensor,
): void {
  const fs = freqStarts.data as Int16Array;
  const ws = weightStarts.data as Int16Array;
  const w = widths.data as Int16Array;
  const bins = energy.dims[0]!;
  const nWeights = weights.dims[0]!;
  for (let c = 0; c <= numChannels; c++) {
    const width = w[c]!;
    if (width <= 0) continue;
    if (fs[c]! < 0 || fs[c]! + width > bins)
      throw new KernelError(OP, node.index, `channel ${c} reads energy bins [${fs[c]}, ${fs[c]! + width}) outside [0, ${bins})`);
    if (ws[c]! < 0 || ws[c]! + width > nWeights)
      throw new KernelError(OP, node.index, `channel ${c} reads weights [${ws[c]}, ${ws[c]! + width}) outside [0, ${nWeights})`);
  }
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as FilterBankOpData;
  checkIo(OP, node, 6, 1);
  const options = readFlexOptions(OP, node);
  const numChannels = optionInt32(OP, node, options, 'num_channels');
  checkOptionRange(OP, node, 'num_channels', numChannels, 1, 0x7ffffffe);

  const energy = context.getTensor(node.inputs[ENERGY]!);
  const output = context.getTensor(node.outputs[0]!);
  checkRank(OP, node, 'energy', energy, 1);
  checkType(OP, node, 'energy', energy, TensorType.UINT32);
  const names = ['energy', 'weights', 'unweights', 'channel frequency starts', 'channel weight starts', 'channel widths'];
  const side: Tensor[] = [];
  for (let i = WEIGHTS; i <= WIDTHS; i++) {
    const t = context.getTensor(node.inputs[i]!);
    checkRank(OP, node, names[i]!, t, 1);
    checkType(OP, node, names[i]!, t, TensorType.INT16);
    side.push(t);
  }
  const [weights, unweights, freqStarts, weightStarts, widths] = side as [Tensor, Tensor, Tensor, Tensor, Tensor];
  checkElements(OP, node, 'unweights', unweights, weights.dims[0]!);
  for (const [t, name] of [
    [freqStarts, names[FREQ_STARTS]],
    [weightStarts, names[WEIGHT_STARTS]],
    [widths, names[WIDTHS]],
  ] as const)
    if (t.dims[0]! < numChannels + 1)
      throw new KernelError(
        OP,
        node.index,
        `${name} (tensor ${t.index}) has ${t.dims[0]} entries, num_channels ${numChannels} needs ${numChannels + 1}`,
      );
  checkRank(OP, node, 'output', output, 1);
  checkType(OP, node, 'output', output, TensorType.UINT64);
  checkElements(OP, node, 'output', output, numChannels);
  if (freqStarts.isConstant && weightStarts.isConstant && widths.isConstant)
    checkChannelTables(node, numChannels, energy, weights, freqStarts, weightStarts, widths);

  data.params[0] = numChannels;
  const region = context.allocatePersistentBuffer((numChannels + 1) * 8);
  data.work = new Uint32Array(region.buffer, region.offset, 2 * (numChannels + 1));
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as FilterBankOpData;
  const numChannels = data.params[0]!;
  const energy = context.getEvalTensor(node.inputs[ENERGY]!).data as Uint32Array;
  const weights = context.getEvalTensor(node.inputs[WEIGHTS]!).data as Int16Array;
  const unweights = context.getEvalTensor(node.inputs[UNWEIGHTS]!).data as Int16Array;
  const freqStarts = context.getEvalTensor(node.inputs[FREQ_STARTS]!).data as Int16Array;
  const weightStarts = context.getEvalTensor(node.inputs[WEIGHT_STARTS]!).data as Int16Array;
  const widths = context.getEvalTensor(node.inputs[WIDTHS]!).data as Int16Array;
  const work = data.work;
  const weight = data.weight.set(0, 0);
  const unweight = data.unweight.set(0, 0);
  for (let c = 0; c <= numChannels; c++) {
    const freqStart = freqStarts[c]!;
    const weightStart = weightStarts[c]!;
    const width = widths[c]!;
    for (let j = 0; j < width; j++) {
      const e = energy[freqStart + j]!;
      // int16 * uint32: |product| < 2^47, exact; negative weights wrap modulo 2^64 as in C
      weight.addSigned(weights[weightStart + j]! * e);
      unweight.addSigned(unweights[weightStart + j]! * e);
    }
    work[2 * c] = weight.lo;
    work[2 * c + 1] = weight.hi;
    weight.set(unweight.hi, unweight.lo);
    unweight.set(0, 0);
  }
  // discard channel 0 (scratch)
  const out = data.output.of(context.getEvalTensor(node.outputs[0]!));
  for (let i = 0; i < 2 * numChannels; i++) out[i] = work[i + 2]!;
}

/** SignalFilterBank kernel. */
export const SIGNAL_FILTER_BANK: Registration<FilterBankOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  init,
  prepare,
  invoke,
};
