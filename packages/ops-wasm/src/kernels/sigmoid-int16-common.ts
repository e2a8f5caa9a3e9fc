/**
 * What the int16 LOGISTIC and TANH kernels share: TFLM's reference_integer_ops::Logistic / Tanh on int16
 * (core's logisticInt16Run / tanhInt16Run, which ops-reference runs) in WebAssembly, qs16_logistic /
 * qs16_tanh (assembly/int16/sigmoid.ts), eight lanes per step. Prepare checks what TFLM's prepare checks
 * (zero points 0, output scale 2^-15, an input scale whose multiplier fits in int16; kernel-support's
 * int16ActivationParams), turns its words into the eval's multiplier and shift (int16SigmoidEvalRescale)
 * and reads TFLM's 256-entry sigmoid table (core's SIGMOID_TABLE_UINT16), packed in the layout the kernel
 * reads, from the arena memory's constant tables (constant-tables.ts: past the arena, no arena bytes). Byte-equal to ops-reference; in place under `inPlace: true`.
 */
import { BuiltinOperator, KernelError, TensorType, checkedLog2, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { sigmoid16TableAt } from '../constant-tables.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, elementwiseInPlace, inputOffset, quantizedUnaryTensors } from './kernel-common.js';
import { SigmoidFunction, int16ActivationParams, int16SigmoidEvalRescale, setOutputShape, type SigmoidSpec } from '@micrort/kernel-support';

/** Op data of an int16 LOGISTIC / TANH node. */
export interface Sigmoid16Data {
  k: KernelExports | null;
  /** Memory offset of the packed table (past the arena). */
  table: number;
  count: number;
  /** The eval's multiplier (<= 32767) and right shift. */
  multiplier: number;
  shift: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** Why an int16 node is not taken (TFLM's prepare refuses it, or the eval's multiplier does not fit in int16), or null. */
export function declineSigmoid16(spec: SigmoidSpec, inScale: number, inZp: number, outScale: number, outZp: number): string | null {
  if (inZp !== 0 || outZp !== 0) return `int16 zero points ${inZp} and ${outZp} (TFLM requires 0)`;
  const out = checkedLog2(outScale);
  if (!out.isPowerOfTwo || out.log2 !== -15) return `int16 output scale ${outScale} (TFLM requires 2^-15)`;
  const q = int16ActivationParams(inScale, spec.int16MaxPotLeftShift);
  if (typeof q === 'string') return q;
  const e = int16SigmoidEvalRescale(q);
  // A scale so small that 31 doublings leave the multiplier below 1: TFLM stores 0, which its eval reads
  // as the power-of-two case (3 << 31, an int32 overflow); ops-reference reproduces that wrap.
  if (e.multiplier < 0 || e.multiplier > 32767)
    return `input scale ${inScale} rescales to multiplier 0 after 31 doublings (TFLM's eval then multiplies by 3 << 31)`;
  return null;
}

/** The registration of int16 LOGISTIC (`spec` LOGISTIC_SPEC) or TANH (TANH_SPEC). */
export function sigmoid16Registration(op: string, code: BuiltinOperator, spec: SigmoidSpec): Registration<Sigmoid16Data> {
  const run = spec.fn === SigmoidFunction.Tanh ? 'qs16_tanh' : 'qs16_logistic';
  return {
    builtinCode: code,
    version: 3,
    provider: PROVIDER,
    name: `${op}/wasm-int16`,
    supports(context, node) {
      const t = quantizedUnaryTensors(context, node, (i, o) => i === TensorType.INT16 && o === TensorType.INT16, 'int16 to int16');
      if (typeof t === 'string') return t;
      const { input, output } = t;
      return declineSigmoid16(spec, input.params.scale, input.params.zeroPoint, output.params.scale, output.params.zeroPoint) ?? true;
    },
    init: (): Sigmoid16Data => ({ k: null, table: 0, count: 0, multiplier: 0, shift: 0, fixed: -1 }),
    prepare(context: TfLiteContext, node: Node) {
      const data = node.userData as Sigmoid16Data;
      const input = context.getTensor(node.inputs[0]!);
      // the input's shape (a stored output shape is a hint; an empty one is inferred, as ops-reference does)
      const output = setOutputShape(op, context, node, 0, input.dims);
      // no bytes: only where the arena is, to find its kernels and tables
      const region = context.allocatePersistentBuffer(0);
      data.k = kernelsFor(op, node, region);
      data.table = data.k ? sigmoid16TableAt(region) : 0;
      const q = int16ActivationParams(input.params.scale, spec.int16MaxPotLeftShift);
      if (typeof q === 'string') throw new KernelError(op, node.index, q); // supports() declined it
      const e = int16SigmoidEvalRescale(q);
      data.multiplier = e.multiplier;
      data.shift = e.shift;
      data.count = output.elementCount;
      data.fixed = constantInputCopies(context, node, [0])[0]!;
    },
    invoke(context, node) {
      const d = node.userData as Sigmoid16Data;
      const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
      d.k![run](d.table, inputOffset(context, node, 0, d.fixed), output, d.count, d.multiplier, d.shift);
    },
    inPlace: elementwiseInPlace,
  };
}
