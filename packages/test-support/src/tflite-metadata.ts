/**
 * Writing what TFLite Support's MetadataPopulator writes, for tests: the `TFLITE_METADATA` flatbuffer
 * (tflite-support's metadata_schema.fbs, identifier `M001`: ModelMetadata → SubGraphMetadata →
 * TensorMetadata with content, normalization and associated files), a zip archive (stored or deflated
 * entries) appended to the model, and a small uint8 image classifier carrying both: labels and the
 * mean/std normalization of its input.
 */
import { deflateRawSync } from 'node:zlib';
import { Builder } from 'flatbuffers';
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType } from '@micrort/core';

/** An associated file as the metadata describes it. */
export interface AssociatedFileSpec {
  name: string;
  description?: string;
  /** AssociatedFileType: 1 DESCRIPTIONS, 2 TENSOR_AXIS_LABELS, 3 TENSOR_VALUE_LABELS, 5 VOCABULARY. */
  type: number;
  locale?: string;
}

/** A TensorMetadata. */
export interface TensorMetadataSpec {
  name?: string;
  description?: string;
  /** `image` (ImageProperties, RGB) or `feature` (FeatureProperties). */
  content?: 'image' | 'feature';
  normalization?: { mean: number[]; std: number[] };
  associatedFiles?: AssociatedFileSpec[];
}

/** A ModelMetadata with one subgraph. */
export interface ModelMetadataSpec {
  name?: string;
  description?: string;
  version?: string;
  author?: string;
  license?: string;
  inputs?: TensorMetadataSpec[];
  outputs?: TensorMetadataSpec[];
}

/** The metadata flatbuffer for `spec` (what goes into the model's `TFLITE_METADATA` buffer). */
export function writeModelMetadata(spec: ModelMetadataSpec): Uint8Array {
  const b = new Builder(1024);
  const str = (s: string | undefined) => (s === undefined ? 0 : b.createString(s));
  const offsets = (list: number[]) => {
    b.startVector(4, list.length, 4);
    for (let i = list.length - 1; i >= 0; i--) b.addOffset(list[i]!);
    return b.endVector();
  };
  const floats = (list: number[]) => {
    b.startVector(4, list.length, 4);
    for (let i = list.length - 1; i >= 0; i--) b.addFloat32(list[i]!);
    return b.endVector();
  };
  const files = (list: AssociatedFileSpec[] | undefined) => {
    if (!list) return 0;
    const made = list.map((f) => {
      const name = str(f.name);
      const description = str(f.description);
      const locale = str(f.locale);
      b.startObject(5); // name, description, type, locale, version
      if (name) b.addFieldOffset(0, name, 0);
      if (description) b.addFieldOffset(1, description, 0);
      b.addFieldInt8(2, f.type, 0);
      if (locale) b.addFieldOffset(3, locale, 0);
      return b.endObject();
    });
    return offsets(made);
  };
  const tensor = (t: TensorMetadataSpec) => {
    const name = str(t.name);
    const description = str(t.description);
    let content = 0;
    if (t.content) {
      let props: number;
      if (t.content === 'image') {
        b.startObject(2); // ImageProperties: color_space, default_size
        b.addFieldInt8(0, 1, 0); // RGB
        props = b.endObject();
      } else {
        b.startObject(0); // FeatureProperties
        props = b.endObject();
      }
      b.startObject(3); // Content: content_properties_type, content_properties, range
      b.addFieldInt8(0, t.content === 'image' ? 2 : 1, 0);
      b.addFieldOffset(1, props, 0);
      content = b.endObject();
    }
    let units = 0;
    if (t.normalization) {
      const mean = floats(t.normalization.mean);
      const std = floats(t.normalization.std);
      b.startObject(2); // NormalizationOptions: mean, std
      b.addFieldOffset(0, mean, 0);
      b.addFieldOffset(1, std, 0);
      const options = b.endObject();
      b.startObject(2); // ProcessUnit: options_type, options
      b.addFieldInt8(0, 1, 0); // NormalizationOptions
      b.addFieldOffset(1, options, 0);
      units = offsets([b.endObject()]);
    }
    const assoc = files(t.associatedFiles);
    b.startObject(7); // name, description, dimension_names, content, process_units, stats, associated_files
    if (name) b.addFieldOffset(0, name, 0);
    if (description) b.addFieldOffset(1, description, 0);
    if (content) b.addFieldOffset(3, content, 0);
    if (units) b.addFieldOffset(4, units, 0);
    if (assoc) b.addFieldOffset(6, assoc, 0);
    return b.endObject();
  };
  const inputs = offsets((spec.inputs ?? []).map(tensor));
  const outputs = offsets((spec.outputs ?? []).map(tensor));
  b.startObject(5); // SubGraphMetadata: name, description, input_tensor_metadata, output_tensor_metadata, associated_files
  b.addFieldOffset(2, inputs, 0);
  b.addFieldOffset(3, outputs, 0);
  const subgraphs = offsets([b.endObject()]);
  const [name, description, version, author, license, parser] = [
    spec.name,
    spec.description,
    spec.version,
    spec.author,
    spec.license,
    '1.0.0',
  ].map(str);
  b.startObject(8); // name, description, version, subgraph_metadata, author, license, associated_files, min_parser_version
  if (name) b.addFieldOffset(0, name, 0);
  if (description) b.addFieldOffset(1, description, 0);
  if (version) b.addFieldOffset(2, version, 0);
  b.addFieldOffset(3, subgraphs, 0);
  if (author) b.addFieldOffset(4, author, 0);
  if (license) b.addFieldOffset(5, license, 0);
  b.addFieldOffset(7, parser!, 0);
  b.finish(b.endObject(), 'M001');
  return b.asUint8Array().slice();
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const v of bytes) {
    c ^= v;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** A file for {@link writeZip}. */
export interface ZipFileSpec {
  name: string;
  data: Uint8Array | string;
  /** Deflate it (default: stored). */
  deflate?: boolean;
}

/**
 * A zip archive of `files`. `base` is the file offset the archive will start at (its offsets count from
 * the start of the file, as Python's zipfile writes when appending to a model); 0 makes offsets count
 * from the archive's own start.
 */
export function writeZip(files: ZipFileSpec[], base = 0): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const data = typeof f.data === 'string' ? new TextEncoder().encode(f.data) : f.data;
    const body = f.deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(f.name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(f.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(f.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(base + offset, 42);
    locals.push(local, name, Buffer.from(body));
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(base + offset, 16);
  return new Uint8Array(Buffer.concat([...locals, cd, end]));
}

/** `model` with a zip archive of `files` appended, offsets counted from the start of the file (as TFLite Support writes it). */
export function appendZip(model: Uint8Array, files: ZipFileSpec[], offsetsFromFileStart = true): Uint8Array {
  const zip = writeZip(files, offsetsFromFileStart ? model.length : 0);
  const out = new Uint8Array(model.length + zip.length);
  out.set(model);
  out.set(zip, model.length);
  return out;
}

/** The labels of {@link buildLabelledUint8Classifier}. */
export const FLOWER_LABELS = ['daisy', 'dandelion', 'roses', 'sunflowers', 'tulips'];

/** Deterministic pseudo-random bytes (LCG). */
function lcgBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

/**
 * A small uint8 image classifier, as TFLite's converter makes one from a float model trained on [-1, 1]
 * inputs, with TFLite Support's metadata: input `image` uint8[1,16,16,3] (scale 1/128, zero point 128;
 * metadata: RGB image, normalization mean 127.5, std 127.5), three CONV_2D (uint8, RELU6), one
 * DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, RESHAPE, FULLY_CONNECTED and SOFTMAX to `probabilities`
 * uint8[1,5] (scale 1/256), whose metadata names `labels.txt` (deflated in the appended zip, with a
 * stored `README.txt`) as its TENSOR_AXIS_LABELS.
 */
export function buildLabelledUint8Classifier(labels: readonly string[] = FLOWER_LABELS): Uint8Array {
  const U8 = TensorType.UINT8;
  const b = new ModelBuilder({ description: 'a uint8 image classifier with TFLite metadata and labels (test model)' });
  const act = (name: string, shape: number[], scale: number, zeroPoint: number) =>
    b.addTensor({ name, type: U8, shape, quantization: { scale, zeroPoint } });
  const image = act('image', [1, 16, 16, 3], 1 / 128, 128);
  let x = image;
  let channels = 3;
  let inScale = 1 / 128;
  const conv = (i: number, out: number, stride: number, size: number) => {
    const w = b.addTensor({
      name: `conv${i}/weights`,
      type: U8,
      shape: [out, 3, 3, channels],
      data: lcgBytes(out * 9 * channels, 11 + i),
      quantization: { scale: 0.02, zeroPoint: 128 },
    });
    const bias = b.addTensor({
      name: `conv${i}/bias`,
      type: TensorType.INT32,
      shape: [out],
      data: Int32Array.from({ length: out }, (_, k) => (k % 3) * 200 - 200),
      quantization: { scale: inScale * 0.02, zeroPoint: 0 },
    });
    const y = act(`conv${i}/relu6`, [1, size, size, out], 6 / 255, 0);
    b.addOperator({
      op: BuiltinOperator.CONV_2D,
      inputs: [x, w, bias],
      outputs: [y],
      options: { padding: Padding.SAME, strideW: stride, strideH: stride, fusedActivationFunction: ActivationFunctionType.RELU6 },
    });
    x = y;
    channels = out;
    inScale = 6 / 255;
  };
  conv(0, 8, 2, 8);
  const dw = b.addTensor({
    name: 'dw/weights',
    type: U8,
    shape: [1, 3, 3, 8],
    data: lcgBytes(72, 5),
    quantization: { scale: 0.03, zeroPoint: 128 },
  });
  const dwBias = b.addTensor({
    name: 'dw/bias',
    type: TensorType.INT32,
    shape: [8],
    data: new Int32Array(8),
    quantization: { scale: (6 / 255) * 0.03, zeroPoint: 0 },
  });
  const dwOut = act('dw/relu6', [1, 8, 8, 8], 6 / 255, 0);
  b.addOperator({
    op: BuiltinOperator.DEPTHWISE_CONV_2D,
    inputs: [x, dw, dwBias],
    outputs: [dwOut],
    options: { padding: Padding.SAME, strideW: 1, strideH: 1, depthMultiplier: 1, fusedActivationFunction: ActivationFunctionType.RELU6 },
  });
  x = dwOut;
  conv(1, 8, 2, 4);
  conv(2, 8, 1, 4);
  const pooled = act('pool', [1, 1, 1, 8], 6 / 255, 0);
  b.addOperator({
    op: BuiltinOperator.AVERAGE_POOL_2D,
    inputs: [x],
    outputs: [pooled],
    options: { padding: Padding.VALID, strideW: 4, strideH: 4, filterWidth: 4, filterHeight: 4 },
  });
  const shape = b.addTensor({ name: 'flatten/shape', type: TensorType.INT32, shape: [2], data: Int32Array.of(1, 8) });
  const flat = act('flatten', [1, 8], 6 / 255, 0);
  b.addOperator({ op: BuiltinOperator.RESHAPE, inputs: [pooled, shape], outputs: [flat], options: { newShape: Int32Array.of(1, 8) } });
  const n = labels.length;
  const fcW = b.addTensor({
    name: 'logits/weights',
    type: U8,
    shape: [n, 8],
    data: lcgBytes(n * 8, 23),
    quantization: { scale: 0.01, zeroPoint: 128 },
  });
  const fcB = b.addTensor({
    name: 'logits/bias',
    type: TensorType.INT32,
    shape: [n],
    data: Int32Array.from({ length: n }, (_, k) => k * 150 - 300),
    quantization: { scale: (6 / 255) * 0.01, zeroPoint: 0 },
  });
  const logits = act('logits', [1, n], 0.02, 128);
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [flat, fcW, fcB], outputs: [logits] });
  const probs = act('probabilities', [1, n], 1 / 256, 0);
  b.addOperator({ op: BuiltinOperator.SOFTMAX, inputs: [logits], outputs: [probs], options: { beta: 1 } });
  b.setInputs([image]).setOutputs([probs]);
  b.addMetadata(
    'TFLITE_METADATA',
    writeModelMetadata({
      name: 'flower classifier (test)',
      description: 'Identifies five kinds of flowers (random weights: a test model).',
      version: 'v1',
      author: 'micrort tests',
      license: 'Apache-2.0',
      inputs: [{ name: 'image', description: 'RGB image', content: 'image', normalization: { mean: [127.5], std: [127.5] } }],
      outputs: [
        {
          name: 'probability',
          description: 'Probabilities of the five labels.',
          content: 'feature',
          associatedFiles: [{ name: 'labels.txt', description: 'Labels for the categories', type: 2 }],
        },
      ],
    }),
  );
  return appendZip(b.build(), [
    { name: 'labels.txt', data: `${labels.join('\n')}\n`, deflate: true },
    { name: 'README.txt', data: 'a test model' },
  ]);
}
