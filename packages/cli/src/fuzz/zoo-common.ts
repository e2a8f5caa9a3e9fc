/**
 * Helpers of the fuzzer's seed zoo: a ModelBuilder with short tensor constructors, deterministic constant
 * values, and the description every seed carries.
 */
import { BuiltinOperator, ModelBuilder, TensorType, type BuiltinOptionsSpec, type TensorSpec } from '@micrort/core';

/** Deterministic small values (LCG) for constant tensors. */
export function lcg(n: number, seed: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(lo + (s % (hi - lo + 1)));
  }
  return out;
}

export const q = (scale: number, zeroPoint = 0) => ({ scale, zeroPoint });

/** ModelBuilder with short helpers for the zoo. */
export class Zoo {
  readonly b: ModelBuilder;
  constructor(description: string) {
    this.b = new ModelBuilder({ description: `micrort fuzz seed: ${description}` });
  }
  t(spec: TensorSpec): number {
    return this.b.addTensor(spec);
  }
  f32(name: string, shape: number[], data?: number[]): number {
    return this.t({ name, type: TensorType.FLOAT32, shape, ...(data ? { data: Float32Array.from(data) } : {}) });
  }
  i8(name: string, shape: number[], scale: number, zeroPoint = 0, data?: number[]): number {
    return this.t({
      name,
      type: TensorType.INT8,
      shape,
      quantization: q(scale, zeroPoint),
      ...(data ? { data: Int8Array.from(data) } : {}),
    });
  }
  i16(name: string, shape: number[], scale: number, data?: number[]): number {
    return this.t({ name, type: TensorType.INT16, shape, quantization: q(scale, 0), ...(data ? { data: Int16Array.from(data) } : {}) });
  }
  i32(name: string, data: number[], shape = [data.length]): number {
    return this.t({ name, type: TensorType.INT32, shape, data: Int32Array.from(data) });
  }
  /** An int32 activation (no data). */
  i32t(name: string, shape: number[]): number {
    return this.t({ name, type: TensorType.INT32, shape });
  }
  u8(name: string, shape: number[], scale: number, zeroPoint: number, data?: number[]): number {
    return this.t({
      name,
      type: TensorType.UINT8,
      shape,
      quantization: q(scale, zeroPoint),
      ...(data ? { data: Uint8Array.from(data) } : {}),
    });
  }
  bool(name: string, shape: number[]): number {
    return this.t({ name, type: TensorType.BOOL, shape });
  }
  /** Adds a builtin operator (version 1 unless given). */
  op(op: BuiltinOperator, inputs: number[], outputs: number[], options?: BuiltinOptionsSpec, version?: number): void {
    this.b.addOperator({ op, inputs, outputs, ...(options ? { options } : {}), ...(version ? { version } : {}) });
  }
  /** Adds a custom operator with raw custom options. */
  custom(name: string, inputs: number[], outputs: number[], customOptions?: Uint8Array, version?: number): void {
    this.b.addOperator({
      op: { custom: name },
      inputs,
      outputs,
      ...(customOptions ? { customOptions } : {}),
      ...(version ? { version } : {}),
    });
  }
  build(inputs: number[], outputs: number[]): Uint8Array {
    return this.b.setInputs(inputs).setOutputs(outputs).build();
  }
}
