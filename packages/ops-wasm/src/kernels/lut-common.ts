/**
 * What the 8-bit elementwise kernels computed by lookup share (int8 and uint8 LOGISTIC, TANH, HARD_SWISH):
 * each output is a function of its input byte alone, so prepare tabulates the op's own arithmetic
 * (kernel-support's, the one ops-reference runs per element) for the 256 bytes into a persistent region
 * in WebAssembly memory, and invoke runs lut_bytes (assembly/layout/lut.ts): the outputs equal the
 * per-element computation byte for byte. In place under `inPlace: true`.
 */
import { BuiltinOperator, TensorType, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, elementwiseInPlace, inputOffset, quantizedUnaryTensors } from './kernel-common.js';
import { setOutputShape } from '@micrort/kernel-support';

/** Bytes of a table: one output per input byte. */
export const LUT_BYTES = 256;

/** Op data of a lookup node. */
export interface LutData {
  k: KernelExports | null;
  /** Arena offset of the 256-byte table. */
  table: number;
  count: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** What one op adds to the shared registration. */
export interface LutOp {
  op: string;
  code: BuiltinOperator;
  version: number;
  /** Why an int8 or uint8 node (input and output of the same type, both quantized) is not taken, or null. */
  decline(input: Tensor, output: Tensor, node: Node): string | null;
  /** Fills `table` (entry b: the output byte for input byte b) for the node's quantization. */
  fill(input: Tensor, output: Tensor, node: Node, table: Uint8Array): void;
}

/** `compute()`'s error message (the reason a node is declined), or null when it computes (prepare's own checks, run in supports). */
export function declineOnError(compute: () => unknown): string | null {
  try {
    compute();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The registration of an 8-bit lookup op. */
export function lutRegistration(spec: LutOp): Registration<LutData> {
  const { op } = spec;
  return {
    builtinCode: spec.code,
    version: spec.version,
    provider: PROVIDER,
    name: `${op}/wasm-lut8`,
    supports(context, node) {
      const t = quantizedUnaryTensors(
        context,
        node,
        (i, o) => (i === TensorType.INT8 || i === TensorType.UINT8) && o === i,
        'int8 to int8, uint8 to uint8',
      );
      return typeof t === 'string' ? t : (spec.decline(t.input, t.output, node) ?? true);
    },
    init: (): LutData => ({ k: null, table: 0, count: 0, fixed: -1 }),
    prepare(context: TfLiteContext, node: Node) {
      const data = node.userData as LutData;
      const input = context.getTensor(node.inputs[0]!);
      // the input's shape (a stored output shape is a hint; an empty one is inferred, as ops-reference does)
      const output = setOutputShape(op, context, node, 0, input.dims);
      const region = context.allocatePersistentBuffer(LUT_BYTES);
      data.k = kernelsFor(op, node, region);
      spec.fill(input, output, node, region.u8.subarray(0, LUT_BYTES));
      data.table = region.offset;
      data.count = output.elementCount;
      data.fixed = constantInputCopies(context, node, [0])[0]!;
    },
    invoke(context, node) {
      const data = node.userData as LutData;
      const output = context.getEvalTensor(node.outputs[0]!).data.byteOffset;
      data.k!.lut_bytes(data.table, inputOffset(context, node, 0, data.fixed), output, data.count);
    },
    inPlace: elementwiseInPlace,
  };
}
