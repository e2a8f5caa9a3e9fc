import * as flatbuffers from 'flatbuffers';
import { ARENA_ALIGNMENT } from '../types.js';
import {
  BlockwiseQuantization,
  Buffer,
  CustomQuantization,
  DimensionMetadata,
  DimensionType,
  ExternalBuffer,
  ExternalBufferGroup,
  Int32Vector,
  Metadata,
  Model,
  MultiAxisQuantization,
  Operator,
  OperatorCode,
  QuantizationDetails,
  QuantizationParameters,
  SignatureDef,
  SparseIndexVector,
  SparsityParameters,
  SubGraph,
  Tensor,
  TensorMap,
  Uint16Vector,
  Uint8Vector,
  VariantSubType,
} from './generated/tflite.js';
import type {
  BufferDef,
  ModelDef,
  OperatorDef,
  QuantizationDef,
  QuantizationDetailsDef,
  RawOptionField,
  SignatureTensorDef,
  SparseIndexArrayDef,
  SparsityDef,
  SubgraphDef,
  TensorDef,
} from './model-def.js';
import { writeBuiltinOptions } from './options-codec.js';
import { writeBuiltinOptions2 } from './options2-codec.js';
import { TFLITE_FILE_IDENTIFIER } from './verify-structure.js';
import { TFLITE_SCHEMA_VERSION } from './verify-semantics.js';

/** Room for the tables around the constant data, for the builder's first allocation. */
const TABLE_BYTES_ESTIMATE = 64 * 1024;
/** Placeholder file offset for the first pass of an external-data write (any value > 1 takes 8 bytes). */
const OFFSET_PLACEHOLDER = 2;

/** Options of {@link writeModel}. */
export interface WriteOptions {
  /**
   * Store every non-empty constant buffer after the flatbuffer, referenced by the Buffer table's
   * `offset`/`size` fields (the form TFLite uses for models over 2 GB), each 16-byte aligned in the file.
   * Default false: constant data is stored inline in `Buffer.data`.
   */
  externalData?: boolean;
}

/**
 * Serializes a {@link ModelDef} as a .tflite file: file identifier "TFL3", schema version 3, buffer 0
 * the empty sentinel, every constant buffer 16-byte aligned from the start of the file, and every builtin
 * options type of options.ts written back field by field (other option types as empty tables of the
 * right union type). The result is a fresh Uint8Array at byteOffset 0.
 *
 * The writer reproduces what the def says without judging it (indices are written as given), so it can
 * also produce malformed files for tests; `loadModel` verifies. One normalization happens: if
 * `def.buffers[0]` is missing or holds data, an empty sentinel is inserted at 0 and every buffer index
 * shifts by one. Constant data is written inline (`Buffer.data`) whatever form it was read from, unless
 * `options.externalData` asks for the offset/size form.
 */
export function writeModel(def: ModelDef, options: WriteOptions = {}): Uint8Array {
  if (!options.externalData) return new ModelWriter(def, null).write();
  // Pass 1 with placeholder offsets fixes the flatbuffer's size (8-byte offset fields are present either
  // way); pass 2 writes the real offsets; the data then follows the flatbuffer.
  const probe = new ModelWriter(def, () => OFFSET_PLACEHOLDER).write();
  const offsets: number[] = [];
  let end = probe.byteLength;
  for (const b of def.buffers) {
    const start = Math.ceil(end / ARENA_ALIGNMENT) * ARENA_ALIGNMENT;
    offsets.push(start);
    end = b.data.byteLength > 0 ? start + b.data.byteLength : end;
  }
  const flat = new ModelWriter(def, (i) => offsets[i]!).write();
  if (flat.byteLength !== probe.byteLength) throw new Error('writeModel: external-data layout changed between passes');
  const file = new Uint8Array(end);
  file.set(flat);
  def.buffers.forEach((b, i) => {
    if (b.data.byteLength > 0) file.set(b.data, offsets[i]!);
  });
  return file;
}

class ModelWriter {
  private readonly builder: flatbuffers.Builder;
  /** 1 when a sentinel buffer was inserted in front of the def's buffers, else 0. */
  private readonly bufferShift: number;

  /**
   * @param externalOffset file offset of def buffer `i`'s data when written in the external form, or
   *   null to write all data inline.
   */
  constructor(
    private readonly def: ModelDef,
    private readonly externalOffset: ((defIndex: number) => number) | null,
  ) {
    const dataBytes = def.buffers.reduce((n, b) => n + b.data.byteLength + ARENA_ALIGNMENT, 0);
    this.builder = new flatbuffers.Builder(dataBytes + TABLE_BYTES_ESTIMATE);
    const first = def.buffers[0];
    this.bufferShift = first === undefined || first.data.byteLength > 0 ? 1 : 0;
  }

  write(): Uint8Array {
    const b = this.builder;
    const def = this.def;
    // Large constant data first, so the tables that follow stay close together.
    const buffers = this.writeBuffers();
    const subgraphs = def.subgraphs.map((sg) => this.writeSubgraph(sg));
    const operatorCodes = def.operatorCodes.map((oc) => {
      const custom = oc.customCode !== null ? b.createString(oc.customCode) : 0;
      OperatorCode.startOperatorCode(b);
      OperatorCode.addDeprecatedBuiltinCode(b, oc.deprecatedBuiltinCode);
      if (custom) OperatorCode.addCustomCode(b, custom);
      OperatorCode.addVersion(b, oc.version);
      OperatorCode.addBuiltinCode(b, oc.builtinCode);
      return OperatorCode.endOperatorCode(b);
    });
    const metadata = def.metadata.map((m) => {
      const name = b.createString(m.name);
      return Metadata.createMetadata(b, name, m.buffer + this.bufferShift);
    });
    const signatures = def.signatureDefs.map((s) => {
      const inputs = SignatureDef.createInputsVector(
        b,
        s.inputs.map((t) => this.writeTensorMap(t)),
      );
      const outputs = SignatureDef.createOutputsVector(
        b,
        s.outputs.map((t) => this.writeTensorMap(t)),
      );
      const key = b.createString(s.signatureKey);
      SignatureDef.startSignatureDef(b);
      SignatureDef.addInputs(b, inputs);
      SignatureDef.addOutputs(b, outputs);
      SignatureDef.addSignatureKey(b, key);
      SignatureDef.addSubgraphIndex(b, s.subgraphIndex);
      return SignatureDef.endSignatureDef(b);
    });

    const operatorCodesVec = Model.createOperatorCodesVector(b, operatorCodes);
    const subgraphsVec = Model.createSubgraphsVector(b, subgraphs);
    const description = b.createString(def.description);
    const buffersVec = Model.createBuffersVector(b, buffers);
    const metadataBuffer = def.metadataBuffer?.length
      ? Model.createMetadataBufferVector(
          b,
          def.metadataBuffer.map((i) => i + this.bufferShift),
        )
      : 0;
    const metadataVec = metadata.length > 0 ? Model.createMetadataVector(b, metadata) : 0;
    const signaturesVec = signatures.length > 0 ? Model.createSignatureDefsVector(b, signatures) : 0;
    const groupsVec = def.externalBufferGroups?.length
      ? Model.createExternalBufferGroupsVector(
          b,
          def.externalBufferGroups.map((g) => ExternalBufferGroup.createExternalBufferGroup(b, b.createString(g.name))),
        )
      : 0;
    const externalVec = def.externalBuffers?.length
      ? Model.createExternalBuffersVector(
          b,
          def.externalBuffers.map((e) => {
            const packing = b.createString(e.packing);
            return ExternalBuffer.createExternalBuffer(b, e.id, e.group, BigInt(e.offset), BigInt(e.length), packing);
          }),
        )
      : 0;

    Model.startModel(b);
    Model.addVersion(b, TFLITE_SCHEMA_VERSION);
    Model.addOperatorCodes(b, operatorCodesVec);
    Model.addSubgraphs(b, subgraphsVec);
    Model.addDescription(b, description);
    Model.addBuffers(b, buffersVec);
    if (metadataBuffer) Model.addMetadataBuffer(b, metadataBuffer);
    if (metadataVec) Model.addMetadata(b, metadataVec);
    if (signaturesVec) Model.addSignatureDefs(b, signaturesVec);
    if (groupsVec) Model.addExternalBufferGroups(b, groupsVec);
    if (externalVec) Model.addExternalBuffers(b, externalVec);
    const root = Model.endModel(b);
    b.finish(root, TFLITE_FILE_IDENTIFIER);
    // A copy at byteOffset 0 of its own ArrayBuffer: offsets inside the file are absolute offsets.
    return b.asUint8Array().slice();
  }

  private writeBuffers(): flatbuffers.Offset[] {
    const b = this.builder;
    const all: readonly BufferDef[] = this.bufferShift ? [{ data: new Uint8Array(0) }, ...this.def.buffers] : this.def.buffers;
    return all.map((buffer, i) => {
      const defIndex = i - this.bufferShift;
      if (this.externalOffset && buffer.data.byteLength > 0) {
        Buffer.startBuffer(b);
        Buffer.addOffset(b, BigInt(this.externalOffset(defIndex)));
        Buffer.addSize(b, BigInt(buffer.data.byteLength));
        return Buffer.endBuffer(b);
      }
      let data = 0;
      if (buffer.data.byteLength > 0) {
        // Align the data (not the length word) to 16 bytes; `finish` then pads the whole file to 16, so
        // the data is 16-byte aligned from the start of the file as well as from its end.
        b.prep(ARENA_ALIGNMENT, buffer.data.byteLength);
        data = b.createByteVector(buffer.data);
      }
      Buffer.startBuffer(b);
      if (data) Buffer.addData(b, data);
      return Buffer.endBuffer(b);
    });
  }

  private writeSubgraph(sg: SubgraphDef): flatbuffers.Offset {
    const b = this.builder;
    const tensors = sg.tensors.map((t) => this.writeTensor(t));
    const operators = sg.operators.map((op) => this.writeOperator(op));
    const tensorsVec = SubGraph.createTensorsVector(b, tensors);
    const inputs = SubGraph.createInputsVector(b, sg.inputs);
    const outputs = SubGraph.createOutputsVector(b, sg.outputs);
    const operatorsVec = SubGraph.createOperatorsVector(b, operators);
    const name = b.createString(sg.name);
    return SubGraph.createSubGraph(b, tensorsVec, inputs, outputs, operatorsVec, name, -1);
  }

  private writeTensor(t: TensorDef): flatbuffers.Offset {
    const b = this.builder;
    const shape = Tensor.createShapeVector(b, t.shape);
    const name = b.createString(t.name);
    const quantization = t.quantization ? this.writeQuantization(t.quantization) : 0;
    const signature = t.shapeSignature ? Tensor.createShapeSignatureVector(b, t.shapeSignature) : 0;
    const sparsity = t.sparsity ? this.writeSparsity(t.sparsity) : 0;
    const variants = t.variantTensors?.length
      ? Tensor.createVariantTensorsVector(
          b,
          t.variantTensors.map((v) =>
            VariantSubType.createVariantSubType(b, VariantSubType.createShapeVector(b, v.shape), v.type, v.hasRank),
          ),
        )
      : 0;
    Tensor.startTensor(b);
    Tensor.addShape(b, shape);
    Tensor.addType(b, t.type as number);
    Tensor.addBuffer(b, t.buffer + this.bufferShift);
    Tensor.addName(b, name);
    if (quantization) Tensor.addQuantization(b, quantization);
    Tensor.addIsVariable(b, t.isVariable);
    if (sparsity) Tensor.addSparsity(b, sparsity);
    if (signature) Tensor.addShapeSignature(b, signature);
    if (t.hasRank) Tensor.addHasRank(b, true);
    if (variants) Tensor.addVariantTensors(b, variants);
    if (t.externalBuffer) Tensor.addExternalBuffer(b, t.externalBuffer);
    return Tensor.endTensor(b);
  }

  private writeSparsity(s: SparsityDef): flatbuffers.Offset {
    const b = this.builder;
    const dims = s.dimMetadata.map((d) => {
      const segments = d.arraySegments ? this.writeSparseIndexArray(d.arraySegments) : null;
      const indices = d.arrayIndices ? this.writeSparseIndexArray(d.arrayIndices) : null;
      DimensionMetadata.startDimensionMetadata(b);
      DimensionMetadata.addFormat(b, d.format === 'sparseCsr' ? DimensionType.SPARSE_CSR : DimensionType.DENSE);
      DimensionMetadata.addDenseSize(b, d.denseSize);
      if (segments) {
        DimensionMetadata.addArraySegmentsType(b, segments.type);
        DimensionMetadata.addArraySegments(b, segments.offset);
      }
      if (indices) {
        DimensionMetadata.addArrayIndicesType(b, indices.type);
        DimensionMetadata.addArrayIndices(b, indices.offset);
      }
      return DimensionMetadata.endDimensionMetadata(b);
    });
    const traversal = SparsityParameters.createTraversalOrderVector(b, s.traversalOrder);
    const blockMap = SparsityParameters.createBlockMapVector(b, s.blockMap);
    const dimVec = SparsityParameters.createDimMetadataVector(b, dims);
    return SparsityParameters.createSparsityParameters(b, traversal, blockMap, dimVec);
  }

  /** One SparseIndexVector union member, in the element type the def names. */
  private writeSparseIndexArray(a: SparseIndexArrayDef): { type: SparseIndexVector; offset: flatbuffers.Offset } {
    const b = this.builder;
    switch (a.type) {
      case 'uint8':
        return {
          type: SparseIndexVector.Uint8Vector,
          offset: Uint8Vector.createUint8Vector(b, Uint8Vector.createValuesVector(b, Uint8Array.from(a.values))),
        };
      case 'uint16':
        return {
          type: SparseIndexVector.Uint16Vector,
          offset: Uint16Vector.createUint16Vector(b, Uint16Vector.createValuesVector(b, Array.from(a.values))),
        };
      default:
        return {
          type: SparseIndexVector.Int32Vector,
          offset: Int32Vector.createInt32Vector(b, Int32Vector.createValuesVector(b, a.values)),
        };
    }
  }

  private writeQuantization(q: QuantizationDef): flatbuffers.Offset {
    const b = this.builder;
    const min = q.min ? QuantizationParameters.createMinVector(b, q.min) : 0;
    const max = q.max ? QuantizationParameters.createMaxVector(b, q.max) : 0;
    const scale = QuantizationParameters.createScaleVector(b, q.scale);
    const zeroPoints: bigint[] = [];
    for (let i = 0; i < q.zeroPoint.length; i++) zeroPoints.push(BigInt(q.zeroPoint[i]!));
    const zeroPoint = QuantizationParameters.createZeroPointVector(b, zeroPoints);
    const details = q.details ? this.writeQuantizationDetails(q.details) : null;
    QuantizationParameters.startQuantizationParameters(b);
    if (min) QuantizationParameters.addMin(b, min);
    if (max) QuantizationParameters.addMax(b, max);
    QuantizationParameters.addScale(b, scale);
    QuantizationParameters.addZeroPoint(b, zeroPoint);
    QuantizationParameters.addQuantizedDimension(b, q.quantizedDimension);
    if (details) {
      QuantizationParameters.addDetailsType(b, details.type);
      QuantizationParameters.addDetails(b, details.offset);
    }
    return QuantizationParameters.endQuantizationParameters(b);
  }

  private writeQuantizationDetails(d: QuantizationDetailsDef): { type: QuantizationDetails; offset: flatbuffers.Offset } {
    const b = this.builder;
    switch (d.kind) {
      case 'custom':
        return {
          type: QuantizationDetails.CustomQuantization,
          offset: CustomQuantization.createCustomQuantization(b, CustomQuantization.createCustomVector(b, d.custom)),
        };
      case 'blockwise':
        return {
          type: QuantizationDetails.BlockwiseQuantization,
          offset: BlockwiseQuantization.createBlockwiseQuantization(b, d.scales, d.zeroPoints, d.blockSize),
        };
      default: {
        const dims = MultiAxisQuantization.createQuantizedDimensionsVector(b, d.quantizedDimensions);
        return {
          type: QuantizationDetails.MultiAxisQuantization,
          offset: MultiAxisQuantization.createMultiAxisQuantization(b, d.scales, d.zeroPoints, d.blockSize, dims),
        };
      }
    }
  }

  private writeOperator(op: OperatorDef): flatbuffers.Offset {
    const b = this.builder;
    const inputs = Operator.createInputsVector(b, op.inputs);
    const outputs = Operator.createOutputsVector(b, op.outputs);
    const intermediates = op.intermediates.length > 0 ? Operator.createIntermediatesVector(b, op.intermediates) : 0;
    // A union type with no table (builtinOptions null) is written as the type alone, as it was read.
    let options = 0;
    if (op.builtinOptionsType !== 0 && op.rawBuiltinOptions) options = writeRawTable(b, op.rawBuiltinOptions);
    else if (op.builtinOptionsType !== 0 && op.builtinOptions !== null)
      options = writeBuiltinOptions(b, op.builtinOptionsType, op.builtinOptions);
    const custom = op.customOptions ? b.createByteVector(op.customOptions) : 0;
    const mutating = op.mutatingVariableInputs?.length ? Operator.createMutatingVariableInputsVector(b, op.mutatingVariableInputs) : 0;
    const options2Type = op.builtinOptions2Type ?? 0;
    let options2 = 0;
    // The raw fields when given, else the parsed table, else an empty table.
    if (options2Type !== 0)
      options2 =
        op.rawBuiltinOptions2 || !op.builtinOptions2
          ? writeRawTable(b, op.rawBuiltinOptions2 ?? [])
          : writeBuiltinOptions2(b, options2Type, op.builtinOptions2);
    Operator.startOperator(b);
    Operator.addOpcodeIndex(b, op.opcodeIndex);
    Operator.addInputs(b, inputs);
    Operator.addOutputs(b, outputs);
    if (op.builtinOptionsType !== 0) Operator.addBuiltinOptionsType(b, op.builtinOptionsType);
    if (options) Operator.addBuiltinOptions(b, options);
    if (custom) Operator.addCustomOptions(b, custom);
    if (mutating) Operator.addMutatingVariableInputs(b, mutating);
    if (intermediates) Operator.addIntermediates(b, intermediates);
    if (options2) {
      Operator.addBuiltinOptions2Type(b, options2Type);
      Operator.addBuiltinOptions2(b, options2);
    }
    return Operator.endOperator(b);
  }

  private writeTensorMap(t: SignatureTensorDef): flatbuffers.Offset {
    const b = this.builder;
    const name = b.createString(t.name);
    return TensorMap.createTensorMap(b, name, t.tensorIndex);
  }
}

/**
 * Writes a table from fields given by slot (see {@link RawOptionField}); vectors and strings first, as
 * FlatBuffers requires. Scalars are written even when they equal the schema default.
 */
function writeRawTable(b: flatbuffers.Builder, fields: readonly RawOptionField[]): flatbuffers.Offset {
  const offsets = fields.map((f) => {
    if (f.type === 'string') return b.createString(String(f.value));
    if (!f.type.endsWith('[]')) return 0;
    const v = f.value as readonly number[];
    const size = f.type === 'int64[]' ? 8 : 4;
    b.startVector(size, v.length, size);
    for (let i = v.length - 1; i >= 0; i--) {
      if (f.type === 'int64[]') b.addInt64(BigInt(v[i]!));
      else if (f.type === 'float32[]') b.addFloat32(v[i]!);
      else b.addInt32(v[i]!);
    }
    return b.endVector();
  });
  b.startObject(fields.reduce((n, f) => Math.max(n, f.id + 1), 0));
  fields.forEach((f, i) => {
    const n = Number(f.value);
    // A default that differs from the value, so that the builder writes every field.
    if (f.type === 'bool' || f.type === 'int8') b.addFieldInt8(f.id, n, n + 1);
    else if (f.type === 'int16') b.addFieldInt16(f.id, n, n + 1);
    else if (f.type === 'int32') b.addFieldInt32(f.id, n, n + 1);
    else if (f.type === 'int64') b.addFieldInt64(f.id, BigInt(n), BigInt(n) + 1n);
    else if (f.type === 'float32') b.addFieldFloat32(f.id, n, Number.NaN);
    else b.addFieldOffset(f.id, offsets[i]!, 0);
  });
  return b.endObject();
}
