/**
 * Elementwise ops whose quantized kernels are TFLite lookup tables (EXP and LOG in TFLite after 2.9;
 * kernel-support's `lutPopulate8` / `lutPopulateInt16`): float32 runs the op's float function;
 * int8 and int16 (zero points 0, as TFLite requires) build the table in prepare from the input and
 * output quantization and look every element up in invoke. TFLM has no quantized EXP or LOG.
 */
import {
  BuiltinOperator,
  INT16_LUT_SIZE,
  TensorType,
  lutLookupInt16,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { lutPopulate8, lutPopulateInt16, opData, supportsInputTypes, type LutTransform } from '@micrort/kernel-support';
import { requireSameShape } from './math-common.js';
import { FLOAT32_INT8_INT16, requireInt16ZeroPoints, requireQuantizedPair, unaryKernel, type UnaryOpData } from './unary-common.js';

const EMPTY_I8 = new Int8Array(0);
const EMPTY_I16 = new Int16Array(0);

/** Op data of a lookup-table unary kernel. */
export interface LutUnaryOpData extends UnaryOpData {
  type: TensorType;
  /** int8: entry `v + 128` for input `v` (256 entries, persistent). */
  lut8: Int8Array;
  /** int16: TFLite's 513-entry interpolated table (persistent). */
  lut16: Int16Array;
}

/** What an op adds to the shared lookup-table kernel. */
export interface LutUnarySpec {
  name: string;
  builtinCode: BuiltinOperator;
  version: number;
  /** Whether input and output must have the same shape (not only the same element count). */
  sameShape?: boolean;
  /** The float32 kernel. */
  runFloat(x: Float32Array, y: Float32Array, count: number): void;
  /** The float32 function the int8 / int16 table samples, for this output (LOG's depends on its range). */
  transform(output: Tensor): LutTransform;
}

/** The registration of a float32 / int8 / int16 unary kernel whose integer paths are lookup tables. */
export function lutUnaryKernel(spec: LutUnarySpec): Registration<LutUnaryOpData> {
  const { name } = spec;
  const base = unaryKernel<LutUnaryOpData>({
    readsActualDims: true,
    name,
    builtinCode: spec.builtinCode,
    version: spec.version,
    types: FLOAT32_INT8_INT16,
    init: () => ({ count: 0, type: TensorType.FLOAT32, lut8: EMPTY_I8, lut16: EMPTY_I16 }),
    prepare(context, node, data, input, output) {
      if (spec.sameShape) requireSameShape(name, node, input, output);
      data.type = input.type;
      if (input.type === TensorType.FLOAT32) return;
      requireQuantizedPair(name, node, input, output);
      requireInt16ZeroPoints(name, node, input, output);
      const { scale: si, zeroPoint: zi } = input.params;
      const { scale: so, zeroPoint: zo } = output.params;
      const transform = spec.transform(output);
      if (input.type === TensorType.INT8) {
        data.lut8 = context.allocatePersistentBuffer(256).i8.subarray(0, 256);
        lutPopulate8(si, zi, so, zo, transform, -128, 127, data.lut8);
      } else {
        data.lut16 = context.allocatePersistentBuffer(INT16_LUT_SIZE * 2).i16.subarray(0, INT16_LUT_SIZE);
        lutPopulateInt16(si, zi, so, zo, transform, data.lut16);
      }
    },
    invoke(context: TfLiteContext, node: Node): void {
      const d = opData<LutUnaryOpData>(name, node);
      const x = context.getEvalTensor(node.inputs[0]!).data;
      const y = context.getEvalTensor(node.outputs[0]!).data;
      if (d.type === TensorType.FLOAT32) spec.runFloat(x as Float32Array, y as Float32Array, d.count);
      else if (d.type === TensorType.INT8) lookup8(x as Int8Array, y as Int8Array, d.count, d.lut8);
      else lookup16(x as Int16Array, y as Int16Array, d.count, d.lut16);
    },
  });
  return { ...base, supports: (context, node) => supportsInputTypes(context, node, FLOAT32_INT8_INT16) };
}

function lookup8(x: Int8Array, y: Int8Array, count: number, lut: Int8Array): void {
  for (let i = 0; i < count; i++) y[i] = lut[x[i]! + 128]!;
}

function lookup16(x: Int16Array, y: Int16Array, count: number, lut: Int16Array): void {
  for (let i = 0; i < count; i++) y[i] = lutLookupInt16(x[i]!, lut);
}
