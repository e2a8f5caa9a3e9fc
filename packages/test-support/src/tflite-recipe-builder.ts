/**
 * The small toolkit the single-op model recipes (tflite-op-recipes.ts) are written with: a
 * {@link RecipeBuilder} over core's `ModelBuilder` that makes graph inputs with deterministic data,
 * constants from plain number or string lists, outputs, and quantization parameters by element type —
 * and that keeps every model runnable by TFLite's C library through the tfjs-tflite-node addon, which
 * cannot pass tensors of some types across the graph boundary (string, float16, complex, resource…):
 * such an input becomes a constant, and such an output gets a SHAPE node behind it (the "sink"), so that
 * the op under test still runs and the graph's outputs are int32. With {@link RecipeIo} `probes`, such
 * an output also gets ops that turn its values into a type the runtime returns (see {@link RecipeBuilder}),
 * so a comparison sees the values and not only the shape.
 */
import {
  BuiltinOperator,
  ModelBuilder,
  TensorType,
  type OperatorSpec,
  type QuantizationSpec,
  type RawOptionField,
  type SparsityDef,
} from '@micrort/core';

/** TFLite's tensor element types, by the lower-case names `tensorTypeName` gives. */
export type DType =
  | 'float32'
  | 'float16'
  | 'bfloat16'
  | 'float64'
  | 'int4'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'uint64'
  | 'bool'
  | 'string'
  | 'complex64'
  | 'complex128'
  | 'resource'
  | 'variant';

/** The schema's TensorType of a {@link DType}. */
export function tensorTypeOf(t: DType): TensorType {
  return TensorType[t.toUpperCase() as keyof typeof TensorType];
}

/** Types the tfjs-tflite-node addon can feed as graph inputs and read back as graph outputs. */
export const ORACLE_IO_TYPES: ReadonlySet<DType> = new Set<DType>([
  'float32',
  'float64',
  'int8',
  'uint8',
  'int16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'bool',
]);

/** Types LiteRT.js (benchmarks/src/runtimes/litert.ts) feeds and returns: the addon's and float16, uint16. */
export const LITERT_IO_TYPES: ReadonlySet<DType> = new Set<DType>([...ORACLE_IO_TYPES, 'float16', 'uint16']);

/**
 * Which types a recipe's graph inputs and outputs may have (default: the tfjs-tflite-node addon's,
 * {@link ORACLE_IO_TYPES}), and whether outputs of other types get value probes besides the SHAPE sink:
 * float16 → DEQUANTIZE, complex64 → CAST (the real part) and COMPLEX_ABS, bfloat16 → CAST to float32,
 * int4 → DEQUANTIZE, string → a HASHTABLE_FIND in a table of every string constant of the recipe (each
 * output string becomes its int64 position in that vocabulary, -1 when absent).
 */
export interface RecipeIo {
  types?: ReadonlySet<DType>;
  probes?: boolean;
}

/** Bytes per element of the fixed-size types (int4 is stored one value per byte in a constant here: see {@link encodeValues}). */
const SIZE: Partial<Record<DType, number>> = {
  float32: 4,
  float16: 2,
  bfloat16: 2,
  float64: 8,
  int8: 1,
  uint8: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  uint64: 8,
  bool: 1,
  complex64: 8,
  complex128: 16,
  resource: 4,
};

/** Quantization the recipes use when they name none: per element type, per tensor. */
export function defaultQuant(t: DType): QuantizationSpec | undefined {
  switch (t) {
    case 'int8':
      return { scale: 0.05, zeroPoint: 3 };
    case 'uint8':
      return { scale: 0.05, zeroPoint: 128 };
    case 'int16':
      // Symmetric with a power-of-two scale: what TFLite's int16 kernels require (zero point 0, and POT scales for TANH/LOGISTIC).
      return { scale: 1 / 4096, zeroPoint: 0 };
    case 'int4':
      return { scale: 0.1, zeroPoint: 0 };
    default:
      return undefined;
  }
}

/** Whether an element type is quantized when it carries activations (int8, uint8, int16, int4). */
export function isQuantizedType(t: DType): boolean {
  return t === 'int8' || t === 'uint8' || t === 'int16' || t === 'int4';
}

/** IEEE 754 half-precision bits of `v` (round to nearest even). */
export function toHalfBits(v: number): number {
  const f = new Float32Array([v]);
  const x = new Uint32Array(f.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && h & 1)) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  // A carry out of the mantissa rounds up into the exponent, as it should.
  if (rem > 0x1000 || (rem === 0x1000 && h & 1)) h++;
  return sign | h;
}

/** TFLite's serialized string tensor: count, count + 1 offsets (int32 LE), then the bytes. */
export function encodeStrings(strings: readonly string[]): Uint8Array {
  const enc = strings.map((s) => new TextEncoder().encode(s));
  const header = 4 * (enc.length + 2);
  const out = new Uint8Array(header + enc.reduce((n, e) => n + e.length, 0));
  const dv = new DataView(out.buffer);
  dv.setInt32(0, enc.length, true);
  let at = header;
  enc.forEach((e, i) => {
    dv.setInt32(4 * (i + 1), at, true);
    out.set(e, at);
    at += e.length;
  });
  dv.setInt32(4 * (enc.length + 1), at, true);
  return out;
}

/** The little-endian bytes of `values` as elements of `t` (complex types take re, im pairs; int4 packs two per byte, low nibble first). */
export function encodeValues(t: DType, values: readonly number[]): Uint8Array {
  if (t === 'int4') {
    const out = new Uint8Array(Math.ceil(values.length / 2));
    values.forEach((v, i) => (out[i >> 1]! |= (v & 0xf) << ((i & 1) * 4)));
    return out;
  }
  const size = SIZE[t];
  if (size === undefined) throw new Error(`encodeValues: ${t} has no fixed-size encoding`);
  const n = t === 'complex64' || t === 'complex128' ? values.length / 2 : values.length;
  const out = new Uint8Array(n * size);
  const dv = new DataView(out.buffer);
  values.forEach((v, i) => {
    switch (t) {
      case 'float32':
      case 'complex64':
        dv.setFloat32(4 * i, v, true);
        break;
      case 'float64':
      case 'complex128':
        dv.setFloat64(8 * i, v, true);
        break;
      case 'float16':
        dv.setUint16(2 * i, toHalfBits(v), true);
        break;
      case 'bfloat16':
        dv.setUint16(2 * i, new Uint32Array(new Float32Array([v]).buffer)[0]! >>> 16, true);
        break;
      case 'int8':
        dv.setInt8(i, v);
        break;
      case 'uint8':
      case 'bool':
        dv.setUint8(i, v);
        break;
      case 'int16':
        dv.setInt16(2 * i, v, true);
        break;
      case 'uint16':
        dv.setUint16(2 * i, v, true);
        break;
      case 'int32':
      case 'resource':
        dv.setInt32(4 * i, v, true);
        break;
      case 'uint32':
        dv.setUint32(4 * i, v, true);
        break;
      case 'int64':
        dv.setBigInt64(8 * i, BigInt(v), true);
        break;
      case 'uint64':
        dv.setBigUint64(8 * i, BigInt(v), true);
        break;
      default:
        throw new Error(`encodeValues: ${t}`);
    }
  });
  return out;
}

/** A deterministic generator (mulberry32) of numbers in [0, 1). */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

/** The range values of a type are drawn from when a recipe names none. */
function defaultRange(t: DType): [number, number] {
  switch (t) {
    case 'int8':
      return [-128, 127];
    case 'uint8':
      return [0, 255];
    case 'int16':
      return [-32768, 32767];
    case 'int4':
      return [-8, 7];
    case 'bool':
      return [0, 1];
    case 'int32':
    case 'int64':
      return [-100, 100];
    case 'uint16':
    case 'uint32':
    case 'uint64':
      return [0, 100];
    default:
      return [-1, 1];
  }
}

/** `count` deterministic values of type `t` in `range` (integers for integer types). */
export function randomValues(t: DType, count: number, seed: number, range = defaultRange(t)): number[] {
  const next = prng(seed);
  const integer = !['float32', 'float16', 'bfloat16', 'float64', 'complex64', 'complex128'].includes(t);
  const n = t === 'complex64' || t === 'complex128' ? 2 * count : count;
  return Array.from({ length: n }, () => {
    const v = range[0] + (range[1] - range[0]) * next();
    return integer ? Math.min(range[1], Math.floor(range[0] + (range[1] - range[0] + 1) * next())) : v;
  });
}

const numElements = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** Options of a tensor made by {@link RecipeBuilder}. */
export interface TensorOptions {
  name?: string;
  /** Quantization; default {@link defaultQuant} of the type. `null` for none. */
  q?: QuantizationSpec | null;
  /** Contents (numbers, or strings for a string tensor); default: deterministic values in `range`. */
  values?: readonly number[] | readonly string[];
  /** Range of the generated values. */
  range?: [number, number];
  shapeSignature?: readonly number[];
  variable?: boolean;
  /** A sparse constant: `values` are the stored values only, in traversal order. */
  sparsity?: SparsityDef;
}

/** A built recipe: the model, the bytes of each graph input, and which operator is the op under test. */
export interface RecipeModel {
  bytes: Uint8Array;
  inputs: Uint8Array[];
  /** Index (in subgraph 0) of the operator under test. */
  target: number;
  /** Positions among the graph outputs of the SHAPE sinks (int32 shapes of outputs the runtime cannot return). */
  sinks: number[];
}

/**
 * Builds one small model around one op. Tensors made with `input()` are graph inputs (constants when
 * the addon cannot feed their type), `constant()` are constants, `output()` are graph outputs (behind a
 * SHAPE sink when the addon cannot return their type), `tensor()` are intermediates. `target()` adds the
 * op under test; `op()` adds helper ops (a HASHTABLE before HASHTABLE_FIND, …).
 */
export class RecipeBuilder {
  readonly b: ModelBuilder;
  private readonly graphInputs: number[] = [];
  private readonly inputBytes: Uint8Array[] = [];
  private readonly graphOutputs: number[] = [];
  private readonly sinks: { from: number; rank: number; type: DType; shape: readonly number[] }[] = [];
  private targetIndex = -1;
  private seed = 1;
  /** Every string the recipe's string constants hold (the vocabulary of string probes). */
  private readonly vocabulary = new Set<string>();
  private readonly ioTypes: ReadonlySet<DType>;
  private readonly probes: boolean;

  /** `version`: the operator version `target()` writes unless the spec names one. */
  constructor(
    description: string,
    private readonly version = 1,
    io: RecipeIo = {},
  ) {
    this.b = new ModelBuilder({ description });
    this.ioTypes = io.types ?? ORACLE_IO_TYPES;
    this.probes = io.probes ?? false;
  }

  /**
   * Adds strings a string output may hold that no string constant holds (grams a kernel builds) to the
   * vocabulary of string probes, so that they are compared by value.
   */
  expectStrings(strings: readonly string[]): void {
    for (const v of strings) this.vocabulary.add(v);
  }

  /** The bytes of a tensor's contents: given values, or generated ones. */
  private contents(t: DType, shape: readonly number[], o: TensorOptions): Uint8Array {
    if (t === 'string') {
      const strings = (o.values as readonly string[] | undefined) ?? Array.from({ length: numElements(shape) }, (_, i) => `s${i}`);
      for (const v of strings) this.vocabulary.add(v);
      return encodeStrings(strings);
    }
    let values = (o.values as readonly number[] | undefined) ?? randomValues(t, numElements(shape), this.seed++ * 7919, o.range);
    // Complex values given as reals only: imaginary parts 0.
    if ((t === 'complex64' || t === 'complex128') && values.length === numElements(shape)) values = values.flatMap((v) => [v, 0]);
    return encodeValues(t, values);
  }

  private quant(t: DType, o: TensorOptions): QuantizationSpec | undefined {
    return o.q === null ? undefined : (o.q ?? defaultQuant(t));
  }

  /** A tensor without data (an intermediate, or an output before `output()` marks it). */
  tensor(t: DType, shape: readonly number[], o: TensorOptions = {}): number {
    const q = this.quant(t, o);
    return this.b.addTensor({
      name: o.name ?? `t${this.seed++}`,
      type: tensorTypeOf(t),
      shape,
      ...(q ? { quantization: q } : {}),
      ...(o.shapeSignature ? { shapeSignature: o.shapeSignature } : {}),
      ...(o.variable ? { variable: true } : {}),
    });
  }

  /** A constant tensor. */
  constant(t: DType, shape: readonly number[], o: TensorOptions = {}): number {
    const q = this.quant(t, o);
    return this.b.addTensor({
      name: o.name ?? `c${this.seed++}`,
      type: tensorTypeOf(t),
      shape,
      data: this.contents(t, shape, o),
      ...(q ? { quantization: q } : {}),
      ...(o.sparsity ? { sparsity: o.sparsity } : {}),
    });
  }

  /** A graph input with deterministic data; a constant when the addon cannot feed type `t`. */
  input(t: DType, shape: readonly number[], o: TensorOptions = {}): number {
    if (!this.ioTypes.has(t)) return this.constant(t, shape, o);
    const index = this.tensor(t, shape, { ...o, name: o.name ?? `in${this.graphInputs.length}` });
    this.graphInputs.push(index);
    this.inputBytes.push(this.contents(t, shape, o));
    return index;
  }

  /** A graph output; behind a SHAPE sink when the addon cannot return type `t`. */
  output(t: DType, shape: readonly number[], o: TensorOptions = {}): number {
    const index = this.tensor(t, shape, { ...o, name: o.name ?? `out${this.graphOutputs.length + this.sinks.length}` });
    this.markOutput(index, t, shape.length, shape);
    return index;
  }

  /** Makes an existing tensor a graph output (a SHAPE sink for types the addon cannot return). */
  markOutput(index: number, t: DType, rank: number, shape: readonly number[] = new Array<number>(rank).fill(1)): void {
    if (this.ioTypes.has(t)) this.graphOutputs.push(index);
    else this.sinks.push({ from: index, rank, type: t, shape });
  }

  /** Adds the op under test. */
  target(spec: OperatorSpec): number {
    this.targetIndex = this.b.addOperator({ version: this.version, ...spec });
    return this.targetIndex;
  }

  /** Adds a helper op (not under test). */
  op(spec: OperatorSpec): number {
    return this.b.addOperator(spec);
  }

  /** A float32 (or int64) graph output made from the values of sink `from` (see {@link RecipeIo}). */
  private probe(from: number, t: DType, shape: readonly number[]): void {
    const out = (type: TensorType, name: string) => {
      const y = this.b.addTensor({ name: `${name}${from}`, type, shape });
      this.graphOutputs.push(y);
      return y;
    };
    const castTo = (type: TensorType, name: string) =>
      this.b.addOperator({
        op: BuiltinOperator.CAST,
        inputs: [from],
        outputs: [out(type, name)],
        options: { inDataType: tensorTypeOf(t), outDataType: type },
      });
    switch (t) {
      case 'float16':
      case 'int4':
        this.b.addOperator({ op: BuiltinOperator.DEQUANTIZE, inputs: [from], outputs: [out(TensorType.FLOAT32, 'dequantized')] });
        return;
      case 'bfloat16':
        castTo(TensorType.FLOAT32, 'cast');
        return;
      case 'complex64':
        castTo(TensorType.FLOAT32, 'real');
        this.b.addOperator({ op: BuiltinOperator.COMPLEX_ABS, inputs: [from], outputs: [out(TensorType.FLOAT32, 'abs')] });
        return;
      case 'string': {
        const words = [...this.vocabulary].sort();
        const h = this.b.addTensor({ name: `vocab${from}`, type: TensorType.RESOURCE, shape: [] });
        this.b.addOperator({
          op: BuiltinOperator.HASHTABLE,
          inputs: [],
          outputs: [h],
          rawOptions: [
            { id: 0, type: 'int32', value: 1000 + from },
            { id: 1, type: 'int8', value: TensorType.STRING },
            { id: 2, type: 'int8', value: TensorType.INT64 },
          ],
        });
        const keys = this.b.addTensor({
          name: `vocabKeys${from}`,
          type: TensorType.STRING,
          shape: [words.length],
          data: encodeStrings(words),
        });
        const ids = this.b.addTensor({
          name: `vocabIds${from}`,
          type: TensorType.INT64,
          shape: [words.length],
          data: encodeValues(
            'int64',
            words.map((_, i) => i),
          ),
        });
        this.b.addOperator({ op: BuiltinOperator.HASHTABLE_IMPORT, inputs: [h, keys, ids], outputs: [] });
        const dflt = this.b.addTensor({
          name: `vocabDefault${from}`,
          type: TensorType.INT64,
          shape: [],
          data: encodeValues('int64', [-1]),
        });
        this.b.addOperator({ op: BuiltinOperator.HASHTABLE_FIND, inputs: [h, from, dflt], outputs: [out(TensorType.INT64, 'vocabId')] });
        return;
      }
      default:
        return;
    }
  }

  /** Writes the model. */
  build(): RecipeModel {
    if (this.targetIndex < 0) throw new Error('RecipeBuilder: no target op');
    const sinks: number[] = [];
    for (const s of this.sinks) {
      const y = this.b.addTensor({ name: `sink${s.from}`, type: TensorType.INT32, shape: [s.rank] });
      this.b.addOperator({ op: BuiltinOperator.SHAPE, inputs: [s.from], outputs: [y], rawOptions: SHAPE_INT32 });
      sinks.push(this.graphOutputs.length);
      this.graphOutputs.push(y);
      if (this.probes) this.probe(s.from, s.type, s.shape);
    }
    this.b.selectSubgraph(0);
    const bytes = this.b.setInputs(this.graphInputs).setOutputs(this.graphOutputs).build();
    return { bytes, inputs: this.inputBytes.slice(), target: this.targetIndex, sinks };
  }
}

/** ShapeOptions { out_type: INT32 }. */
export const SHAPE_INT32: readonly RawOptionField[] = [{ id: 0, type: 'int8', value: TensorType.INT32 }];
