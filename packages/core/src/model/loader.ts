import * as flatbuffers from 'flatbuffers';
import { ARENA_ALIGNMENT, type TensorType } from '../types.js';
import {
  BlockwiseQuantization,
  Buffer,
  CustomQuantization,
  ExternalBuffer,
  Metadata,
  MultiAxisQuantization,
  Model,
  Operator,
  OperatorCode,
  QuantizationDetails,
  QuantizationParameters,
  SignatureDef,
  SubGraph,
  Tensor,
  TensorMap,
} from './generated/tflite.js';
import { ModelError } from '../errors.js';
import type {
  BufferDef,
  ExternalBufferDef,
  MetadataDef,
  ModelDef,
  OperatorCodeDef,
  OperatorDef,
  QuantizationDef,
  QuantizationDetailsDef,
  SignatureDefDef,
  SignatureTensorDef,
  SubgraphDef,
  TensorDef,
} from './model-def.js';
import { readBuiltinOptions } from './options-codec.js';
import { readBuiltinOptions2 } from './options2-codec.js';
import { readSparsity } from './sparsity.js';
import { verifyModel, type VerifyOptions } from './verifier.js';

/** Options of {@link loadModel}. */
export interface LoadOptions extends VerifyOptions {
  /**
   * Verify the file first (default true). Pass false only for bytes already verified (e.g. written by
   * `writeModel` in the same process): an unverified malformed file may then throw anything.
   */
  verify?: boolean;
  /**
   * The files a model keeps constant data in (LiteRT's external buffers, schema 3d), by the name the
   * model gives them (`ExternalBufferGroup.name`, e.g. `"weights.bin"`): each tensor whose data live
   * there gets a buffer viewing its `length` bytes at `offset`. A model that names such a file is refused
   * with a ModelError saying which file, which tensors and how to pass it, unless it is given here.
   */
  externalFiles?: Readonly<Record<string, Uint8Array>>;
}

/** Buffer `offset`/`size` fields are meaningful only when offset > 1 (schema comment). */
const MIN_EXTERNAL_OFFSET = 1n;

/**
 * Loads a .tflite file into a plain {@link ModelDef}: verifies it (see `verifyModel`), then reads every
 * table through the generated FlatBuffers code. Builtin options become the objects of options.ts (schema
 * defaults for absent fields; `{}` for option types micrort does not parse). `builtinCode` is
 * max(deprecated_builtin_code, builtin_code), as TFLite's `GetBuiltinCode`.
 *
 * Constant buffers are zero-copy `Uint8Array` views into the model bytes when their absolute byte offset
 * is 16-byte aligned (`zeroCopy: true`), else 16-byte-aligned copies. When `bytes` itself starts at an
 * unaligned byteOffset the whole model is copied once into a fresh ArrayBuffer first, so views of a
 * well-formed file stay zero-copy. Buffers in the external form (`offset`/`size` after the flatbuffer)
 * resolve to the same kind of view of the file.
 */
export function loadModel(bytes: Uint8Array, options: LoadOptions = {}): ModelDef {
  const file = bytes.byteOffset % ARENA_ALIGNMENT === 0 ? bytes : bytes.slice();
  if (options.verify ?? true) verifyModel(file, options);
  const def = new ModelReader(file).read();
  if (def.externalBuffers?.length) resolveExternalBuffers(def, options.externalFiles ?? {});
  return def;
}

/**
 * Gives every tensor whose data live in an external file (`TensorDef.externalBuffer`) a buffer over
 * those bytes of `files`; a ModelError names the files missing (and the tensors that need them) or a
 * slice that runs past its file or does not match its tensor.
 */
function resolveExternalBuffers(def: ModelDef, files: Readonly<Record<string, Uint8Array>>): void {
  const byId = new Map((def.externalBuffers ?? []).map((e) => [e.id, e]));
  const groups = def.externalBufferGroups ?? [];
  const missing = new Map<string, string[]>();
  def.subgraphs.forEach((sg, s) =>
    sg.tensors.forEach((t, i) => {
      if (!t.externalBuffer) return;
      const ext = byId.get(t.externalBuffer)!;
      const name = groups[ext.group]!.name;
      const loc = { table: 'Tensor', field: 'external_buffer', index: i, path: `model.subgraphs[${s}].tensors[${i}]` };
      const file = files[name];
      if (!file) {
        missing.set(name, [...(missing.get(name) ?? []), `"${t.name}"`]);
        return;
      }
      if (ext.offset + ext.length > file.byteLength)
        throw new ModelError(
          `tensor "${t.name}" reads ${ext.length} bytes at offset ${ext.offset} of external file "${name}", which has ${file.byteLength}`,
          loc,
        );
      t.buffer = def.buffers.push(alignedBytes(file.subarray(ext.offset, ext.offset + ext.length))) - 1;
    }),
  );
  if (missing.size === 0) return;
  const list = [...missing].map(
    ([name, tensors]) => `"${name}" (${tensors.length} tensors: ${tensors.slice(0, 3).join(', ')}${tensors.length > 3 ? ', …' : ''})`,
  );
  throw new ModelError(
    `the model keeps constant data outside the .tflite file, in ${list.join(' and ')}: pass ${missing.size === 1 ? 'that file' : 'those files'} ` +
      `as loadModel(bytes, { externalFiles: { ${[...missing.keys()].map((n) => `"${n}": <its bytes>`).join(', ')} } })`,
    { table: 'Model', field: 'external_buffers' },
  );
}

/** A view of `data` when its absolute byte offset is 16-byte aligned, else an aligned copy. */
function alignedBytes(data: Uint8Array): BufferDef {
  if (data.byteLength === 0) return { data: new Uint8Array(0) };
  if (data.byteOffset % ARENA_ALIGNMENT === 0) return { data, zeroCopy: true };
  return { data: data.slice(), zeroCopy: false };
}

function copyInt32(length: number, at: (i: number) => number | null): Int32Array {
  const out = new Int32Array(length);
  for (let i = 0; i < length; i++) out[i] = at(i) ?? 0;
  return out;
}

function copyFloat32(length: number, at: (i: number) => number | null): Float32Array {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = at(i) ?? 0;
  return out;
}

class ModelReader {
  private readonly model: Model;
  /** Byte length of each buffer's data (read before the tensors, which keep sparsity only on constants). */
  private bufferBytes: number[] = [];

  constructor(private readonly file: Uint8Array) {
    this.model = Model.getRootAsModel(new flatbuffers.ByteBuffer(file));
  }

  read(): ModelDef {
    const m = this.model;
    const def: ModelDef = {
      version: m.version(),
      description: m.description() ?? '',
      operatorCodes: this.readOperatorCodes(),
      subgraphs: [],
      buffers: this.readBuffers(),
      metadata: this.readMetadata(),
      signatureDefs: this.readSignatureDefs(),
    };
    this.readExternalBuffers(def);
    const sg = new SubGraph();
    for (let i = 0, n = m.subgraphsLength(); i < n; i++) def.subgraphs.push(this.readSubgraph(m.subgraphs(i, sg)!));
    if (m.metadataBufferLength() > 0) def.metadataBuffer = copyInt32(m.metadataBufferLength(), (i) => m.metadataBuffer(i));
    return def;
  }

  private readOperatorCodes(): OperatorCodeDef[] {
    const out: OperatorCodeDef[] = [];
    const oc = new OperatorCode();
    for (let i = 0, n = this.model.operatorCodesLength(); i < n; i++) {
      const c = this.model.operatorCodes(i, oc)!;
      const deprecated = c.deprecatedBuiltinCode();
      out.push({
        builtinCode: Math.max(deprecated, c.builtinCode()),
        deprecatedBuiltinCode: deprecated,
        customCode: c.customCode(),
        version: c.version(),
      });
    }
    return out;
  }

  private readBuffers(): BufferDef[] {
    const out: BufferDef[] = [];
    this.bufferBytes = [];
    const b = new Buffer();
    for (let i = 0, n = this.model.buffersLength(); i < n; i++) {
      const buffer = this.model.buffers(i, b)!;
      const offset = buffer.offset();
      if (offset > MIN_EXTERNAL_OFFSET) {
        const start = Number(offset);
        const size = Number(buffer.size());
        out.push({ ...alignedBytes(this.file.subarray(start, start + size)), offset: start, size });
      } else {
        out.push(alignedBytes(buffer.dataArray() ?? new Uint8Array(0)));
      }
      this.bufferBytes.push(out[out.length - 1]!.data.byteLength);
    }
    return out;
  }

  private readSubgraph(sg: SubGraph): SubgraphDef {
    const tensors: TensorDef[] = [];
    const t = new Tensor();
    const q = new QuantizationParameters();
    for (let i = 0, n = sg.tensorsLength(); i < n; i++) tensors.push(this.readTensor(sg.tensors(i, t)!, q));
    const operators: OperatorDef[] = [];
    const op = new Operator();
    for (let i = 0, n = sg.operatorsLength(); i < n; i++) operators.push(this.readOperator(sg.operators(i, op)!));
    return {
      name: sg.name() ?? '',
      tensors,
      inputs: copyInt32(sg.inputsLength(), (i) => sg.inputs(i)),
      outputs: copyInt32(sg.outputsLength(), (i) => sg.outputs(i)),
      operators,
    };
  }

  private readTensor(t: Tensor, q: QuantizationParameters): TensorDef {
    const def: TensorDef = {
      name: t.name() ?? '',
      type: t.type() as number as TensorType,
      shape: copyInt32(t.shapeLength(), (i) => t.shape(i)),
      buffer: t.buffer(),
      quantization: this.readQuantization(t.quantization(q)),
      isVariable: t.isVariable(),
    };
    if (t.shapeSignatureLength() > 0) def.shapeSignature = copyInt32(t.shapeSignatureLength(), (i) => t.shapeSignature(i));
    const sparsity = t.sparsity();
    // As TFLite's SetTensorParametersReadWrite: sparsity means something on constants only.
    if (sparsity && (this.bufferBytes[def.buffer] ?? 0) > 0) def.sparsity = readSparsity(sparsity);
    if (t.hasRank()) def.hasRank = true;
    if (t.variantTensorsLength() > 0) {
      def.variantTensors = [];
      for (let i = 0, n = t.variantTensorsLength(); i < n; i++) {
        const v = t.variantTensors(i)!;
        def.variantTensors.push({
          shape: copyInt32(v.shapeLength(), (k) => v.shape(k)),
          type: v.type() as number as TensorType,
          hasRank: v.hasRank(),
        });
      }
    }
    if (t.externalBuffer() !== 0) def.externalBuffer = t.externalBuffer();
    return def;
  }

  /** The `details` union, when set. */
  private readDetails(q: QuantizationParameters): QuantizationDetailsDef | undefined {
    switch (q.detailsType()) {
      case QuantizationDetails.CustomQuantization: {
        const c = q.details(new CustomQuantization()) as CustomQuantization | null;
        return { kind: 'custom', custom: c?.customArray() ?? new Uint8Array(0) };
      }
      case QuantizationDetails.BlockwiseQuantization: {
        const b = q.details(new BlockwiseQuantization()) as BlockwiseQuantization | null;
        return b ? { kind: 'blockwise', scales: b.scales(), zeroPoints: b.zeroPoints(), blockSize: b.blockSize() } : undefined;
      }
      case QuantizationDetails.MultiAxisQuantization: {
        const m = q.details(new MultiAxisQuantization()) as MultiAxisQuantization | null;
        if (!m) return undefined;
        const dims = copyInt32(m.quantizedDimensionsLength(), (i) => m.quantizedDimensions(i));
        return { kind: 'multiAxis', scales: m.scales(), zeroPoints: m.zeroPoints(), blockSize: m.blockSize(), quantizedDimensions: dims };
      }
      default:
        return undefined;
    }
  }

  /** `null` for an absent table and for the empty table converters write on float tensors. */
  private readQuantization(q: QuantizationParameters | null): QuantizationDef | null {
    if (!q) return null;
    const scales = q.scaleLength();
    const mins = q.minLength();
    const maxs = q.maxLength();
    const details = this.readDetails(q);
    if (scales === 0 && q.zeroPointLength() === 0 && mins === 0 && maxs === 0 && !details) return null;
    const def: QuantizationDef = {
      scale: copyFloat32(scales, (i) => q.scale(i)),
      zeroPoint: copyInt32(q.zeroPointLength(), (i) => Number(q.zeroPoint(i) ?? 0n)),
      quantizedDimension: q.quantizedDimension(),
    };
    if (mins > 0) def.min = copyFloat32(mins, (i) => q.min(i));
    if (maxs > 0) def.max = copyFloat32(maxs, (i) => q.max(i));
    if (details) def.details = details;
    return def;
  }

  private readOperator(op: Operator): OperatorDef {
    const def: OperatorDef = {
      opcodeIndex: op.opcodeIndex(),
      inputs: copyInt32(op.inputsLength(), (i) => op.inputs(i)),
      outputs: copyInt32(op.outputsLength(), (i) => op.outputs(i)),
      intermediates: copyInt32(op.intermediatesLength(), (i) => op.intermediates(i)),
      builtinOptionsType: op.builtinOptionsType() as number,
      builtinOptions: readBuiltinOptions(op),
      customOptions: this.readCustomOptions(op),
    };
    const mutating = op.mutatingVariableInputsLength();
    if (mutating > 0) {
      def.mutatingVariableInputs = [];
      for (let i = 0; i < mutating; i++) def.mutatingVariableInputs.push(op.mutatingVariableInputs(i) ?? false);
    }
    const options2 = op.builtinOptions2Type() as number;
    if (options2 !== 0) {
      def.builtinOptions2Type = options2;
      const parsed = readBuiltinOptions2(op);
      if (parsed) def.builtinOptions2 = parsed;
    }
    return def;
  }

  private readCustomOptions(op: Operator): Uint8Array | null {
    const largeOffset = op.largeCustomOptionsOffset();
    if (largeOffset > MIN_EXTERNAL_OFFSET) {
      const start = Number(largeOffset);
      return this.file.subarray(start, start + Number(op.largeCustomOptionsSize()));
    }
    return op.customOptionsArray();
  }

  private readExternalBuffers(def: ModelDef): void {
    const m = this.model;
    if (m.externalBufferGroupsLength() > 0) {
      def.externalBufferGroups = [];
      for (let i = 0, n = m.externalBufferGroupsLength(); i < n; i++)
        def.externalBufferGroups.push({ name: m.externalBufferGroups(i)!.name() ?? '' });
    }
    if (m.externalBuffersLength() === 0) return;
    const e = new ExternalBuffer();
    const list: ExternalBufferDef[] = [];
    for (let i = 0, n = m.externalBuffersLength(); i < n; i++) {
      const x = m.externalBuffers(i, e)!;
      list.push({ id: x.id(), group: x.group(), offset: Number(x.offset()), length: Number(x.length()), packing: x.packing() ?? '' });
    }
    def.externalBuffers = list;
  }

  private readMetadata(): MetadataDef[] {
    const out: MetadataDef[] = [];
    const md = new Metadata();
    for (let i = 0, n = this.model.metadataLength(); i < n; i++) {
      const m = this.model.metadata(i, md)!;
      out.push({ name: m.name() ?? '', buffer: m.buffer() });
    }
    return out;
  }

  private readSignatureDefs(): SignatureDefDef[] {
    const out: SignatureDefDef[] = [];
    const sig = new SignatureDef();
    const tm = new TensorMap();
    const readMaps = (length: number, at: (i: number) => TensorMap): SignatureTensorDef[] => {
      const maps: SignatureTensorDef[] = [];
      for (let i = 0; i < length; i++) {
        const map = at(i);
        maps.push({ name: map.name() ?? '', tensorIndex: map.tensorIndex() });
      }
      return maps;
    };
    for (let i = 0, n = this.model.signatureDefsLength(); i < n; i++) {
      const s = this.model.signatureDefs(i, sig)!;
      out.push({
        signatureKey: s.signatureKey() ?? '',
        subgraphIndex: s.subgraphIndex(),
        inputs: readMaps(s.inputsLength(), (k) => s.inputs(k, tm)!),
        outputs: readMaps(s.outputsLength(), (k) => s.outputs(k, tm)!),
      });
    }
    return out;
  }
}
