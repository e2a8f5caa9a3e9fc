/**
 * The unary elementwise reference kernels (ABS, RELU, RELU6, LEAKY_RELU, LOGISTIC, TANH, SIN, COS): one
 * input and one output of the same type and element count, output element `i` computed from input element
 * `i` alone. `unaryKernel` builds their registrations around one shared prepare (TFLM's GenericPrepare and
 * the activation prepares all start with the same arity, type and size checks), and the quantization
 * checks several of them repeat live here too.
 */
import { TensorType, numElements, type Node, type Registration, type Tensor, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { flatInPlace } from './in-place-common.js';
import { unaryTensors } from './elementwise-common.js';
import {
  expectQuantized,
  expectSameElementCount,
  expectSameType,
  expectType,
  expectZeroPoint,
  followActualShape,
  isDataDependent,
  opData,
} from '@micrort/kernel-support';

/** float32 only (SIN, COS). */
export const FLOAT32_ONLY: readonly TensorType[] = [TensorType.FLOAT32];
/** float32, int8 and int16 (the activations and ABS). */
export const FLOAT32_INT8_INT16: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16];
/** float32, int8, int16 and TFLite's uint8 (LOGISTIC, TANH, the RELU family). */
export const FLOAT32_INT8_INT16_UINT8: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.INT16, TensorType.UINT8];

/**
 * Op data every unary kernel keeps: the element count, set by the shared prepare (and, for a
 * data-dependent input, at every invoke from its actual dims: see `UnaryKernelSpec.readsActualDims`).
 */
export interface UnaryOpData {
  count: number;
  /** The input is data-dependent (set by the shared prepare of a `readsActualDims` kernel). */
  bounded?: boolean;
}

/** What a unary kernel adds to the shared parts. */
export interface UnaryKernelSpec<T extends UnaryOpData> {
  /** Op name, for messages and as the registration's name. */
  name: string;
  builtinCode: number;
  /** Highest op version handled. */
  version: number;
  /** Input types accepted; the output must have the input's type. */
  types: readonly TensorType[];
  init(context: TfLiteContext): T;
  /**
   * The invoke reads nothing of the shapes but `data.count`: the kernel takes a data-dependent input
   * (`dynamicInputShapes`), and before `invoke` runs, `data.count` becomes the input's actual element count
   * and the output gets the input's actual dims.
   */
  readsActualDims?: boolean;
  /**
   * Type-specific prepare, called after the shared checks passed and stored `data.count` (validates the
   * quantization and fills the op data).
   */
  prepare?(context: TfLiteContext, node: Node, data: T, input: Tensor, output: Tensor): void;
  invoke(context: TfLiteContext, node: Node): void;
}

/**
 * The registration of a unary kernel: its prepare checks 1 input and 1 output, the input type against
 * `spec.types`, the output type and element count against the input, stores the count and then runs
 * `spec.prepare`. In-place capable (`flatInPlace`).
 */
export function unaryKernel<T extends UnaryOpData>(spec: UnaryKernelSpec<T>): Registration<T> {
  const { name, types } = spec;
  const prepareTyped = spec.prepare;
  const invokeTyped = spec.invoke;
  const dynamic = spec.readsActualDims === true;
  return {
    builtinCode: spec.builtinCode,
    version: spec.version,
    provider: PROVIDER,
    inPlace: flatInPlace,
    name,
    init: spec.init,
    prepare(context: TfLiteContext, node: Node): void {
      const data = opData<T>(name, node);
      const { input, output } = unaryTensors(name, context, node);
      expectType(name, node, 'input', input, types);
      expectSameType(name, node, 'input and output', input, output);
      data.count = expectSameElementCount(name, node, input, output);
      if (dynamic) data.bounded = isDataDependent(input);
      if (prepareTyped) prepareTyped(context, node, data, input, output);
    },
    ...(dynamic
      ? {
          dynamicInputShapes: true,
          invoke(context: TfLiteContext, node: Node): void {
            const data = opData<T>(name, node);
            if (data.bounded) {
              data.count = numElements(context.getEvalTensor(node.inputs[0]!).dims);
              followActualShape(context, node, 0, 0);
            }
            invokeTyped(context, node);
          },
        }
      : { invoke: invokeTyped }),
  };
}

/** Throws unless both the input and the output have affine quantization with a positive finite scale. */
export function requireQuantizedPair(op: string, node: Node, input: Tensor, output: Tensor): void {
  expectQuantized(op, node, 'input', input);
  expectQuantized(op, node, 'output', output);
}

/** When the input is int16, throws unless the input and output zero points are 0 (symmetric int16). */
export function requireInt16ZeroPoints(op: string, node: Node, input: Tensor, output: Tensor): void {
  if (input.type !== TensorType.INT16) return;
  expectZeroPoint(op, node, 'input', input, 0);
  expectZeroPoint(op, node, 'output', output, 0);
}

/**
 * A 256-entry table applied elementwise to 8-bit data, on the tensors' bytes: y[i] = table[x[i]] (an int8
 * value indexes by its byte). The table-driven int8 / uint8 kernels (LOGISTIC, TANH, HARD_SWISH,
 * LEAKY_RELU, GELU; TFLite's EvalUsingLookupTable) share it.
 */
export function lookupBytes(table: Uint8Array, x: Uint8Array, y: Uint8Array, n: number): void {
  for (let i = 0; i < n; i++) y[i] = table[x[i]!]!;
}
