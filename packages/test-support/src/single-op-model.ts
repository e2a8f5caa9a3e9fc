/**
 * One-op models for oracle tests, written with core's ModelBuilder: each operand is a graph input (its
 * bytes returned with the model) or a constant, of a DType with optional quantization, filled with the
 * given values or deterministic random ones. `compareSingleOp` runs such a model through micrort and
 * TFLite 2.9 and compares every output (output-compare.ts).
 */
import { ModelBuilder, type BuiltinOperator, type BuiltinOptionsSpec, type QuantizationSpec, type RawOptionField } from '@micrort/core';
import { compareIntegerValues, compareOutput, runMicrort, type OutputDiff } from './output-compare.js';
import { encodeValues, randomValues, tensorTypeOf, type DType } from './tflite-recipe-builder.js';
import { runTflite } from './tflite-oracle.js';

/** One operand of a one-op model. */
export interface Operand {
  type: DType;
  shape: number[];
  /** Values (complex types: re, im pairs); default: deterministic random values in `range`. */
  values?: readonly number[];
  range?: [number, number];
  q?: QuantizationSpec;
  /** A constant of the model (default: a graph input). */
  constant?: boolean;
  /** A variable tensor (recurrent state: neither a graph input nor data; TFLite and micrort zero it). */
  variable?: boolean;
}

/** What describes the operator besides its tensors. */
export interface OpSpec {
  op: BuiltinOperator | { custom: string };
  options?: BuiltinOptionsSpec;
  rawOptions?: readonly RawOptionField[];
  customOptions?: Uint8Array;
  version?: number;
}

/** A built model and the bytes of its graph inputs. */
export interface SingleOpModel {
  bytes: Uint8Array;
  inputs: Uint8Array[];
}

function elementCount(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** Writes the model: inputs (null: an omitted optional input), outputs, the op. `seed` varies the random data. */
export function singleOpModel(spec: OpSpec, inputs: readonly (Operand | null)[], outputs: readonly Operand[], seed = 1): SingleOpModel {
  const b = new ModelBuilder();
  const graphInputs: number[] = [];
  const bytes: Uint8Array[] = [];
  const ins = inputs.map((o, i) => {
    if (!o) return -1;
    if (o.variable)
      return b.addTensor({
        name: `in${i}`,
        type: tensorTypeOf(o.type),
        shape: o.shape,
        variable: true,
        ...(o.q ? { quantization: o.q } : {}),
      });
    const values = o.values ?? randomValues(o.type, elementCount(o.shape), seed * 7919 + i * 104729, o.range);
    const data = encodeValues(o.type, values);
    const index = b.addTensor({
      name: `in${i}`,
      type: tensorTypeOf(o.type),
      shape: o.shape,
      ...(o.constant ? { data } : {}),
      ...(o.q ? { quantization: o.q } : {}),
    });
    if (!o.constant) {
      graphInputs.push(index);
      bytes.push(data);
    }
    return index;
  });
  const outs = outputs.map((o, j) =>
    b.addTensor({ name: `out${j}`, type: tensorTypeOf(o.type), shape: o.shape, ...(o.q ? { quantization: o.q } : {}) }),
  );
  b.addOperator({
    op: spec.op,
    version: spec.version ?? 1,
    inputs: ins,
    outputs: outs,
    ...(spec.options ? { options: spec.options } : {}),
    ...(spec.rawOptions ? { rawOptions: spec.rawOptions } : {}),
    ...(spec.customOptions ? { customOptions: spec.customOptions } : {}),
  });
  return { bytes: b.setInputs(graphInputs).setOutputs(outs).build(), inputs: bytes };
}

/** Options of {@link compareSingleOp}. */
export interface CompareSingleOpOptions {
  /** Outputs TFLite 2.9 writes as int32 whatever the model declares: compared by value. */
  int32In29?: readonly number[];
  /** Invokes before the outputs are read (stateful ops). */
  invokes?: number;
}

/** Runs `model` through micrort and TFLite 2.9 and compares each output; returns one diff per output. */
export function compareSingleOp(model: SingleOpModel, o: CompareSingleOpOptions = {}): OutputDiff[] {
  const want = runTflite(model.bytes, model.inputs);
  const got = runMicrort(model.bytes, model.inputs, o.invokes ?? 1);
  if (got.length !== want.outputBytes.length)
    return [{ ok: false, maxAbsDiff: 0, detail: `${got.length} outputs vs ${want.outputBytes.length}` }];
  return got.map((g, j) => {
    const w = { dtype: want.outputs[j]!.dtype, bytes: want.outputBytes[j]!, dims: want.outputShapes[j]! };
    return o.int32In29?.includes(j) ? compareIntegerValues(g, w) : compareOutput(g, w);
  });
}
