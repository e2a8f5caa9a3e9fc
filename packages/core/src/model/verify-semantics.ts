import { BuiltinOperator, builtinOperatorName } from '../builtin-ops.js';
import { ModelError, type ModelErrorLocation } from '../errors.js';
import { elementSize, TensorType, tensorTypeName } from '../types.js';
import {
  BlockwiseQuantization,
  Buffer,
  MultiAxisQuantization,
  Operator,
  OperatorCode,
  QuantizationDetails,
  QuantizationParameters,
  SubGraph,
  Tensor,
  type Model,
} from './generated/tflite.js';
import { builtinOptions2TypeForOp, builtinOptions2TypeName, builtinOptionsTypeName, parsedOptionsTypeForOp } from './options-map.js';
import { readBuiltinOptions2 } from './options2-codec.js';
import { readSparsity, sparseLayout, sparsityElementCount, SparsityError } from './sparsity.js';

/** The only schema version TFLM accepts (`TFLITE_SCHEMA_VERSION`). */
export const TFLITE_SCHEMA_VERSION = 3;
/** Largest tensor byte size accepted (TFLite's int32 `bytes`). */
const MAX_TENSOR_BYTES = 0x7fffffff;
const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;
/** Buffer `offset`/`size` fields are meaningful only when offset > 1 (schema comment). */
const MIN_EXTERNAL_OFFSET = 1n;
const LAST_TENSOR_TYPE = TensorType.FLOAT8_E5M2;
/** Elements per byte of the types stored packed (the converter packs sub-byte constants; unpacked is accepted too). */
const PACKED: Readonly<Record<number, number>> = {
  [TensorType.INT4]: 2,
  [TensorType.UINT4]: 2,
  [TensorType.INT2]: 4,
  [TensorType.FLOAT8_E4M3FN]: 1,
  [TensorType.FLOAT8_E5M2]: 1,
};

/** Byte length of one constant buffer, whichever form (inline `data` or file `offset`/`size`) it uses. */
interface BufferInfo {
  bytes: number;
}

/**
 * Semantic checks on a structurally verified model (see verifyStructure): every index in range, shapes
 * and types valid, constant buffer sizes matching their tensors, quantization arrays consistent,
 * external buffers inside the file, option tables matching their ops. Throws `ModelError`.
 */
export function verifySemantics(model: Model, fileSize: number): void {
  new SemanticVerifier(model, fileSize).verify();
}

class SemanticVerifier {
  private readonly buffers: BufferInfo[] = [];
  /** Effective builtin code per operator code. */
  private readonly opcodes: number[] = [];
  private readonly subgraphTensorCounts: number[] = [];
  /** Ids of the model's external buffers (schema 3d). */
  private readonly externalIds = new Set<number>();
  /**
   * Vector elements this file may make us read. Vectors can be shared between tables, so without a
   * budget a small hostile file could make the checks quadratic; a real file reads each element once.
   */
  private budget: number;

  constructor(
    private readonly model: Model,
    private readonly fileSize: number,
  ) {
    this.budget = 1024 + fileSize;
  }

  private spend(elements: number, loc: ModelErrorLocation): void {
    this.budget -= elements;
    if (this.budget < 0) {
      throw new ModelError(`too many vector elements for a ${this.fileSize}-byte file (vectors shared between tables?)`, loc);
    }
  }

  verify(): void {
    const version = this.model.version();
    if (version !== TFLITE_SCHEMA_VERSION) {
      throw new ModelError(`model is schema version ${version}, micrort (like TFLM) supports only version ${TFLITE_SCHEMA_VERSION}`, {
        table: 'Model',
        field: 'version',
        path: 'model',
      });
    }
    this.checkBuffers();
    this.checkExternalBuffers();
    this.checkOperatorCodes();
    const subgraphs = this.model.subgraphsLength();
    if (subgraphs === 0) throw new ModelError('model has no subgraphs', { table: 'Model', field: 'subgraphs', path: 'model' });
    const sg = new SubGraph();
    for (let s = 0; s < subgraphs; s++) this.subgraphTensorCounts.push(this.model.subgraphs(s, sg)!.tensorsLength());
    for (let s = 0; s < subgraphs; s++) this.checkSubgraph(this.model.subgraphs(s, sg)!, s);
    this.checkMetadata();
    this.checkSignatures();
  }

  // --- buffers and operator codes ---------------------------------------------------------------------

  private checkBuffers(): void {
    const b = new Buffer();
    for (let i = 0, n = this.model.buffersLength(); i < n; i++) {
      const buffer = this.model.buffers(i, b)!;
      const loc = { table: 'Buffer', index: i, path: `model.buffers[${i}]` };
      const offset = buffer.offset();
      const size = buffer.size();
      let bytes = buffer.dataLength();
      if (offset > MIN_EXTERNAL_OFFSET) {
        if (bytes > 0) throw new ModelError(`buffer has both inline data (${bytes} bytes) and a file offset ${offset}`, loc);
        if (offset + size > BigInt(this.fileSize)) {
          throw new ModelError(`buffer at file offset ${offset} with ${size} bytes extends past the ${this.fileSize}-byte file`, {
            ...loc,
            field: 'offset',
          });
        }
        bytes = Number(size);
      }
      this.buffers.push({ bytes });
    }
  }

  /** External buffers: positive unique ids, groups in range, offsets and lengths a JS number holds exactly. */
  private checkExternalBuffers(): void {
    const groups = this.model.externalBufferGroupsLength();
    for (let i = 0, n = this.model.externalBuffersLength(); i < n; i++) {
      const e = this.model.externalBuffers(i)!;
      const loc = { table: 'ExternalBuffer', index: i, path: `model.external_buffers[${i}]` };
      const id = e.id();
      if (id === 0)
        throw new ModelError('external buffer id 0 (0 means "no external buffer" in Tensor.external_buffer)', { ...loc, field: 'id' });
      if (this.externalIds.has(id)) throw new ModelError(`external buffer id ${id} is used twice`, { ...loc, field: 'id' });
      this.externalIds.add(id);
      if (e.group() >= groups)
        throw new ModelError(`external buffer group ${e.group()} out of range (model has ${groups} external buffer groups)`, {
          ...loc,
          field: 'group',
        });
      if (e.offset() + e.length() > BigInt(Number.MAX_SAFE_INTEGER))
        throw new ModelError(`external buffer at offset ${e.offset()} with ${e.length()} bytes is beyond 2^53 bytes`, {
          ...loc,
          field: 'length',
        });
    }
  }

  private checkOperatorCodes(): void {
    const code = new OperatorCode();
    for (let i = 0, n = this.model.operatorCodesLength(); i < n; i++) {
      const oc = this.model.operatorCodes(i, code)!;
      const loc = { table: 'OperatorCode', index: i, path: `model.operator_codes[${i}]` };
      const deprecated = oc.deprecatedBuiltinCode();
      const builtin = oc.builtinCode();
      if (deprecated < 0)
        throw new ModelError(`negative deprecated_builtin_code ${deprecated}`, { ...loc, field: 'deprecated_builtin_code' });
      if (builtin < 0) throw new ModelError(`negative builtin_code ${builtin}`, { ...loc, field: 'builtin_code' });
      const effective = Math.max(deprecated, builtin);
      if (effective === BuiltinOperator.CUSTOM && oc.customCode() === null) {
        throw new ModelError('CUSTOM operator code has no custom_code', { ...loc, field: 'custom_code' });
      }
      if (oc.version() < 1) throw new ModelError(`operator version ${oc.version()} < 1`, { ...loc, field: 'version' });
      this.opcodes.push(effective);
    }
  }

  // --- subgraphs -----------------------------------------------------------------------------------

  private checkSubgraph(sg: SubGraph, s: number): void {
    const path = `model.subgraphs[${s}]`;
    const tensorCount = sg.tensorsLength();
    const tensor = new Tensor();
    const quant = new QuantizationParameters();
    const sparse: number[] = [];
    for (let t = 0; t < tensorCount; t++) {
      if (this.checkTensor(sg.tensors(t, tensor)!, quant, `${path}.tensors[${t}]`, t, tensorCount)) sparse.push(t);
    }
    this.checkIndexList(sg.inputsLength(), (i) => sg.inputs(i)!, tensorCount, false, { table: 'SubGraph', field: 'inputs', path });
    this.checkIndexList(sg.outputsLength(), (i) => sg.outputs(i)!, tensorCount, false, { table: 'SubGraph', field: 'outputs', path });
    const op = new Operator();
    for (let o = 0, n = sg.operatorsLength(); o < n; o++)
      this.checkOperator(sg.operators(o, op)!, tensorCount, `${path}.operators[${o}]`, o);
    if (sparse.length) this.checkSparseUses(sg, new Set(sparse), path);
  }

  /**
   * A sparse tensor holds only its stored values, so it may only be read by DENSIFY (input 0), as
   * TFLite's converter emits it: any other reader (TFLite's own sparse FULLY_CONNECTED, a graph input
   * or output, an operator writing it) would see a compressed buffer where it expects the dense tensor.
   */
  private checkSparseUses(sg: SubGraph, sparse: Set<number>, path: string): void {
    const op = new Operator();
    const uses = (t: number, where: string, index: number, field: string): never => {
      throw new ModelError(`sparse tensor ${t} is ${where}; micrort densifies sparse tensors only through DENSIFY (input 0)`, {
        table: where.startsWith('subgraph') ? 'SubGraph' : 'Operator',
        field,
        index,
        path,
      });
    };
    for (let i = 0, n = sg.inputsLength(); i < n; i++)
      if (sparse.has(sg.inputs(i)!)) uses(sg.inputs(i)!, `subgraph input ${i}`, i, 'inputs');
    for (let i = 0, n = sg.outputsLength(); i < n; i++)
      if (sparse.has(sg.outputs(i)!)) uses(sg.outputs(i)!, `subgraph output ${i}`, i, 'outputs');
    for (let o = 0, n = sg.operatorsLength(); o < n; o++) {
      const operator = sg.operators(o, op)!;
      const code = this.opcodes[operator.opcodeIndex()]!;
      for (let k = 0, m = operator.inputsLength(); k < m; k++) {
        const t = operator.inputs(k)!;
        if (sparse.has(t) && !(code === BuiltinOperator.DENSIFY && k === 0))
          uses(t, `input ${k} of operator ${o} (${builtinOperatorName(code)})`, o, 'inputs');
      }
      for (let k = 0, m = operator.outputsLength(); k < m; k++) {
        const t = operator.outputs(k)!;
        if (sparse.has(t)) uses(t, `output ${k} of operator ${o} (${builtinOperatorName(code)})`, o, 'outputs');
      }
    }
  }

  /** Checks one tensor; returns whether it is a sparse constant. */
  private checkTensor(t: Tensor, quant: QuantizationParameters, path: string, index: number, tensorCount: number): boolean {
    const loc = { table: 'Tensor', index, path };
    const type = t.type() as number;
    if (type < 0 || type > LAST_TENSOR_TYPE) throw new ModelError(`unknown tensor type ${type}`, { ...loc, field: 'type' });
    this.checkVariantTensors(t, type, loc);

    const rank = t.shapeLength();
    this.spend(rank + t.shapeSignatureLength(), loc);
    let count = 1;
    for (let d = 0; d < rank; d++) {
      const dim = t.shape(d)!;
      if (dim < 0) throw new ModelError(`negative dimension ${dim} at shape[${d}]`, { ...loc, field: 'shape' });
      count *= dim;
    }
    for (let d = 0, n = t.shapeSignatureLength(); d < n; d++) {
      const dim = t.shapeSignature(d)!;
      if (dim < -1) throw new ModelError(`invalid dimension ${dim} at shape_signature[${d}]`, { ...loc, field: 'shape_signature' });
    }
    const size = elementSize(type);
    const bytes = size === undefined ? undefined : count * size;
    if (bytes !== undefined && bytes > MAX_TENSOR_BYTES) {
      throw new ModelError(`tensor of ${count} ${tensorTypeName(type)} elements needs ${bytes} bytes, more than 2^31-1`, {
        ...loc,
        field: 'shape',
      });
    }

    // Buffer 0 means "no data" even when the model has no buffers at all (TFLite loads such a file).
    const bufferIndex = t.buffer();
    if (bufferIndex !== 0 && bufferIndex >= this.buffers.length) {
      throw new ModelError(`buffer index ${bufferIndex} out of range (model has ${this.buffers.length} buffers)`, {
        ...loc,
        field: 'buffer',
      });
    }
    const constantBytes = this.buffers[bufferIndex]?.bytes ?? 0;
    this.checkExternalReference(t, constantBytes, loc);
    // As TFLite, sparsity is read on constants only; a tensor without data (a graph input) is dense.
    const sparsity = constantBytes > 0 ? t.sparsity() : null;
    if (sparsity) this.checkSparsity(t, sparsity, type, constantBytes, bufferIndex, loc);
    else if (constantBytes > 0) this.checkConstantSize(type, count, bytes, constantBytes, bufferIndex, loc);

    const q = t.quantization(quant);
    if (q) this.checkQuantization(q, t, rank, loc, tensorCount);
    return sparsity !== null;
  }

  /** `variant_tensors` only on VARIANT tensors, each a known type with a valid shape. */
  private checkVariantTensors(t: Tensor, type: number, loc: ModelErrorLocation): void {
    const n = t.variantTensorsLength();
    if (n === 0) return;
    if (type !== TensorType.VARIANT)
      throw new ModelError(`a ${tensorTypeName(type)} tensor has variant_tensors (only VARIANT tensors nest a type)`, {
        ...loc,
        field: 'variant_tensors',
      });
    for (let i = 0; i < n; i++) {
      const v = t.variantTensors(i)!;
      const vloc = { ...loc, table: 'VariantSubType', path: `${loc.path}.variant_tensors[${i}]` };
      const vt = v.type() as number;
      if (vt < 0 || vt > LAST_TENSOR_TYPE) throw new ModelError(`unknown tensor type ${vt}`, { ...vloc, field: 'type' });
      this.spend(v.shapeLength(), vloc);
      if (!v.hasRank() && v.shapeLength() > 0)
        throw new ModelError(`has_rank is false but shape has ${v.shapeLength()} dimensions`, { ...vloc, field: 'shape' });
      for (let d = 0; d < v.shapeLength(); d++)
        if (v.shape(d)! < -1) throw new ModelError(`invalid dimension ${v.shape(d)} at shape[${d}]`, { ...vloc, field: 'shape' });
    }
  }

  /** `external_buffer`: an id the model defines, on a tensor that is neither a variable nor holds inline data. */
  private checkExternalReference(t: Tensor, constantBytes: number, loc: ModelErrorLocation): void {
    const id = t.externalBuffer();
    if (id === 0) return;
    const at = { ...loc, field: 'external_buffer' };
    if (!this.externalIds.has(id))
      throw new ModelError(`external_buffer ${id} is not among the model's ${this.externalIds.size} external buffers`, at);
    if (constantBytes > 0) throw new ModelError(`tensor has both buffer data (${constantBytes} bytes) and external_buffer ${id}`, at);
    if (t.isVariable()) throw new ModelError(`a variable tensor cannot take its data from external_buffer ${id}`, at);
  }

  /** A sparse tensor: a constant of a fixed-size type whose buffer holds exactly the values its metadata enumerate. */
  private checkSparsity(
    t: Tensor,
    s: NonNullable<ReturnType<Tensor['sparsity']>>,
    type: number,
    constantBytes: number,
    bufferIndex: number,
    tensorLoc: ModelErrorLocation,
  ): void {
    const loc = { ...tensorLoc, table: 'SparsityParameters', path: `${tensorLoc.path}.sparsity` };
    const size = elementSize(type);
    if (size === undefined)
      throw new ModelError(`a sparse tensor must have a fixed-size type, got ${tensorTypeName(type)}`, { ...tensorLoc, field: 'type' });
    if (t.isVariable()) throw new ModelError('a sparse tensor cannot be a variable', { ...tensorLoc, field: 'is_variable' });
    if (constantBytes === 0)
      throw new ModelError('a sparse tensor must be a constant (its buffer holds the stored values)', { ...tensorLoc, field: 'buffer' });
    this.spend(sparsityElementCount(s), loc);
    let stored: number;
    try {
      stored = sparseLayout(
        Int32Array.from({ length: t.shapeLength() }, (_, d) => t.shape(d)!),
        readSparsity(s),
      ).storedValues;
    } catch (e) {
      if (e instanceof SparsityError) throw new ModelError(e.message, { ...loc, field: e.field });
      throw e;
    }
    if (constantBytes !== stored * size) {
      throw new ModelError(
        `constant buffer ${bufferIndex} holds ${constantBytes} bytes but the sparsity metadata enumerate ${stored} ${tensorTypeName(type)} values (${stored * size} bytes)`,
        { ...tensorLoc, field: 'buffer' },
      );
    }
  }

  private checkConstantSize(
    type: number,
    count: number,
    bytes: number | undefined,
    constantBytes: number,
    bufferIndex: number,
    loc: ModelErrorLocation,
  ): void {
    if (type === TensorType.STRING || type === TensorType.RESOURCE || type === TensorType.VARIANT) return;
    // Sub-byte constants are packed (INT4/UINT4 two per byte, INT2 four) by the converter; the unpacked form is accepted too.
    const perByte = PACKED[type];
    const packed = perByte === undefined ? undefined : Math.ceil(count / perByte);
    const ok = packed !== undefined ? constantBytes === packed || constantBytes === count : constantBytes === bytes;
    if (!ok) {
      const expected = packed ?? bytes;
      throw new ModelError(
        `constant buffer ${bufferIndex} holds ${constantBytes} bytes but the tensor (${count} ${tensorTypeName(type)} elements) needs ${expected}`,
        { ...loc, field: 'buffer' },
      );
    }
  }

  private checkQuantization(q: QuantizationParameters, t: Tensor, rank: number, tensorLoc: ModelErrorLocation, tensorCount: number): void {
    const loc = { ...tensorLoc, table: 'QuantizationParameters', path: `${tensorLoc.path}.quantization` };
    this.checkQuantizationDetails(q, rank, loc, tensorCount);
    const scales = q.scaleLength();
    const zeroPoints = q.zeroPointLength();
    this.spend(zeroPoints, loc);
    if (scales !== zeroPoints) {
      throw new ModelError(`quantization has ${scales} scales but ${zeroPoints} zero points`, { ...loc, field: 'zero_point' });
    }
    for (let i = 0; i < zeroPoints; i++) {
      const zp = q.zeroPoint(i)!;
      if (zp < INT32_MIN || zp > INT32_MAX)
        throw new ModelError(`zero_point[${i}] = ${zp} does not fit in int32`, { ...loc, field: 'zero_point' });
    }
    const dim = q.quantizedDimension();
    if (dim < 0) throw new ModelError(`negative quantized_dimension ${dim}`, { ...loc, field: 'quantized_dimension' });
    if (scales > 1) {
      // Legacy converters copied the filter's quantized_dimension onto 1-D per-channel biases (e.g. TFLM's
      // person_detect: bias [8] with quantized_dimension 3). TFLM never checks it and only the single
      // dimension can be meant, so such a tensor is accepted when that dimension matches the scales.
      const legacyBias = dim >= rank && rank === 1;
      if (dim >= rank && !legacyBias) {
        throw new ModelError(`quantized_dimension ${dim} is not < tensor rank ${rank}`, { ...loc, field: 'quantized_dimension' });
      }
      const channels = t.shape(legacyBias ? 0 : dim)!;
      if (channels !== scales) {
        throw new ModelError(`per-channel quantization has ${scales} scales but shape[${dim}] is ${channels}`, { ...loc, field: 'scale' });
      }
    }
  }

  /**
   * Blockwise and multi-axis quantization: the scale tensor (and the zero-point tensor unless -1) in this
   * subgraph, a positive block size (blockwise; multi-axis: 0 for per channel), the dimensions inside
   * the tensor's rank.
   */
  private checkQuantizationDetails(q: QuantizationParameters, rank: number, qloc: ModelErrorLocation, tensorCount: number): void {
    const kind = q.detailsType();
    if (kind !== QuantizationDetails.BlockwiseQuantization && kind !== QuantizationDetails.MultiAxisQuantization) return;
    const blockwise = kind === QuantizationDetails.BlockwiseQuantization;
    const d = blockwise
      ? (q.details(new BlockwiseQuantization()) as BlockwiseQuantization | null)
      : (q.details(new MultiAxisQuantization()) as MultiAxisQuantization | null);
    const name = blockwise ? 'BlockwiseQuantization' : 'MultiAxisQuantization';
    const loc = { ...qloc, table: name, path: `${qloc.path}.details` };
    if (!d) throw new ModelError(`details_type is ${name} but the table is missing`, { ...qloc, field: 'details' });
    if (d.scales() < 0 || d.scales() >= tensorCount)
      throw new ModelError(`scales = ${d.scales()} is not a tensor of this subgraph (it has ${tensorCount})`, { ...loc, field: 'scales' });
    if (d.zeroPoints() < -1 || d.zeroPoints() >= tensorCount)
      throw new ModelError(`zero_points = ${d.zeroPoints()} is neither -1 nor a tensor of this subgraph (it has ${tensorCount})`, {
        ...loc,
        field: 'zero_points',
      });
    if (blockwise ? d.blockSize() <= 0 : d.blockSize() < 0)
      throw new ModelError(`block_size ${d.blockSize()} must be ${blockwise ? 'positive' : '>= 0'}`, { ...loc, field: 'block_size' });
    const dims = blockwise
      ? [q.quantizedDimension()]
      : Array.from({ length: (d as MultiAxisQuantization).quantizedDimensionsLength() }, (_, i) =>
          (d as MultiAxisQuantization).quantizedDimensions(i)!,
        );
    this.spend(dims.length, loc);
    for (const dim of dims)
      if (dim < 0 || (rank > 0 && dim >= rank))
        throw new ModelError(`quantized dimension ${dim} is outside the tensor's rank ${rank}`, {
          ...(blockwise ? qloc : loc),
          field: blockwise ? 'quantized_dimension' : 'quantized_dimensions',
        });
  }

  // --- operators ------------------------------------------------------------------------------------

  private checkOperator(op: Operator, tensorCount: number, path: string, index: number): void {
    const loc = { table: 'Operator', index, path };
    const opcodeIndex = op.opcodeIndex();
    if (opcodeIndex >= this.opcodes.length) {
      throw new ModelError(`opcode_index ${opcodeIndex} out of range (model has ${this.opcodes.length} operator codes)`, {
        ...loc,
        field: 'opcode_index',
      });
    }
    const inputs = op.inputsLength();
    this.checkIndexList(inputs, (i) => op.inputs(i)!, tensorCount, true, { ...loc, field: 'inputs' });
    this.checkIndexList(op.outputsLength(), (i) => op.outputs(i)!, tensorCount, false, { ...loc, field: 'outputs' });
    this.checkIndexList(op.intermediatesLength(), (i) => op.intermediates(i)!, tensorCount, false, { ...loc, field: 'intermediates' });
    const mutating = op.mutatingVariableInputsLength();
    if (mutating !== 0 && mutating !== inputs) {
      throw new ModelError(`mutating_variable_inputs has ${mutating} entries for ${inputs} inputs`, {
        ...loc,
        field: 'mutating_variable_inputs',
      });
    }

    const code = this.opcodes[opcodeIndex]!;
    const expected = parsedOptionsTypeForOp(code);
    const actual = op.builtinOptionsType() as number;
    if (expected !== undefined && actual !== 0 && actual !== expected) {
      throw new ModelError(
        `${builtinOperatorName(code)} carries ${builtinOptionsTypeName(actual)}, expected ${builtinOptionsTypeName(expected)}`,
        { ...loc, field: 'builtin_options_type' },
      );
    }

    this.checkOptions2(op, code, loc);

    const largeOffset = op.largeCustomOptionsOffset();
    if (largeOffset > MIN_EXTERNAL_OFFSET) {
      const size = op.largeCustomOptionsSize();
      if (largeOffset + size > BigInt(this.fileSize)) {
        throw new ModelError(
          `large custom options at file offset ${largeOffset} with ${size} bytes extend past the ${this.fileSize}-byte file`,
          {
            ...loc,
            field: 'large_custom_options_offset',
          },
        );
      }
    }
  }

  /**
   * `builtin_options_2`: the table of the op (for StableHLO ops), every int64 fitting in int32 (they are
   * dimensions, indices and paddings) and every subgraph index in range.
   */
  private checkOptions2(op: Operator, code: number, loc: ModelErrorLocation): void {
    const actual = op.builtinOptions2Type() as number;
    if (actual === 0) return;
    const expected = builtinOptions2TypeForOp(code);
    if (expected !== 0 && actual !== expected)
      throw new ModelError(
        `${builtinOperatorName(code)} carries ${builtinOptions2TypeName(actual)}, expected ${builtinOptions2TypeName(expected)}`,
        { ...loc, field: 'builtin_options_2_type' },
      );
    const options = readBuiltinOptions2(op, { ...loc, field: 'builtin_options_2' }) as Record<string, unknown> | null;
    const subgraphs = this.subgraphTensorCounts.length;
    for (const [key, value] of Object.entries(options ?? {})) {
      if (!/SubgraphInd(ex|ices)$/.test(key)) continue;
      const indices = typeof value === 'number' ? [value] : Array.from(value as Int32Array);
      this.spend(indices.length, loc);
      for (const s of indices)
        if (s < 0 || s >= subgraphs)
          throw new ModelError(`${builtinOptions2TypeName(actual)}.${key} = ${s} is not a subgraph (the model has ${subgraphs})`, {
            ...loc,
            field: 'builtin_options_2',
          });
    }
  }

  /** Every index in [0, count) — or -1 where `optional` — else a ModelError naming the element. */
  private checkIndexList(length: number, at: (i: number) => number, count: number, optional: boolean, loc: ModelErrorLocation): void {
    this.spend(length, loc);
    for (let i = 0; i < length; i++) {
      const v = at(i);
      if (v >= count || v < (optional ? -1 : 0)) {
        const range = optional ? `-1 or [0, ${count})` : `[0, ${count})`;
        throw new ModelError(`tensor index ${v} at ${loc.field}[${i}] out of range, expected ${range}`, loc);
      }
    }
  }

  // --- metadata and signatures ------------------------------------------------------------------------

  private checkMetadata(): void {
    const buffers = this.buffers.length;
    this.spend(this.model.metadataBufferLength(), { table: 'Model', field: 'metadata_buffer', path: 'model' });
    for (let i = 0, n = this.model.metadataBufferLength(); i < n; i++) {
      const b = this.model.metadataBuffer(i)!;
      if (b < 0 || b >= buffers) {
        throw new ModelError(`metadata_buffer[${i}] = ${b} out of range (model has ${buffers} buffers)`, {
          table: 'Model',
          field: 'metadata_buffer',
          index: i,
          path: 'model',
        });
      }
    }
    for (let i = 0, n = this.model.metadataLength(); i < n; i++) {
      const m = this.model.metadata(i)!;
      if (m.buffer() >= buffers) {
        throw new ModelError(`metadata "${m.name() ?? ''}" refers to buffer ${m.buffer()} (model has ${buffers} buffers)`, {
          table: 'Metadata',
          field: 'buffer',
          index: i,
          path: `model.metadata[${i}]`,
        });
      }
    }
  }

  private checkSignatures(): void {
    for (let i = 0, n = this.model.signatureDefsLength(); i < n; i++) {
      const sig = this.model.signatureDefs(i)!;
      const path = `model.signature_defs[${i}]`;
      const s = sig.subgraphIndex();
      if (s >= this.subgraphTensorCounts.length) {
        throw new ModelError(`signature subgraph_index ${s} out of range (model has ${this.subgraphTensorCounts.length} subgraphs)`, {
          table: 'SignatureDef',
          field: 'subgraph_index',
          index: i,
          path,
        });
      }
      const tensors = this.subgraphTensorCounts[s]!;
      this.spend(sig.inputsLength() + sig.outputsLength(), { table: 'SignatureDef', index: i, path });
      for (const [field, length, get] of [
        ['inputs', sig.inputsLength(), (k: number) => sig.inputs(k)!] as const,
        ['outputs', sig.outputsLength(), (k: number) => sig.outputs(k)!] as const,
      ]) {
        for (let k = 0; k < length; k++) {
          const ti = get(k).tensorIndex();
          if (ti >= tensors) {
            throw new ModelError(`signature ${field}[${k}] tensor_index ${ti} out of range (subgraph ${s} has ${tensors} tensors)`, {
              table: 'TensorMap',
              field: 'tensor_index',
              index: k,
              path: `${path}.${field}[${k}]`,
            });
          }
        }
      }
    }
  }
}
