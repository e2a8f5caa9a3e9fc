import { TensorType, type TensorData, elementSize, makeTypedView, numElements } from '../types.js';
import type { SparsityDef } from '../model/model-def.js';

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
}

const EMPTY_U8 = new Uint8Array(0);

/**
 * The prepare-time tensor (TFLM's TfLiteTensor): everything in EvalTensor plus name, quantization,
 * allocation type and size. One object serves both roles in micrort.
 */
export class Tensor implements EvalTensor {
  data: TensorData;
  bytes: Uint8Array;
  allocationType: AllocationType;
  readonly params: QuantizationParams;

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
  ) {
    this.params =
      quantization && quantization.scale.length > 0
        ? { scale: quantization.scale[0]!, zeroPoint: quantization.zeroPoint[0] ?? 0 }
        : { scale: 0, zeroPoint: 0 };
    this.data = EMPTY_U8;
    this.bytes = EMPTY_U8;
    this.allocationType = AllocationType.None;
  }

  /** Element count. */
  get elementCount(): number {
    return numElements(this.dims);
  }

  /** Size of the data in bytes (TfLiteTensor::bytes), 0 for types without a fixed element size. */
  get byteLength(): number {
    return this.elementCount * (elementSize(this.type) ?? 0);
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
    this.data = makeTypedView(this.type, buffer, byteOffset, elements);
    this.bytes = new Uint8Array(buffer, byteOffset, elements * (elementSize(this.type) ?? 0));
    this.allocationType = allocationType;
  }

  /**
   * Binds a constant whose elements are smaller than a byte (INT4): `data` (an Int8Array) and `bytes`
   * view its stored bytes — two values per byte, low nibble first, or one per byte — as the file has them.
   */
  bindPacked(stored: Uint8Array): void {
    this.data = new Int8Array(stored.buffer, stored.byteOffset, stored.byteLength);
    this.bytes = stored;
    this.allocationType = AllocationType.MmapRo;
  }

  /** Drops the data binding. */
  unbind(): void {
    this.data = EMPTY_U8;
    this.bytes = EMPTY_U8;
    this.allocationType = AllocationType.None;
  }
}

export { TensorType };
