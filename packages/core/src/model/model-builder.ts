import { BuiltinOperator, builtinOperatorName } from '../builtin-ops.js';
import { ModelError } from '../errors.js';
import type { BuiltinOptions, BuiltinOptions2 } from '../options.js';
import { elementSize, TensorType, tensorTypeName } from '../types.js';
import type {
  BufferDef,
  MetadataDef,
  ModelDef,
  OperatorCodeDef,
  OperatorDef,
  QuantizationDef,
  QuantizationDetailsDef,
  RawOptionField,
  SparsityDef,
  TensorDef,
} from './model-def.js';
import { builtinOptions2TypeForOp, builtinOptionsTypeForOp, defaultBuiltinOptions, isParsedOptionsType } from './options-map.js';
import { defaultBuiltinOptions2 } from './options2-codec.js';
import { verifyModel } from './verifier.js';
import { TFLITE_SCHEMA_VERSION } from './verify-semantics.js';
import { writeModel } from './writer.js';

/** Builtin codes above this are stored as 127 in `deprecated_builtin_code` (PLACEHOLDER_FOR_GREATER_OP_CODES). */
const PLACEHOLDER_FOR_GREATER_OP_CODES = 127;

/** Quantization of a tensor: per-tensor (numbers) or per-channel (arrays along `quantizedDimension`). */
export interface QuantizationSpec {
  scale: number | ArrayLike<number>;
  /** Defaults to 0 for every scale. */
  zeroPoint?: number | ArrayLike<number>;
  quantizedDimension?: number;
  min?: ArrayLike<number>;
  max?: ArrayLike<number>;
  /** The schema's `details` (blockwise quantization: `scale` is then `[]`). */
  details?: QuantizationDetailsDef;
}

/** A tensor for {@link ModelBuilder.addTensor}. */
export interface TensorSpec {
  name: string;
  type: TensorType;
  shape: ArrayLike<number>;
  /**
   * Constant contents (any typed array; its bytes are copied). Omit for activations. With `sparsity`,
   * only the stored values, in traversal order.
   */
  data?: ArrayBufferView;
  /** Sparse encoding of a constant (TFLite's SparsityParameters); the file's verification checks it. */
  sparsity?: SparsityDef;
  quantization?: QuantizationSpec;
  /** A variable tensor (state kept across invokes, e.g. SVDF/LSTM state). */
  variable?: boolean;
  shapeSignature?: ArrayLike<number>;
  /** Writes `has_rank: true` (what current converters write on every tensor of known rank). */
  hasRank?: boolean;
}

/** Options for a builtin op: any subset of the fields of its options interface (the rest take defaults). */
export type BuiltinOptionsSpec = Partial<BuiltinOptions>;

/** An operator for {@link ModelBuilder.addOperator}. */
export interface OperatorSpec {
  /** A builtin operator, or `{ custom: name }` for a custom op. */
  op: BuiltinOperator | { custom: string };
  /** Operator version (default 1). */
  version?: number;
  /** Tensor indices; -1 for an omitted optional input. */
  inputs: ArrayLike<number>;
  outputs: ArrayLike<number>;
  intermediates?: ArrayLike<number>;
  /** Builtin options; fields left out take the schema defaults. */
  options?: BuiltinOptionsSpec;
  /** Raw custom options bytes (flexbuffer) for custom ops. */
  customOptions?: Uint8Array;
  /**
   * The op's builtin options table as fields by schema slot, for option tables micrort does not parse
   * (Conv3DOptions…); written instead of `options`.
   */
  rawOptions?: readonly RawOptionField[];
  /** A `builtin_options_2` table (StableHLO ops): the union discriminant and the table's fields by slot. */
  options2?: { type: number; fields?: readonly RawOptionField[] };
  /**
   * The op's `builtin_options_2` table as a parsed object (e.g. StablehloCompositeOptions), of the table
   * type the op takes; fields left out take their defaults.
   */
  builtinOptions2?: Partial<Record<string, unknown>> | BuiltinOptions2;
}

/** Options of the {@link ModelBuilder} constructor. */
export interface ModelBuilderOptions {
  description?: string;
  /** Name of the main subgraph (subgraph 0). */
  subgraphName?: string;
}

interface SubgraphUnderConstruction {
  name: string;
  tensors: TensorDef[];
  operators: OperatorDef[];
  inputs: number[];
  outputs: number[];
}

function numbers(value: number | ArrayLike<number>, length: number): number[] {
  if (typeof value === 'number') return Array.from({ length }, () => value);
  return Array.from(value);
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
}

/**
 * A friendly way to make small .tflite models (tests, demos):
 *
 * ```ts
 * const b = new ModelBuilder();
 * const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
 * const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [4], data: new Float32Array([1, 2, 3, 4]) });
 * const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
 * b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, w], outputs: [y] });
 * const bytes = b.setInputs([x]).setOutputs([y]).build();
 * ```
 *
 * Operator codes are shared between operators of the same op and version; each constant tensor gets its
 * own 16-byte-aligned buffer; buffer 0 is the empty sentinel. `build()` writes and verifies the file.
 * Control-flow models have more subgraphs: `addSubgraph()` starts one (tensor and operator indices are
 * per subgraph), `selectSubgraph(0)` returns to the main one.
 */
export class ModelBuilder {
  private readonly subgraphs: SubgraphUnderConstruction[];
  private current = 0;
  private readonly operatorCodes: OperatorCodeDef[] = [];
  private readonly opcodeByKey = new Map<string, number>();
  private readonly buffers: BufferDef[] = [{ data: new Uint8Array(0) }];
  private readonly metadata: MetadataDef[] = [];

  constructor(private readonly options: ModelBuilderOptions = {}) {
    this.subgraphs = [{ name: options.subgraphName ?? 'main', tensors: [], operators: [], inputs: [], outputs: [] }];
  }

  /**
   * Adds a subgraph (for IF / WHILE / CALL_ONCE bodies) and makes it the one `addTensor`,
   * `addOperator`, `setInputs` and `setOutputs` build; returns its index. Subgraph 0 is the main one.
   */
  addSubgraph(name = `subgraph${this.subgraphs.length}`): number {
    this.subgraphs.push({ name, tensors: [], operators: [], inputs: [], outputs: [] });
    this.current = this.subgraphs.length - 1;
    return this.current;
  }

  /** Makes subgraph `index` the one being built (0: the main subgraph). */
  selectSubgraph(index: number): this {
    if (!Number.isInteger(index) || index < 0 || index >= this.subgraphs.length)
      throw new ModelError(`selectSubgraph(${index}): the builder has ${this.subgraphs.length} subgraphs`, {
        table: 'Model',
        field: 'subgraphs',
        index,
      });
    this.current = index;
    return this;
  }

  /** Index of the subgraph being built. */
  get currentSubgraph(): number {
    return this.current;
  }

  private get tensors(): TensorDef[] {
    return this.subgraphs[this.current]!.tensors;
  }
  private get operators(): OperatorDef[] {
    return this.subgraphs[this.current]!.operators;
  }

  /** Adds a tensor and returns its index. Throws `ModelError` when `data` does not match the shape. */
  addTensor(spec: TensorSpec): number {
    const index = this.tensors.length;
    const shape = Int32Array.from(spec.shape);
    let count = 1;
    for (let d = 0; d < shape.length; d++) {
      if (!Number.isInteger(spec.shape[d]) || shape[d]! < 0) {
        throw new ModelError(`tensor "${spec.name}": invalid dimension ${spec.shape[d]} at shape[${d}]`, { table: 'Tensor', index });
      }
      count *= shape[d]!;
    }
    let buffer = 0;
    if (spec.data !== undefined) {
      const data = bytesOf(spec.data);
      const size = elementSize(spec.type);
      if (!spec.sparsity && spec.type !== TensorType.STRING && size !== undefined && data.byteLength !== count * size) {
        throw new ModelError(
          `tensor "${spec.name}": data has ${data.byteLength} bytes, shape [${Array.from(shape).join(', ')}] of ${tensorTypeName(spec.type)} needs ${count * size}`,
          { table: 'Tensor', field: 'buffer', index },
        );
      }
      buffer = this.addBuffer(data);
    }
    const def: TensorDef = {
      name: spec.name,
      type: spec.type,
      shape,
      buffer,
      quantization: spec.quantization ? this.quantization(spec.quantization) : null,
      isVariable: spec.variable ?? false,
    };
    if (spec.shapeSignature) def.shapeSignature = Int32Array.from(spec.shapeSignature);
    if (spec.sparsity) def.sparsity = spec.sparsity;
    if (spec.hasRank) def.hasRank = true;
    this.tensors.push(def);
    return index;
  }

  /** Adds an operator (executed in the order added) and returns its index. */
  addOperator(spec: OperatorSpec): number {
    const index = this.operators.length;
    const custom = typeof spec.op === 'object' ? spec.op.custom : null;
    const code = custom !== null ? BuiltinOperator.CUSTOM : (spec.op as BuiltinOperator);
    const optionsType = custom !== null ? 0 : builtinOptionsTypeForOp(code);
    if ((spec.options !== undefined || spec.rawOptions !== undefined) && optionsType === 0) {
      const name = custom !== null ? `custom op "${custom}"` : builtinOperatorName(code);
      throw new ModelError(`${name} takes no builtin options`, { table: 'Operator', field: 'builtin_options', index });
    }
    let builtinOptions: BuiltinOptions | null = null;
    if (optionsType !== 0) {
      builtinOptions = isParsedOptionsType(optionsType)
        ? ({ ...defaultBuiltinOptions(optionsType), ...(spec.options ?? {}) } as BuiltinOptions)
        : {};
    }
    const def: OperatorDef = {
      opcodeIndex: this.opcode(code, custom, spec.version ?? 1),
      inputs: Int32Array.from(spec.inputs),
      outputs: Int32Array.from(spec.outputs),
      intermediates: Int32Array.from(spec.intermediates ?? []),
      builtinOptionsType: optionsType,
      builtinOptions,
      customOptions: spec.customOptions ? spec.customOptions.slice() : null,
    };
    if (spec.rawOptions) def.rawBuiltinOptions = spec.rawOptions;
    if (spec.options2) {
      def.builtinOptions2Type = spec.options2.type;
      def.rawBuiltinOptions2 = spec.options2.fields ?? [];
    } else if (spec.builtinOptions2) {
      const type = builtinOptions2TypeForOp(code);
      if (type === 0)
        throw new ModelError(`${builtinOperatorName(code)} takes no builtin_options_2`, {
          table: 'Operator',
          field: 'builtin_options_2',
          index,
        });
      def.builtinOptions2Type = type;
      def.builtinOptions2 = { ...defaultBuiltinOptions2(type), ...spec.builtinOptions2 } as BuiltinOptions2;
    }
    this.operators.push(def);
    return index;
  }

  /** Sets the current subgraph's input tensors. */
  setInputs(indices: ArrayLike<number>): this {
    this.subgraphs[this.current]!.inputs = Array.from(indices);
    return this;
  }

  /** Sets the current subgraph's output tensors. */
  setOutputs(indices: ArrayLike<number>): this {
    this.subgraphs[this.current]!.outputs = Array.from(indices);
    return this;
  }

  /** Adds a metadata entry whose bytes get their own buffer (e.g. `OfflineMemoryAllocation`). */
  addMetadata(name: string, bytes: ArrayBufferView): this {
    this.metadata.push({ name, buffer: this.addBuffer(bytesOf(bytes)) });
    return this;
  }

  /** The model as a plain {@link ModelDef} (not verified). */
  buildDef(): ModelDef {
    return {
      version: TFLITE_SCHEMA_VERSION,
      description: this.options.description ?? 'micrort ModelBuilder',
      operatorCodes: this.operatorCodes.map((c) => ({ ...c })),
      subgraphs: this.subgraphs.map((sg) => ({
        name: sg.name,
        tensors: sg.tensors.map((t) => ({ ...t })),
        inputs: Int32Array.from(sg.inputs),
        outputs: Int32Array.from(sg.outputs),
        operators: sg.operators.map((o) => ({ ...o })),
      })),
      buffers: this.buffers.map((b) => ({ ...b })),
      metadata: this.metadata.map((m) => ({ ...m })),
      signatureDefs: [],
    };
  }

  /** Writes the model as .tflite bytes and verifies them (throws `ModelError` for an inconsistent model). */
  build(): Uint8Array {
    const bytes = writeModel(this.buildDef());
    verifyModel(bytes);
    return bytes;
  }

  private addBuffer(data: Uint8Array): number {
    this.buffers.push({ data });
    return this.buffers.length - 1;
  }

  private opcode(code: number, custom: string | null, version: number): number {
    const key = `${code}/${custom ?? ''}/${version}`;
    let index = this.opcodeByKey.get(key);
    if (index === undefined) {
      index = this.operatorCodes.length;
      this.operatorCodes.push({
        builtinCode: code,
        deprecatedBuiltinCode: Math.min(code, PLACEHOLDER_FOR_GREATER_OP_CODES),
        customCode: custom,
        version,
      });
      this.opcodeByKey.set(key, index);
    }
    return index;
  }

  private quantization(q: QuantizationSpec): QuantizationDef {
    const scale = typeof q.scale === 'number' ? [q.scale] : Array.from(q.scale);
    const zeroPoint = numbers(q.zeroPoint ?? 0, scale.length);
    const def: QuantizationDef = {
      scale: Float32Array.from(scale),
      zeroPoint: Int32Array.from(zeroPoint),
      quantizedDimension: q.quantizedDimension ?? 0,
    };
    if (q.min) def.min = Float32Array.from(q.min);
    if (q.max) def.max = Float32Array.from(q.max);
    if (q.details) def.details = q.details;
    return def;
  }
}
