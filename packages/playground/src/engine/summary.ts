/**
 * What the page shows about a model before running it: name, size, description, inputs and outputs
 * (type, shape, quantization), the op histogram, and every tensor and node of the entry subgraph for
 * the node details. Plain data (structured-clone safe): it crosses from the worker to the page.
 */
import {
  ActivationFunctionType,
  FullyConnectedWeightsFormat,
  MirrorPadMode,
  Padding,
  opDisplayName,
  tensorTypeName,
  type ModelDef,
  type OperatorDef,
  type TensorDef,
} from '@micrort/core';
import type { ModelAnnotations } from '@micrort/app-kit';
import { imageLayout, type ImageLayout, type Normalization } from './inputs.js';

/** Quantization of a tensor, for display. */
export interface QuantInfo {
  /** Per-tensor: one scale and zero point; per-channel: every one of them. */
  scale: number[];
  zeroPoint: number[];
  /** Dimension the per-channel arrays run along. */
  quantizedDimension: number;
}

/** One tensor of the entry subgraph. */
export interface TensorInfo {
  index: number;
  name: string;
  /** `int8`, `float32`, … */
  type: string;
  shape: number[];
  /** Bytes of its data (element size × element count; 0 for types without a fixed size). */
  bytes: number;
  quant: QuantInfo | null;
  /** A constant (weights, bias): its data are in the model. */
  constant: boolean;
  isVariable: boolean;
}

/** One node of the entry subgraph. */
export interface NodeSummary {
  index: number;
  /** `CONV_2D`, `CUSTOM:<name>`. */
  op: string;
  version: number;
  /** Tensor indices; -1 marks an omitted optional input. */
  inputs: number[];
  outputs: number[];
  /** Builtin options as `name: value` pairs (enums by name, e.g. `padding: SAME`; arrays as lists). */
  options: [string, string][];
  /** Bytes of custom options (CUSTOM ops), else 0. */
  customOptionBytes: number;
}

/** The model as the page shows it. */
export interface ModelSummary {
  name: string;
  /** Size of the file in bytes. */
  bytes: number;
  description: string;
  schemaVersion: number;
  subgraphs: number;
  /** Entry subgraph (0). */
  inputs: TensorInfo[];
  outputs: TensorInfo[];
  /** Every tensor of the entry subgraph, by index. */
  tensors: TensorInfo[];
  nodes: NodeSummary[];
  /** `[op, count]`, most frequent first (ties by name). */
  opHistogram: [string, number][];
  /** Bytes of constant data (weights) in the entry subgraph. */
  constantBytes: number;
  /** Names of the model's metadata entries (`TFLITE_METADATA`, `min_runtime_version`, …). */
  metadata: string[];
  /** What TFLite metadata (`TFLITE_METADATA`) says about the model, when it has some. */
  modelMetadata: { name: string; description: string; version: string; author: string; license: string } | null;
  /** Why the metadata could not be read, when it could not (the model still runs). */
  metadataError: string | null;
  /** Each output's class labels (TFLite metadata's TENSOR_AXIS_LABELS file), null where the model names none. */
  outputLabels: (string[] | null)[];
  /** Input 0 when it is an image (4-D, batch 1, 1 or 3 channels, NHWC or NCHW, float32/int8/uint8/int16). */
  imageInput: ImageInput | null;
}

/** An image-shaped input and how its pixels are to be normalized. */
export interface ImageInput extends ImageLayout {
  /** `float32`, `uint8`, … */
  type: string;
  /** The metadata's normalization ((pixel − mean) / std per channel), when it gives one. */
  normalization: Normalization | null;
}

const ELEMENT_BYTES: Record<string, number> = {
  float32: 4,
  float16: 2,
  float64: 8,
  int8: 1,
  uint8: 1,
  bool: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  uint64: 8,
};

function tensorInfo(model: ModelDef, t: TensorDef, index: number): TensorInfo {
  const type = tensorTypeName(t.type).toLowerCase();
  const shape = Array.from(t.shape);
  const count = shape.reduce((p, d) => p * d, 1);
  const q = t.quantization;
  return {
    index,
    name: t.name,
    type,
    shape,
    bytes: (ELEMENT_BYTES[type] ?? 0) * count,
    quant:
      q && q.scale.length > 0
        ? { scale: Array.from(q.scale), zeroPoint: Array.from(q.zeroPoint), quantizedDimension: q.quantizedDimension }
        : null,
    constant: t.buffer > 0 && (model.buffers[t.buffer]?.data.byteLength ?? 0) > 0,
    isVariable: t.isVariable,
  };
}

/** Option fields whose numbers are schema enums, and the enum's name of each value. */
const ENUM_OPTIONS: Record<string, (v: number) => string | undefined> = {
  padding: (v) => Padding[v],
  fusedActivationFunction: (v) => ActivationFunctionType[v],
  weightsFormat: (v) => FullyConnectedWeightsFormat[v],
  mode: (v) => MirrorPadMode[v],
  inDataType: (v) => tensorTypeName(v),
  outDataType: (v) => tensorTypeName(v),
  outputType: (v) => tensorTypeName(v),
  // 0 means "not set" in the schema (the bias takes the kernel's default type)
  quantizedBiasType: (v) => (v === 0 ? 'default' : tensorTypeName(v)),
};

/** An option's value as shown: an enum field by its name (`SAME`, `RELU6`, `int32`), else {@link formatOptionValue}. */
export function formatOption(key: string, value: unknown): string {
  const name = typeof value === 'number' ? ENUM_OPTIONS[key]?.(value) : undefined;
  return name && !/^(unknown|\d)/i.test(name) ? name : formatOptionValue(value);
}

/** `value` as a short string: numbers, booleans, typed arrays and arrays as lists. */
export function formatOptionValue(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (ArrayBuffer.isView(value)) return `[${Array.from(value as unknown as ArrayLike<number>).join(', ')}]`;
  if (Array.isArray(value)) return `[${value.map(formatOptionValue).join(', ')}]`;
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Math.fround(value));
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function nodeSummary(model: ModelDef, op: OperatorDef, index: number): NodeSummary {
  const code = model.operatorCodes[op.opcodeIndex]!;
  const options = op.builtinOptions
    ? Object.entries(op.builtinOptions as unknown as Record<string, unknown>).map(([k, v]) => [k, formatOption(k, v)] as [string, string])
    : [];
  return {
    index,
    op: opDisplayName(code.builtinCode, code.customCode),
    version: code.version,
    inputs: Array.from(op.inputs),
    outputs: Array.from(op.outputs),
    options,
    customOptionBytes: op.customOptions?.byteLength ?? 0,
  };
}

/** The summary of `model` (file `name`, `bytes` long), with what its TFLite metadata says (`annotations`). */
export function summarize(model: ModelDef, name: string, bytes: number, annotations?: ModelAnnotations): ModelSummary {
  const sg = model.subgraphs[0]!;
  const tensors = sg.tensors.map((t, i) => tensorInfo(model, t, i));
  const nodes = sg.operators.map((op, i) => nodeSummary(model, op, i));
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.op, (counts.get(n.op) ?? 0) + 1);
  const opHistogram = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return {
    name,
    bytes,
    description: model.description,
    schemaVersion: model.version,
    subgraphs: model.subgraphs.length,
    inputs: Array.from(sg.inputs, (i) => tensors[i]!),
    outputs: Array.from(sg.outputs, (i) => tensors[i]!),
    tensors,
    nodes,
    opHistogram,
    constantBytes: tensors.filter((t) => t.constant).reduce((s, t) => s + t.bytes, 0),
    metadata: model.metadata.map((m) => m.name),
    modelMetadata: metadataFacts(annotations),
    metadataError: annotations?.error ?? null,
    outputLabels: Array.from(sg.outputs, (_, j) => annotations?.outputLabels[j] ?? null),
    imageInput: imageInputOf(sg.tensors[sg.inputs[0] ?? -1], annotations?.inputNormalization[0] ?? null),
  };
}

function metadataFacts(annotations: ModelAnnotations | undefined): ModelSummary['modelMetadata'] {
  const m = annotations?.metadata?.metadata;
  return m ? { name: m.name, description: m.description, version: m.version, author: m.author, license: m.license } : null;
}

function imageInputOf(t: TensorDef | undefined, normalization: Normalization | null): ImageInput | null {
  const layout = t ? imageLayout(t.type, Array.from(t.shape)) : null;
  return t && layout ? { ...layout, type: tensorTypeName(t.type).toLowerCase(), normalization } : null;
}

/** `int8[1,96,96,1]`. */
export function typeAndShape(t: Pick<TensorInfo, 'type' | 'shape'>): string {
  return `${t.type}[${t.shape.join(',')}]`;
}

/** `scale 0.0039, zero point -128`, or `per-channel (32 scales on dim 0)`, or `not quantized`. */
export function describeQuant(q: QuantInfo | null): string {
  if (!q) return 'not quantized';
  if (q.scale.length === 1) return `scale ${Number(q.scale[0]!.toPrecision(6))}, zero point ${q.zeroPoint[0] ?? 0}`;
  return `per-channel: ${q.scale.length} scales on dim ${q.quantizedDimension}`;
}
