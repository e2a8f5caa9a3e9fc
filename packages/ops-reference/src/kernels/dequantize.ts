/**
 * DEQUANTIZE (tflite-micro kernels/dequantize.cc + dequantize_common.cc; TFLite kernels/dequantize.cc
 * for float16, int4 and per-channel): int8, uint8, int16 or int4 to float32 as (float)scale * (q -
 * zero_point), and float16 to float32 (exact IEEE half → float, TFLite only). int4 is TFLite's packed
 * layout (two values per byte, low nibble first, sign-extended): a constant is unpacked once in prepare,
 * a runtime int4 tensor on every invoke. A per-channel int8, uint8 or int4 constant input (TFLite's
 * PerChannelDequantize; TFLite refuses int16 there) takes each element's scale and zero point from its
 * index along the quantized dimension.
 *
 * Constant float16 inputs (the converter's float16 weights, also when DENSIFY expanded them in prepare)
 * are folded as TFLite does: the output is made persistent (`allocatePersistentOutput`) and computed once
 * in prepare, so invoke does nothing.
 * The folded float32 weights then live in the arena tail instead of the planned head. Integer inputs
 * keep TFLM's behaviour (dequantized on every invoke into a planned output), so arena figures stay
 * comparable with TFLM's. `makeDequantize({ foldFloat16Constants: false })` makes a kernel that never
 * folds (float16 converted on every invoke into a planned output).
 */
import {
  AllocationType,
  BuiltinOperator,
  KernelError,
  TensorType,
  allocatePersistentOutput,
  type Node,
  type Registration,
  type Tensor,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { unaryTensors } from './elementwise-common.js';
import { dequantize, dequantizeFloat16, dequantizePerChannel } from './quantize-common.js';
import { expectQuantized, expectSameElementCount, expectType, opData, unpackInt4 } from '@micrort/kernel-support';

const OP = 'DEQUANTIZE';

/** Bytes of TFLM's DequantizeOpData ({double scale; int32 zero_point} + 3 int32, 8-aligned). */
const OP_DATA_DEQUANTIZE_BYTES = 32;

/** Offsets in DequantizeOpData: the double scale is f64 word 0, the zero point int32 word 2. */
const SCALE_F64 = 0;
const ZERO_POINT = 2;

/** What invoke does. */
const enum Mode {
  Integer = 0,
  Float16 = 1,
  /** Float16 constant folded in prepare: nothing to do. */
  Folded = 2,
  /** Per-channel scales and zero points (TFLite's PerChannelDequantize). */
  PerChannel = 3,
  /** A runtime int4 input, two per byte (low nibble first), sign-extended. */
  Int4 = 4,
}

interface DequantizeOpData {
  params: Int32Array;
  paramsF64: Float64Array;
  count: number;
  mode: Mode;
  /** int4 input unpacked in prepare (read instead of the input tensor), else null. */
  unpacked: Int8Array | null;
  /** Per channel: the scales, zero points and the data's blocks around the quantized dimension. */
  scales: Float32Array;
  zeroPoints: Int32Array;
  outer: number;
  channels: number;
  inner: number;
}

/**
 * Whether a tensor's value is final before invoke: a model constant, or a persistent output another
 * kernel computed in prepare (`allocatePersistentOutput`, e.g. DENSIFY's dense weights). Variables are
 * persistent too but change at runtime.
 */
function isPrepareTimeValue(t: Tensor): boolean {
  return t.isConstant || (t.allocationType === AllocationType.ArenaRwPersistent && !t.isVariable);
}

/** int4 values (packed two per byte, low nibble first) as (float)scale * (q - zero_point), TFLite's int4 DEQUANTIZE. */
function dequantizeInt4(packed: Int8Array, output: Float32Array, count: number, scale: number, zeroPoint: number): void {
  const s = Math.fround(scale);
  for (let i = 0; i < count; i++) {
    const b = packed[i >> 1]!;
    const q = (i & 1) === 0 ? (b << 28) >> 28 : b >> 4;
    output[i] = Math.fround(s * (q - zeroPoint));
  }
}

/** Options of {@link makeDequantize}. */
export interface DequantizeOptions {
  /**
   * Fold a constant float16 input in prepare into a persistent float32 output (TFLite's behaviour;
   * invoke does nothing, the float32 copy costs 4 bytes per weight in the arena tail). Default true.
   */
  foldFloat16Constants?: boolean;
}

/** A DEQUANTIZE kernel; `DEQUANTIZE` is `makeDequantize()` (folds constant float16 inputs). */
export function makeDequantize(options: DequantizeOptions = {}): Registration<DequantizeOpData> {
  const fold = options.foldFloat16Constants ?? true;

  function init(context: TfLiteContext): DequantizeOpData {
    const region = context.allocatePersistentBuffer(OP_DATA_DEQUANTIZE_BYTES);
    return {
      params: region.i32,
      paramsF64: new Float64Array(region.buffer, region.offset, OP_DATA_DEQUANTIZE_BYTES / 8),
      count: 0,
      mode: Mode.Integer,
      unpacked: null,
      scales: new Float32Array(0),
      zeroPoints: new Int32Array(0),
      outer: 0,
      channels: 0,
      inner: 0,
    };
  }

  function prepare(context: TfLiteContext, node: Node): void {
    const data = opData<DequantizeOpData>(OP, node);
    const { input, output } = unaryTensors(OP, context, node);
    expectType(OP, node, 'input', input, [TensorType.INT8, TensorType.UINT8, TensorType.INT16, TensorType.FLOAT16, TensorType.INT4]);
    expectType(OP, node, 'output', output, [TensorType.FLOAT32]);
    data.count = expectSameElementCount(OP, node, input, output);
    if (input.type === TensorType.FLOAT16) {
      data.mode = Mode.Float16;
      if (fold && isPrepareTimeValue(input)) {
        const region = allocatePersistentOutput(context, node, 0, OP);
        dequantizeFloat16(input.data as Uint16Array, region.f32, region.u8, data.count);
        data.mode = Mode.Folded;
      }
      return;
    }
    expectQuantized(OP, node, 'input', input);
    const q = input.quantization!;
    if (input.type === TensorType.INT4 && !input.isConstant) {
      if (q.scale.length !== 1)
        throw new KernelError(OP, node.index, `a per-channel int4 input (tensor ${input.index}) must be a constant`);
      data.mode = Mode.Int4;
      data.paramsF64[SCALE_F64] = input.params.scale;
      data.params[ZERO_POINT] = input.params.zeroPoint;
      return;
    }
    if (input.type === TensorType.INT4) {
      data.unpacked = context.allocatePersistentBuffer(data.count).i8.subarray(0, data.count);
      unpackInt4(input.data as Int8Array, data.count, data.unpacked);
    }
    if (q.scale.length !== 1) {
      const dim = q.quantizedDimension;
      if (dim < 0 || dim >= input.dims.length || input.dims[dim] !== q.scale.length)
        throw new KernelError(
          OP,
          node.index,
          `input (tensor ${input.index}) has ${q.scale.length} scales along dimension ${dim} of shape [${Array.from(input.dims).join(', ')}]`,
        );
      if (input.type === TensorType.INT16)
        throw new KernelError(
          OP,
          node.index,
          `int16 input (tensor ${input.index}) must be per-tensor quantized (TFLite's per-channel DEQUANTIZE takes int8, uint8 and int4)`,
        );
      data.mode = Mode.PerChannel;
      data.scales = q.scale;
      data.zeroPoints = q.zeroPoint;
      data.channels = q.scale.length;
      data.outer = input.dims.slice(0, dim).reduce((a, b) => a * b, 1);
      data.inner = input.dims.slice(dim + 1).reduce((a, b) => a * b, 1);
      return;
    }
    data.mode = Mode.Integer;
    data.paramsF64[SCALE_F64] = input.params.scale;
    data.params[ZERO_POINT] = input.params.zeroPoint;
  }

  function invoke(context: TfLiteContext, node: Node): void {
    const data = opData<DequantizeOpData>(OP, node);
    if (data.mode === Mode.Folded) return;
    const input = context.getEvalTensor(node.inputs[0]!);
    const output = context.getEvalTensor(node.outputs[0]!);
    const values = data.unpacked ?? (input.data as Int8Array | Uint8Array | Int16Array);
    if (data.mode === Mode.Float16) {
      dequantizeFloat16(input.data as Uint16Array, output.data as Float32Array, output.bytes, data.count);
    } else if (data.mode === Mode.PerChannel) {
      dequantizePerChannel(values, output.data as Float32Array, data.outer, data.channels, data.inner, data.scales, data.zeroPoints);
    } else if (data.mode === Mode.Int4) {
      dequantizeInt4(
        input.data as Int8Array,
        output.data as Float32Array,
        data.count,
        data.paramsF64[SCALE_F64]!,
        data.params[ZERO_POINT]!,
      );
    } else {
      dequantize(values, output.data as Float32Array, data.count, data.paramsF64[SCALE_F64]!, data.params[ZERO_POINT]!);
    }
  }

  return {
    builtinCode: BuiltinOperator.DEQUANTIZE,
    version: 6,
    provider: PROVIDER,
    name: fold ? OP : `${OP}/no-fold`,
    init,
    prepare,
    invoke,
  };
}

/** The reference DEQUANTIZE kernel (constant float16 inputs folded in prepare). */
export const DEQUANTIZE: Registration<DequantizeOpData> = makeDequantize();
