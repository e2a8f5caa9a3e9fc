/**
 * MULTINOMIAL (TFLite random_ops.cc GenerateMultinomialNumbers): for each row of float32 logits
 * [batch, classes], `num_samples` class indices drawn from the softmax distribution — the cumulative sum
 * of exp(logit − max) in double over the finite logits, searched (upper bound) at Uint64ToDouble(x0, x1)
 * times the total — with two uint32 of TFLite's Philox generator per sample (philox-common.ts, seeded by
 * RandomOptions as RANDOM_UNIFORM is). Every invoke draws from a copy of the generator and then skips the
 * original ahead by batch · ⌈num_samples/4⌉·4 · 512, as TFLite does. int32 or int64 output. num_samples
 * is read in prepare from a constant; a runtime count has no bound (data-dependent-shape.ts).
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
  type TfLiteContext,
} from '@micrort/core';
import { declineArity, declineTypes, expectRank, expectType, opData, setOutputShape } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';
import { noShapeBound } from './data-dependent-shape.js';
import { philoxNext, philoxSkip, uint64ToDouble, type PhiloxState } from './philox-common.js';
import { seededState } from './random-common.js';
import { constantInts } from './tflite-ops-common.js';

const OP = 'MULTINOMIAL';

interface MultinomialOpData {
  state: PhiloxState;
  /** The copy each invoke draws from. */
  copy: PhiloxState;
  samples: Uint32Array;
  batch: number;
  classes: number;
  numSamples: number;
  int64: boolean;
  /** The cumulative distribution of one row (classes doubles). */
  cdf: Float64Array;
}

function prepare(context: TfLiteContext, node: Node): void {
  checkArity(OP, node, 2, 1);
  const logits = getInput(context, node, 0, OP);
  const num = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  expectType(OP, node, 'logits', logits, [TensorType.FLOAT32]);
  expectRank(OP, node, 'logits', logits, 2);
  expectType(OP, node, 'num_samples', num, [TensorType.INT32]);
  expectRank(OP, node, 'num_samples', num, 0);
  expectType(OP, node, 'output', output, [TensorType.INT32, TensorType.INT64]);
  const classes = logits.dims[1]!;
  if (classes <= 0) throw new KernelError(OP, node.index, 'logits must have at least one class');
  const n = constantInts(OP, node, num, 'num_samples');
  if (n === null) noShapeBound(OP, context, node, 0, 'the num_samples input is not constant');
  const numSamples = n[0]!;
  if (numSamples < 0) throw new KernelError(OP, node.index, `num_samples ${numSamples} is negative`);
  setOutputShape(OP, context, node, 0, [logits.dims[0]!, numSamples]);
  const d = opData<MultinomialOpData>(OP, node);
  d.state = seededState(node);
  d.batch = logits.dims[0]!;
  d.classes = classes;
  d.numSamples = numSamples;
  d.int64 = output.type === TensorType.INT64;
  d.cdf = new Float64Array(classes);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<MultinomialOpData>(OP, node);
  const logits = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const out = context.getEvalTensor(node.outputs[0]!);
  const i32 = out.data as Int32Array;
  const bytes = out.bytes;
  const { batch, classes, numSamples, cdf, samples } = d;
  d.copy.set(d.state);
  philoxSkip(d.state, batch * (Math.floor((numSamples + 3) / 4) * 4) * 2 * 256);
  let used = 4;
  for (let b = 0; b < batch; b++) {
    const row = b * classes;
    let max = -3.4028234663852886e38;
    for (let i = 0; i < classes; i++) {
      const v = logits[row + i]!;
      if (Number.isFinite(v) && v > max) max = v;
    }
    let total = 0;
    for (let i = 0; i < classes; i++) {
      const v = logits[row + i]!;
      if (Number.isFinite(v)) total += Math.exp(v - max);
      cdf[i] = total;
    }
    for (let j = 0; j < numSamples; j++) {
      if (used === 4) {
        philoxNext(d.copy, samples);
        used = 0;
      }
      const target = uint64ToDouble(samples, used) * total;
      used += 2;
      let lo = 0;
      let hi = classes;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (target < cdf[mid]!) hi = mid;
        else lo = mid + 1;
      }
      const at = b * numSamples + j;
      if (!d.int64) i32[at] = lo;
      else {
        const p = at * 8;
        bytes[p] = lo;
        bytes[p + 1] = lo >>> 8;
        bytes[p + 2] = lo >>> 16;
        bytes[p + 3] = lo >>> 24;
        bytes.fill(0, p + 4, p + 8);
      }
    }
  }
}

/** MULTINOMIAL registration (op version 1). */
export const MULTINOMIAL: Registration<MultinomialOpData> = {
  builtinCode: BuiltinOperator.MULTINOMIAL,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) =>
    declineArity(node, 2, 1) ?? declineTypes(context, node, [0], [TensorType.FLOAT32], [TensorType.INT32, TensorType.INT64]) ?? true,
  init: () => ({
    state: new Uint32Array(6),
    copy: new Uint32Array(6),
    samples: new Uint32Array(4),
    batch: 0,
    classes: 0,
    numSamples: 0,
    int64: false,
    cdf: new Float64Array(0),
  }),
  prepare,
  invoke,
};
