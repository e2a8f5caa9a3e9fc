import { TensorType, type TensorData, dataByteLength, elementSize, makeTypedView, numElements } from '../types.js';
import type { QuantizationDetailsDef, SparsityDef } from '../model/model-def.js';

/** Where a tensor's data live (TFLM's TfLiteAllocationType). */
export enum AllocationType {
  /** Constant data in the model (read-only view into the model bytes, or an aligned copy). */
  MmapRo = 'mmap-ro',
  /** Planned in the arena head by the memory planner; valid from memory planning on. */
  ArenaRw = 'arena-rw',
  /** Persistent in the arena tail: variable tensors, and outputs a kernel bound with `allocatePersistentOutput`. */
  ArenaRwPersistent = 'arena-rw-persistent',
  /** Owned by a delegate (internal to a delegated subset), no arena space. */
  Delegate = 'delegate',
  /** No data (omitted optional tensor or not yet bound). */
  None = 'none',
}

/** Per-tensor quantization (TfLiteQuantizationParams): the first channel's scale and zero point. */
export interface QuantizationParams {
  scale: number;
  zeroPoint: number;
}

/** Affine quantization (TfLiteAffineQuantization): per-tensor or per-channel. */
export interface AffineQuantization {
  scale: Float32Array;
  zeroPoint: Int32Array;
  quantizedDimension: number;
}

/**
 * What a kernel sees during `invoke()` (TFLM's TfLiteEvalTensor): type, dims and a typed view of the data.
 *
 * EvalTensor objects are created once per interpreter and never replaced, so a kernel may keep a reference
 * from `prepare()`. `data`/`bytes` are bound after memory planning; reading them in `prepare()` is only
 * meaningful for constant and variable tensors.
 */
export interface EvalTensor {
  readonly index: number;
  readonly type: TensorType;
  readonly dims: Int32Array;
  /** View of the elements, typed by `type` (Float32Array for FLOAT32, Int8Array for INT8, ...). */
  data: TensorData;
  /** The same bytes as a Uint8Array. */
  bytes: Uint8Array;
  /**
   * The same bytes as int32 words, for element types whose size is a multiple of 4 (INT32, UINT32,
   * FLOAT32, RESOURCE, and INT64/UINT64/FLOAT64/COMPLEX as little-endian (low, high) word pairs, so
   * 64-bit kernels work on int32 halves without BigInt); empty for the other types.
   */
  words: Int32Array;
}

const EMPTY_U8 = new Uint8Array(0);
const EMPTY_I32 = new Int32Array(0);

/**
 * The prepare-time tensor (TFLM's TfLiteTensor): everything in EvalTensor plus name, quantization,
 * allocation type and size. One object serves both roles in micrort.
 */
export class Tensor implements EvalTensor {
  data: TensorData;
  bytes: Uint8Array;
  words: Int32Array;
  allocationType: AllocationType;
  readonly params: QuantizationParams;
  /**
   * STRING tensors: the bytes their serialized strings (TFLite's format: int32 count, count + 1 int32
   * offsets, the bytes; see kernel/strings.ts) may take — a constant's own length, the upper bound the
   * producing kernel set in prepare (`setStringCapacity`), or for a string graph input the interpreter's
   * `stringInputBytes` budget. This is the tensor's `byteLength`, what the planner places. 0: unsized.
   */
  stringCapacity = 0;

  constructor(
    readonly index: number,
    readonly name: string,
    readonly type: TensorType,
    readonly dims: Int32Array,
    readonly quantization: AffineQuantization | null,
    readonly isVariable: boolean,
    /**
     * Sparse encoding of a constant (TFLite's TfLiteTensor::sparsity), or null. A sparse tensor's `dims`
     * are the dense shape while `data`/`bytes` hold only the stored values (DENSIFY expands them).
     */
    readonly sparsity: SparsityDef | null = null,
    /**
     * The file's quantization `details` (TFLite's kTfLiteBlockwiseQuantization...), or null: blockwise
     * weights have no affine `quantization`; their scales (and zero points) are other tensors, by index.
     */
    readonly quantizationDetails: QuantizationDetailsDef | null = null,
  ) {
    this.params =
      quantization && quantization.scale.length > 0
        ? { scale: quantization.scale[0]!, zeroPoint: quantization.zeroPoint[0] ?? 0 }
        : { scale: 0, zeroPoint: 0 };
    this.data = EMPTY_U8;
    this.bytes = EMPTY_U8;
    this.words = EMPTY_I32;
    this.allocationType = AllocationType.None;
  }

  /** Element count. */
  get elementCount(): number {
    return numElements(this.dims);
  }

  /**
   * Size of the data in bytes (TfLiteTensor::bytes): element count × element size; INT4 packed two per
   * byte; STRING its `stringCapacity`; 0 for other types without a fixed element size.
   */
  get byteLength(): number {
    if (this.type === TensorType.STRING) return this.stringCapacity;
    return dataByteLength(this.type, this.elementCount) ?? 0;
  }

  /** True when the data come from the model (constant tensor). */
  get isConstant(): boolean {
    return this.allocationType === AllocationType.MmapRo;
  }

  /**
   * Binds the data to `elements` elements (default: the dense element count, i.e. `byteLength` bytes) of
   * `buffer` at `byteOffset` (must be aligned to the element size). A sparse constant binds its stored
   * values only.
   */
  bind(buffer: ArrayBufferLike, byteOffset: number, allocationType: AllocationType, elements = this.elementCount): void {
    const byteLength = this.type === TensorType.STRING ? this.stringCapacity : (dataByteLength(this.type, elements) ?? 0);
    this.data = makeTypedView(
      this.type,
      buffer,
      byteOffset,
      this.type === TensorType.STRING || this.type === TensorType.INT4 ? byteLength : elements,
    );
    this.bytes = new Uint8Array(buffer, byteOffset, byteLength);
    const es = elementSize(this.type);
    this.words = es !== undefined && es % 4 === 0 && byteOffset % 4 === 0 ? new Int32Array(buffer, byteOffset, byteLength / 4) : EMPTY_I32;
    this.allocationType = allocationType;
  }

  /**
   * Sets the byte capacity of a STRING tensor (see `stringCapacity`): before it is bound, i.e. in
   * prepare. A no-op for other types.
   */
  setStringCapacity(bytes: number): void {
    if (this.type === TensorType.STRING) this.stringCapacity = bytes;
  }

  /** Drops the data binding. */
  unbind(): void {
    this.data = EMPTY_U8;
    this.bytes = EMPTY_U8;
    this.words = EMPTY_I32;
    this.allocationType = AllocationType.None;
  }
}

export { TensorType };
