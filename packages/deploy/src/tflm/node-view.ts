/**
 * What a kernel model sees of one node: its tensors (type, shape, quantization, constant data) and
 * options, read straight from the model (TFLM sizes its op data from the same flatbuffer fields).
 */
import { BuiltinOperator, TensorType, elementSize, opDisplayName, type ModelDef, type OperatorDef, type TensorDef } from '@micrort/core';

/** One tensor as a TFLM kernel sees it in prepare. */
export interface TensorView {
  readonly index: number;
  readonly def: TensorDef;
  readonly type: TensorType;
  readonly shape: Int32Array;
  /**
   * Whether TFLM gives the TfLiteTensor a TfLiteAffineQuantization (InitializeTfLiteTensorFromFlatbuffer:
   * quantization with a non-empty scale and a non-empty zero_point vector).
   */
  readonly quantized: boolean;
  /** Number of scales (per-channel quantization when > 1); 0 when not quantized. */
  readonly channels: number;
  /** Constant data from the model, or null. */
  readonly data: Uint8Array | null;
  readonly isVariable: boolean;
  /** Element count (1 for a scalar). */
  readonly elements: number;
  /** TfLiteEvalTensorByteLength: element count × element size (0 for types without a fixed size). */
  readonly bytes: number;
}

/** One node of one subgraph. */
export interface NodeView {
  readonly model: ModelDef;
  readonly subgraph: number;
  readonly index: number;
  /** `CONV_2D` or `CUSTOM:<name>`. */
  readonly op: string;
  readonly builtinCode: number;
  readonly customName: string | null;
  readonly version: number;
  readonly def: OperatorDef;
  /** Inputs by position; null for an omitted optional input (-1). */
  readonly inputs: readonly (TensorView | null)[];
  readonly outputs: readonly (TensorView | null)[];
  readonly intermediates: readonly (TensorView | null)[];
  /** Parsed builtin options (see @micrort/core options.ts), or null. */
  readonly options: Record<string, unknown> | null;
  /** Custom options bytes, or null. */
  readonly customOptions: Uint8Array | null;
}

const cache = new WeakMap<ModelDef, Map<string, TensorView>>();

/** The TensorView of tensor `index` of subgraph `subgraph`. */
export function tensorView(model: ModelDef, subgraph: number, index: number): TensorView {
  let perModel = cache.get(model);
  if (!perModel) cache.set(model, (perModel = new Map()));
  const key = `${subgraph}:${index}`;
  const hit = perModel.get(key);
  if (hit) return hit;
  const def = model.subgraphs[subgraph]!.tensors[index]!;
  const q = def.quantization;
  const quantized = !!q && q.scale.length > 0 && q.zeroPoint.length > 0;
  const buf = model.buffers[def.buffer];
  const data = buf && buf.data.byteLength > 0 ? buf.data : null;
  let elements = 1;
  for (const d of def.shape) elements *= d;
  const es = elementSize(def.type) ?? 0;
  const view: TensorView = {
    index,
    def,
    type: def.type,
    shape: def.shape,
    quantized,
    channels: quantized ? q!.scale.length : 0,
    data,
    isVariable: def.isVariable,
    elements,
    bytes: elements * es,
  };
  perModel.set(key, view);
  return view;
}

/** The NodeView of operator `index` of subgraph `subgraph`. */
export function nodeView(model: ModelDef, subgraph: number, index: number): NodeView {
  const def = model.subgraphs[subgraph]!.operators[index]!;
  const code = model.operatorCodes[def.opcodeIndex]!;
  const list = (a: Int32Array) => Array.from(a, (t) => (t >= 0 ? tensorView(model, subgraph, t) : null));
  return {
    model,
    subgraph,
    index,
    op: opDisplayName(code.builtinCode, code.customCode),
    builtinCode: code.builtinCode,
    customName: code.builtinCode === BuiltinOperator.CUSTOM ? (code.customCode ?? '') : null,
    version: code.version,
    def,
    inputs: list(def.inputs),
    outputs: list(def.outputs),
    intermediates: list(def.intermediates),
    options: (def.builtinOptions as Record<string, unknown> | null) ?? null,
    customOptions: def.customOptions,
  };
}

/** Reads the constant int32 (or int64) values of a tensor, or null when it has no data. */
export function constantInts(t: TensorView | null): number[] | null {
  if (!t || !t.data) return null;
  const v = new DataView(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const out: number[] = [];
  if (t.type === TensorType.INT64) for (let i = 0; i + 8 <= t.data.byteLength; i += 8) out.push(Number(v.getBigInt64(i, true)));
  else if (t.type === TensorType.INT32) for (let i = 0; i + 4 <= t.data.byteLength; i += 4) out.push(v.getInt32(i, true));
  else return null;
  return out;
}
