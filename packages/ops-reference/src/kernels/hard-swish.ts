/**
 * HARD_SWISH (tflite-micro kernels/hard_swish.cc, hard_swish_common.cc; reference_ops::HardSwish).
 *
 * - float32: x * min(6, max(0, x + 3)) / 6, every step in float32.
 * - int8, uint8: TFLite's 16-bit fixed-point evaluation (kernel-support's hard-swish.ts, which ops-wasm
 *   shares), tabulated at prepare for the 256 input bytes and looked up at invoke (byte-equal to it).
 *
 * TFLM fails int16 at invoke ("Unsupported type INT16"); this kernel refuses it in prepare.
 */
import { BuiltinOperator, TensorType, type Node, type Tensor, type TfLiteContext } from '@micrort/core';
import { MATH_OP_DATA_BYTES } from './math-common.js';
import { requireQuantizedPair, lookupBytes, unaryKernel, type UnaryOpData } from './unary-common.js';
import { hardSwishQuantParams, hardSwishTable, opData, supportsInputTypes, type HardSwishQuantParams } from '@micrort/kernel-support';

const OP = 'HARD_SWISH';
const TYPES: readonly TensorType[] = [TensorType.FLOAT32, TensorType.INT8, TensorType.UINT8];

/** TFLM's HardSwishParams, decoded (kernel-support's HardSwishQuantParams; the struct itself sits in the arena block `block`). */
interface HardSwishOpData extends UnaryOpData, HardSwishQuantParams {
  block: DataView;
  type: TensorType;
  /** int8 / uint8: the output byte of each input byte (kernel-support's hardSwishTable; op data outside the arena). */
  lut: Uint8Array;
}

function prepare(_context: TfLiteContext, node: Node, data: HardSwishOpData, input: Tensor, output: Tensor): void {
  data.type = input.type;
  if (input.type !== TensorType.INT8 && input.type !== TensorType.UINT8) return;
  requireQuantizedPair(OP, node, input, output);
  Object.assign(data, hardSwishQuantParams(OP, node, input, output));
  // HardSwishParams: int16 input_zero_point, output_zero_point, reluish multiplier; int reluish exponent
  // (at 8); int16 output multiplier (at 12); int output exponent (at 16).
  const b = data.block;
  b.setInt16(0, data.inputZeroPoint, true);
  b.setInt16(2, data.outputZeroPoint, true);
  b.setInt16(4, data.reluishMultiplier, true);
  b.setInt32(8, data.reluishExponent, true);
  b.setInt16(12, data.outputMultiplier, true);
  b.setInt32(16, data.outputExponent, true);
  // each output depends on its input byte alone: TFLM's per-element arithmetic, tabulated once
  hardSwishTable(data, input.type === TensorType.UINT8, data.lut);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<HardSwishOpData>(OP, node);
  const n = d.count;
  if (d.type === TensorType.FLOAT32) {
    const f = Math.fround;
    const x = context.getEvalTensor(node.inputs[0]!).data as Float32Array;
    const y = context.getEvalTensor(node.outputs[0]!).data as Float32Array;
    for (let i = 0; i < n; i++) {
      const v = x[i]!;
      const r = f(v + 3);
      const relu6 = r > 6 ? 6 : r > 0 ? r : 0;
      y[i] = f(v * relu6) / 6;
    }
    return;
  }
  // int8 and uint8: the table of prepare, indexed by the input byte (equal to the per-element arithmetic)
  lookupBytes(d.lut, context.getEvalTensor(node.inputs[0]!).bytes, context.getEvalTensor(node.outputs[0]!).bytes, n);
}

/** HARD_SWISH reference kernel: float32, int8, uint8 (TFLite's HardSwish<uint8_t>, the same arithmetic). */
export const HARD_SWISH = {
  ...unaryKernel<HardSwishOpData>({
    readsActualDims: true,
    name: OP,
    builtinCode: BuiltinOperator.HARD_SWISH,
    version: 1,
    types: TYPES,
    init(context) {
      const r = context.allocatePersistentBuffer(MATH_OP_DATA_BYTES.HARD_SWISH);
      return {
        block: new DataView(r.buffer, r.offset, MATH_OP_DATA_BYTES.HARD_SWISH),
        type: TensorType.FLOAT32,
        inputZeroPoint: 0,
        outputZeroPoint: 0,
        reluishMultiplier: 0,
        reluishExponent: 0,
        outputMultiplier: 0,
        outputExponent: 0,
        lut: new Uint8Array(256),
        count: 0,
      };
    },
    prepare,
    invoke,
  }),
  supports: (context: TfLiteContext, node: Node) => supportsInputTypes(context, node, TYPES),
};
