/**
 * COMPLEX_ABS (TFLite kernels/complex_support.cc; TFLM has no such kernel): |z| of each complex element,
 * complex64 → float32 and complex128 → float64, same shape.
 *
 * complex64 is a Float32Array of (re, im) pairs: |z| = sqrt(re² + im²) in double — the squares of
 * float32 values and their sum are exact or correctly rounded in double, no float32 value can overflow
 * there — rounded once to float32, std::abs<float>'s result to within its last bit. complex128 uses
 * Math.hypot (no overflow or underflow for large or tiny parts), as std::abs<double>.
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  checkArity,
  getInput,
  getOutput,
  tensorTypeName,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { opData } from '@micrort/kernel-support';

const OP = 'COMPLEX_ABS';

interface ComplexAbsOpData {
  /** Complex elements. */
  count: number;
  /** complex128 → float64 rather than complex64 → float32. */
  double: boolean;
}

/** The output type for a complex input type, or null for other types. */
function realType(type: TensorType): TensorType | null {
  return type === TensorType.COMPLEX64 ? TensorType.FLOAT32 : type === TensorType.COMPLEX128 ? TensorType.FLOAT64 : null;
}

/** Why this kernel cannot serve the node's types, or null. */
function unsupportedTypes(context: TfLiteContext, node: Node): string | null {
  if (node.inputs.length !== 1 || node.outputs.length !== 1)
    return `expects 1 input and 1 output, got ${node.inputs.length} and ${node.outputs.length}`;
  if (node.inputs[0]! < 0 || node.outputs[0]! < 0) return 'input and output tensors are required';
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  const want = realType(input.type);
  if (want === null) return `${tensorTypeName(input.type)} input (handles complex64, complex128)`;
  if (output.type !== want)
    return `${tensorTypeName(output.type)} output for ${tensorTypeName(input.type)} input (needs ${tensorTypeName(want)})`;
  return null;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<ComplexAbsOpData>(OP, node);
  checkArity(OP, node, 1, 1);
  const why = unsupportedTypes(context, node);
  if (why !== null) throw new KernelError(OP, node.index, why);
  const input = getInput(context, node, 0, OP);
  const output = getOutput(context, node, 0, OP);
  const same = input.dims.length === output.dims.length && input.dims.every((d, i) => output.dims[i] === d);
  if (!same)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) has shape [${Array.from(output.dims).join(', ')}], expected the input's [${Array.from(input.dims).join(', ')}]`,
    );
  data.count = input.elementCount;
  data.double = input.type === TensorType.COMPLEX128;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<ComplexAbsOpData>(OP, node);
  const n = data.count;
  if (data.double) {
    const z = context.getEvalTensor(node.inputs[0]!).data as Float64Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float64Array;
    for (let i = 0; i < n; i++) y[i] = Math.hypot(z[2 * i]!, z[2 * i + 1]!);
    return;
  }
  const z = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
  const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
  for (let i = 0; i < n; i++) {
    const re = z[2 * i]!;
    const im = z[2 * i + 1]!;
    y[i] = Math.sqrt(re * re + im * im);
  }
}

/** COMPLEX_ABS reference kernel (complex64 → float32, complex128 → float64), version 1. */
export const COMPLEX_ABS: Registration<ComplexAbsOpData> = {
  builtinCode: BuiltinOperator.COMPLEX_ABS,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports: (context, node) => unsupportedTypes(context, node) ?? true,
  init: (): ComplexAbsOpData => ({ count: 0, double: false }),
  prepare,
  invoke,
};
