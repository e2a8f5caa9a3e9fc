/**
 * Test support: random RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR single-op models of every type ops-wasm
 * resizes, and random uint8 → int16 SOFTMAX models (the kernel tests against ops-reference and the
 * TFLite 2.9 oracle test share them).
 */
import { BuiltinOperator, ModelBuilder, TensorType, elementSize, tensorTypeName, type ModelDef } from '@micrort/core';
import { asUint8, int, int8s, pick, rng } from './single-op.js';

export interface ResizeCase {
  def: ModelDef;
  inputs: Int8Array[];
  desc: string;
}

/** Random bytes that are values of `type` (finite floats, 0/1 bools), as raw bytes. */
function valuesOf(r: () => number, type: TensorType, n: number): Int8Array {
  const bytes = new Int8Array(n * elementSize(type)!);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) {
    if (type === TensorType.FLOAT32) view.setFloat32(4 * i, (r() - 0.5) * 100, true);
    else if (type === TensorType.FLOAT16) view.setUint16(2 * i, int(r, 0, 0x7bff) | (r() < 0.5 ? 0x8000 : 0), true);
    else if (type === TensorType.BOOL) bytes[i] = r() < 0.5 ? 1 : 0;
    else for (let k = 0; k < elementSize(type)!; k++) bytes[i * elementSize(type)! + k] = int(r, -128, 127);
  }
  return bytes;
}

/**
 * A random resize of `type`: batches 1-2, input 1-9 x 1-9, depth 1-20 or 32, output 1-17 x 1-17, one of
 * no option / align_corners / half_pixel_centers, random quantization parameters; `constant` makes the
 * input a model constant.
 */
export function buildResize(
  seed: number,
  op: 'RESIZE_BILINEAR' | 'RESIZE_NEAREST_NEIGHBOR',
  type: TensorType,
  constant = false,
): ResizeCase {
  const r = rng(seed);
  const [batches, inH, inW] = [int(r, 1, 2), int(r, 1, 9), int(r, 1, 9)];
  const C = r() < 0.15 ? 32 : int(r, 1, 20);
  const outH = int(r, 1, 17);
  const outW = int(r, 1, 17);
  const mode = int(r, 0, 2);
  const quantized = type === TensorType.INT8 || type === TensorType.UINT8 || type === TensorType.INT16;
  const quantization = quantized
    ? {
        scale: pick(r, [0.003, 0.05, 1, 7.5]),
        zeroPoint: type === TensorType.UINT8 ? int(r, 0, 255) : type === TensorType.INT8 ? int(r, -128, 127) : 0,
      }
    : undefined;
  const n = batches * inH * inW * C;
  const values =
    type === TensorType.INT8 ? int8s(r, n) : type === TensorType.UINT8 ? int8s(r, n).map((v) => v ^ -128) : valuesOf(r, type, n);
  const b = new ModelBuilder();
  const shape = [batches, inH, inW, C];
  const x = b.addTensor({
    name: 'x',
    type,
    shape,
    ...(quantization ? { quantization } : {}),
    ...(constant ? { data: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) } : {}),
  });
  const size = b.addTensor({ name: 'size', type: TensorType.INT32, shape: [2], data: Int32Array.of(outH, outW) });
  const y = b.addTensor({ name: 'y', type, shape: [batches, outH, outW, C], ...(quantization ? { quantization } : {}) });
  b.addOperator({
    op: BuiltinOperator[op],
    version: 3,
    inputs: [x, size],
    outputs: [y],
    options: { alignCorners: mode === 1, halfPixelCenters: mode === 2 },
  });
  b.setInputs(constant ? [] : [x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: constant ? [] : [values],
    desc: JSON.stringify({ seed, op, type: tensorTypeName(type), batches, inH, inW, C, outH, outW, mode, constant }),
  };
}

/** A random uint8 → int16 SOFTMAX: TFLite's float kernel, any output scale and zero point. */
export function buildSoftmaxUint8ToInt16(seed: number): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const outer = int(r, 1, 4);
  const depth = int(r, 1, 40);
  const scale = pick(r, [0.05, 0.1, 0.5, 0.0039, 1.3, 0.02]);
  const beta = pick(r, [1, 1, 0.5, 2.5]);
  // 1/32768 with 0 or -32768 as converters write; odd scales put p on and near halves; tiny ones saturate
  const outScale = pick(r, [1 / 32768, 1 / 65536, 1 / 32768, 1 / 1000, 1 / 7, 1e-7]);
  const outZp = pick(r, [0, -32768, 0, int(r, -300, 300)]);
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.UINT8, shape: [outer, depth], quantization: { scale, zeroPoint: int(r, 0, 255) } });
  const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [outer, depth], quantization: { scale: outScale, zeroPoint: outZp } });
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [x], outputs: [y], options: { beta } });
  b.setInputs([x]).setOutputs([y]);
  return {
    def: b.buildDef(),
    inputs: [asUint8(int8s(r, outer * depth))],
    desc: JSON.stringify({ seed, outer, depth, scale, beta, outScale, outZp }),
  };
}
