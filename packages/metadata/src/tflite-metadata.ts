/**
 * A model's TFLite metadata in one object: the `TFLITE_METADATA` flatbuffer (model, subgraph and
 * tensor descriptions, normalization, content) and the files of the zip archive appended to the
 * `.tflite` (labels), read on demand. What TFLite Support's metadata extractor answers, for the CLI,
 * the playground and `@micrort/lite`.
 */
import { loadModel, type ModelDef } from '@micrort/core';
import { MetadataError } from './errors.js';
import {
  parseModelMetadata,
  type AssociatedFileType,
  type ModelMetadata,
  type Normalization,
  type TensorMetadata,
} from './metadata-schema.js';
import { readZipDirectory, readZipEntry, type ZipEntry } from './zip.js';

/** Name of the metadata entry that holds the metadata flatbuffer. */
export const TFLITE_METADATA = 'TFLITE_METADATA';

const utf8 = new TextDecoder('utf-8');

/**
 * A label file's lines: one label per line (LF or CRLF), empty lines kept in place (a label's index is
 * its line number), trailing empty lines dropped.
 */
export function parseLabels(bytes: Uint8Array): string[] {
  const lines = utf8.decode(bytes).split(/\r?\n/);
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Which associated file of a tensor to read labels from. */
export interface LabelOptions {
  /** The subgraph (default 0, the main one). */
  subgraph?: number;
  /** A locale (`en`); default: the first file of the type, as TFLite Support does. */
  locale?: string;
}

/** The metadata of one model. */
export class TfliteMetadata {
  private readonly labelCache = new Map<string, string[]>();

  private constructor(
    /** The parsed `TFLITE_METADATA` flatbuffer; null when the model has none. */
    readonly metadata: ModelMetadata | null,
    private readonly bytes: Uint8Array,
    private readonly entries: readonly ZipEntry[],
  ) {}

  /**
   * Reads the metadata of the model file `bytes` (`model`: the same file, loaded already; loaded here
   * when absent). A model without metadata gives an object whose answers are all null; a malformed
   * metadata buffer or archive throws `MetadataError`.
   */
  static read(bytes: Uint8Array, model: ModelDef = loadModel(bytes)): TfliteMetadata {
    const entry = model.metadata.find((m) => m.name === TFLITE_METADATA);
    let metadata: ModelMetadata | null = null;
    if (entry) {
      const buffer = model.buffers[entry.buffer];
      if (!buffer) throw new MetadataError(`buffer ${entry.buffer} does not exist (${model.buffers.length} buffers)`, TFLITE_METADATA);
      metadata = parseModelMetadata(buffer.data);
    }
    return new TfliteMetadata(metadata, bytes, readZipDirectory(bytes) ?? []);
  }

  /** Names of the files in the model's zip archive ([] when it has none). */
  get fileNames(): string[] {
    return this.entries.map((e) => e.name);
  }

  /** The bytes of associated file `name` (stored or inflated, CRC-checked). */
  file(name: string): Uint8Array {
    const entry = this.entries.find((e) => e.name === name);
    if (!entry)
      throw new MetadataError(
        this.entries.length
          ? `not in the model's zip archive (it holds ${this.fileNames.join(', ')})`
          : 'the model has no zip archive of associated files',
        name,
      );
    return readZipEntry(this.bytes, entry);
  }

  /** Metadata of input `i` of `subgraph`, when the model describes it. */
  input(i: number, subgraph = 0): TensorMetadata | null {
    return this.metadata?.subgraphs[subgraph]?.inputs[i] ?? null;
  }

  /** Metadata of output `j` of `subgraph`, when the model describes it. */
  output(j: number, subgraph = 0): TensorMetadata | null {
    return this.metadata?.subgraphs[subgraph]?.outputs[j] ?? null;
  }

  /** The normalization input `i` expects ((x − mean) / std per channel), when the metadata gives one. */
  inputNormalization(i: number, subgraph = 0): Normalization | null {
    return this.input(i, subgraph)?.normalization ?? null;
  }

  private labels(t: TensorMetadata | null, type: AssociatedFileType, options: LabelOptions): string[] | null {
    const files = (t?.associatedFiles ?? []).filter((f) => f.type === type);
    const file = (options.locale !== undefined ? files.find((f) => f.locale === options.locale) : undefined) ?? files[0];
    if (!file) return null;
    let labels = this.labelCache.get(file.name);
    if (!labels) {
      labels = parseLabels(this.file(file.name));
      this.labelCache.set(file.name, labels);
    }
    return labels;
  }

  /**
   * The labels of output `j`'s last axis (its `TENSOR_AXIS_LABELS` file: class names of a classifier's
   * scores), or null when the model has none.
   */
  outputLabels(j: number, options: LabelOptions = {}): string[] | null {
    return this.labels(this.output(j, options.subgraph), 'TENSOR_AXIS_LABELS', options);
  }

  /** The labels output `j`'s values index (its `TENSOR_VALUE_LABELS` file: a detector's class ids), or null. */
  outputValueLabels(j: number, options: LabelOptions = {}): string[] | null {
    return this.labels(this.output(j, options.subgraph), 'TENSOR_VALUE_LABELS', options);
  }
}

/** {@link TfliteMetadata.read}. */
export function readTfliteMetadata(bytes: Uint8Array, model?: ModelDef): TfliteMetadata {
  return TfliteMetadata.read(bytes, model);
}
