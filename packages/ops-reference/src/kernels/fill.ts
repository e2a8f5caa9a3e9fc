/**
 * FILL (tflite-micro kernels/fill.cc; reference_ops::Fill): an output filled with the scalar value of
 * input 1, copied raw: float32, int32 and int8 values as TFLM (which refuses others at invoke, "Fill
 * only currently supports float32 for input 1"), and as TFLite every other fixed-size type and string
 * (the value's string, repeated; the output is planned at that size). Input 0 holds
 * the output dims; when it is constant it must be a 1-D int8/int16/int32/int64 tensor equal to the
 * output's shape, as TFLM checks (TFLM never resizes the output).
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
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { StringWriter, expectType, maxStringBytes, opData, setStringOutputCapacity, supportsInputTypes } from '@micrort/kernel-support';
import { numElements, stringHeaderBytes } from '@micrort/core';
import { FIXED_SIZE_TYPES } from './data-common.js';
import { type ElementLayout, elementLayout, movableData } from './transpose-common.js';

const OP = 'FILL';
const TYPES: readonly TensorType[] = [...FIXED_SIZE_TYPES, TensorType.STRING];

interface FillOpData {
  layout: ElementLayout;
  /** STRING values: the writer of the repeated string. */
  writer: StringWriter | null;
}
const DIMS_TYPES: readonly TensorType[] = [TensorType.INT8, TensorType.INT16, TensorType.INT32, TensorType.INT64];

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<FillOpData>(OP, node);
  checkArity(OP, node, 2, 1);
  const dims = getInput(context, node, 0, OP);
  const value = getInput(context, node, 1, OP);
  const output = getOutput(context, node, 0, OP);
  if (value.dims.length !== 0)
    throw new KernelError(OP, node.index, `value (tensor ${value.index}) must be a scalar, it has shape [${value.dims.join(',')}]`);
  expectType(OP, node, 'value', value, TYPES);
  if (output.type !== value.type)
    throw new KernelError(
      OP,
      node.index,
      `output (tensor ${output.index}) is ${tensorTypeName(output.type)}, the value ${tensorTypeName(value.type)}`,
    );
  if (value.type === TensorType.STRING) {
    d.writer = new StringWriter(`${OP} output (tensor ${output.index})`);
    setStringOutputCapacity(OP, context, node, 0, stringHeaderBytes(output.elementCount) + output.elementCount * maxStringBytes(value));
  } else d.layout = elementLayout(value.type, OP, node);
  if (!dims.isConstant) return;
  expectType(OP, node, 'dims', dims, DIMS_TYPES);
  if (dims.dims.length !== 1 || dims.dims[0] !== output.dims.length)
    throw new KernelError(
      OP,
      node.index,
      `dims (tensor ${dims.index}) must be a 1-D tensor of ${output.dims.length} values (the output rank), it has shape [${dims.dims.join(',')}]`,
    );
  for (let i = 0; i < output.dims.length; i++) {
    const v = Number(dims.data[i]!);
    if (v !== output.dims[i])
      throw new KernelError(
        OP,
        node.index,
        `dims (tensor ${dims.index}) [${Array.from(dims.data as ArrayLike<number | bigint>, Number).join(',')}] differ from the output shape [${output.dims.join(',')}]`,
      );
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<FillOpData>(OP, node);
  const value = context.getEvalTensor(node.inputs[1]!);
  const output = context.getEvalTensor(node.outputs[0]!);
  if (d.writer) {
    const n = numElements(output.dims);
    d.writer.begin(output.bytes, n);
    for (let i = 0; i < n; i++) d.writer.appendString(value.bytes, 0);
    d.writer.finish();
    return;
  }
  const units = d.layout.units;
  const src = movableData(value, d.layout);
  const dst = movableData(output, d.layout);
  if (units === 1) (dst as unknown as Float32Array).fill(src[0]!);
  else for (let o = 0; o < dst.length; o += units) for (let u = 0; u < units; u++) dst[o + u] = src[u]!;
}

/** FILL reference kernel: values of any fixed-size type, and strings. */
export const FILL = {
  builtinCode: BuiltinOperator.FILL,
  version: 4,
  provider: PROVIDER,
  name: OP,
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES, 1, 'value'),
  init: (): FillOpData => ({ layout: { useWords: false, units: 1 }, writer: null }),
  prepare,
  invoke,
};
