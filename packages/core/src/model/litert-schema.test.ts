/**
 * The parts of LiteRT's current schema (3d) beyond TFLite 2.9's: new tensor types, QuantizationDetails
 * (blockwise, multi-axis), has_rank and variant_tensors, external buffers, the StableHLO options tables
 * (BuiltinOptions2, read field by field) and debug-metadata indices. Each round-trips through the writer
 * and the loader; each malformed use is a ModelError naming the table and field.
 */
import * as flatbuffers from 'flatbuffers';
import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { UnsupportedOpError } from '../errors.js';
import { TestLinearPlanner, addConstKernel } from '../interpreter/__fixtures__/tiny-models.js';
import { MicroInterpreter } from '../interpreter/micro-interpreter.js';
import { OpResolver } from '../resolver/op-resolver.js';
import type { StablehloCaseOptions, StablehloCompositeOptions, StablehloPadOptions } from '../options.js';
import { TensorType } from '../types.js';
import { expectModelError } from './__tests__/helpers.js';
import { Model, Operator, OperatorCode, SubGraph, Tensor } from './generated/tflite.js';
import { loadModel } from './loader.js';
import { ModelBuilder } from './model-builder.js';
import type { ModelDef, QuantizationDetailsDef } from './model-def.js';
import { writeModel } from './writer.js';

const F32 = TensorType.FLOAT32;

/** in [2, 4] → FULLY_CONNECTED with blockwise int8 weights [3, 4] (scales [3, 2], block 2) → out [2, 3]. */
function blockwiseDef(details: QuantizationDetailsDef = { kind: 'blockwise', scales: 2, zeroPoints: -1, blockSize: 2 }): ModelDef {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F32, shape: [2, 4] });
  const w = b.addTensor({
    name: 'w',
    type: TensorType.INT8,
    shape: [3, 4],
    data: Int8Array.from([1, 2, 3, 4, -1, -2, -3, -4, 5, 6, 7, 8]),
    quantization: { scale: [], details },
  });
  b.addTensor({ name: 'w/scales', type: F32, shape: [3, 2], data: Float32Array.from([0.5, 0.25, 1, 2, 0.125, 4]) });
  const y = b.addTensor({ name: 'y', type: F32, shape: [2, 3] });
  b.addOperator({ op: BuiltinOperator.FULLY_CONNECTED, inputs: [x, w, -1], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).buildDef();
}

/** x [1, 4] → STABLEHLO_COMPOSITE (decomposition: subgraph 1, x + x) → y. */
function compositeBuilder(options: Partial<StablehloCompositeOptions> = {}): ModelBuilder {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: F32, shape: [1, 4] });
  const y = b.addTensor({ name: 'y', type: F32, shape: [1, 4] });
  b.addOperator({
    op: BuiltinOperator.STABLEHLO_COMPOSITE,
    inputs: [x],
    outputs: [y],
    builtinOptions2: {
      name: 'odml.double',
      decompositionSubgraphIndex: 1,
      compositeAttributes: Uint8Array.of(1, 2, 3),
      version: 2,
      ...options,
    },
  });
  b.setInputs([x]).setOutputs([y]);
  b.addSubgraph('odml.double.impl');
  const a = b.addTensor({ name: 'a', type: F32, shape: [1, 4] });
  const o = b.addTensor({ name: 'o', type: F32, shape: [1, 4] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [a, a], outputs: [o] });
  b.setInputs([a]).setOutputs([o]);
  return b.selectSubgraph(0);
}

const rejects = (def: ModelDef, pattern: RegExp, field?: string) => {
  const e = expectModelError(() => loadModel(writeModel(def)));
  expect(e.message).toMatch(pattern);
  if (field !== undefined) expect(e.location.field).toBe(field);
  return e;
};

describe('LiteRT schema: quantization details', () => {
  it('round-trips blockwise, multi-axis and custom quantization (scale and zero_point empty)', () => {
    for (const details of [
      { kind: 'blockwise', scales: 2, zeroPoints: -1, blockSize: 2 },
      { kind: 'multiAxis', scales: 2, zeroPoints: 2, blockSize: 0, quantizedDimensions: Int32Array.of(0, 1) },
      { kind: 'custom', custom: Uint8Array.of(9, 8, 7) },
    ] as QuantizationDetailsDef[]) {
      const def = loadModel(writeModel(blockwiseDef(details)));
      const q = def.subgraphs[0]!.tensors[1]!.quantization!;
      expect(q.scale.length).toBe(0);
      expect(q.details).toEqual(details);
    }
  });

  it('rejects blockwise details naming no tensor, a bad block size or a dimension outside the rank', () => {
    rejects(
      blockwiseDef({ kind: 'blockwise', scales: 9, zeroPoints: -1, blockSize: 2 }),
      /scales = 9 is not a tensor of this subgraph \(it has 4\)/,
      'scales',
    );
    rejects(blockwiseDef({ kind: 'blockwise', scales: -1, zeroPoints: -1, blockSize: 2 }), /scales = -1/, 'scales');
    rejects(
      blockwiseDef({ kind: 'blockwise', scales: 2, zeroPoints: -2, blockSize: 2 }),
      /zero_points = -2 is neither -1 nor/,
      'zero_points',
    );
    rejects(blockwiseDef({ kind: 'blockwise', scales: 2, zeroPoints: 4, blockSize: 2 }), /zero_points = 4/, 'zero_points');
    rejects(blockwiseDef({ kind: 'blockwise', scales: 2, zeroPoints: -1, blockSize: 0 }), /block_size 0 must be positive/, 'block_size');
    rejects(
      blockwiseDef({ kind: 'multiAxis', scales: 2, zeroPoints: -1, blockSize: -1, quantizedDimensions: Int32Array.of(0) }),
      /block_size -1 must be >= 0/,
    );
    rejects(
      blockwiseDef({ kind: 'multiAxis', scales: 2, zeroPoints: -1, blockSize: 0, quantizedDimensions: Int32Array.of(0, 2) }),
      /quantized dimension 2 is outside the tensor's rank 2/,
      'quantized_dimensions',
    );
    const def = blockwiseDef();
    def.subgraphs[0]!.tensors[1]!.quantization!.quantizedDimension = 5;
    rejects(def, /quantized dimension 5 is outside the tensor's rank 2/, 'quantized_dimension');
  });
});

describe('LiteRT schema: tensors', () => {
  it('loads the new tensor types, packed constants included (INT2 four per byte, UINT4 two, FLOAT8 one)', () => {
    const b = new ModelBuilder();
    const t = (name: string, type: TensorType, bytes: number) => b.addTensor({ name, type, shape: [2, 5], data: new Uint8Array(bytes) });
    t('int2', TensorType.INT2, 3);
    t('uint4', TensorType.UINT4, 5);
    t('e4m3', TensorType.FLOAT8_E4M3FN, 10);
    t('e5m2', TensorType.FLOAT8_E5M2, 10);
    t('int2 unpacked', TensorType.INT2, 10);
    const def = loadModel(b.build());
    expect(def.subgraphs[0]!.tensors.map((x) => x.type)).toEqual([19, 20, 21, 22, 19]);
    const bad = b.buildDef();
    bad.buffers.push({ data: new Uint8Array(4) });
    bad.subgraphs[0]!.tensors[0]!.buffer = bad.buffers.length - 1;
    rejects(bad, /holds 4 bytes but the tensor \(10 int2 elements\) needs 3/);
    bad.subgraphs[0]!.tensors[0]!.type = 23 as TensorType;
    rejects(bad, /unknown tensor type 23/, 'type');
  });

  it('round-trips has_rank and the variant sub-types of a VARIANT tensor', () => {
    const b = new ModelBuilder();
    b.addTensor({ name: 'scalar', type: F32, shape: [], hasRank: true });
    b.addTensor({ name: 'list', type: TensorType.VARIANT, shape: [] });
    const def = b.buildDef();
    def.subgraphs[0]!.tensors[1]!.variantTensors = [{ shape: Int32Array.of(-1, 3), type: F32, hasRank: true }];
    const loaded = loadModel(writeModel(def));
    expect(loaded.subgraphs[0]!.tensors[0]!.hasRank).toBe(true);
    expect(loaded.subgraphs[0]!.tensors[1]!.hasRank).toBeUndefined();
    expect(loaded.subgraphs[0]!.tensors[1]!.variantTensors).toEqual([{ shape: Int32Array.of(-1, 3), type: F32, hasRank: true }]);

    def.subgraphs[0]!.tensors[1]!.variantTensors = [{ shape: Int32Array.of(3), type: F32, hasRank: false }];
    rejects(def, /has_rank is false but shape has 1 dimensions/, 'shape');
    def.subgraphs[0]!.tensors[1]!.variantTensors = [{ shape: Int32Array.of(-2), type: F32, hasRank: true }];
    rejects(def, /invalid dimension -2 at shape\[0\]/);
    def.subgraphs[0]!.tensors[1]!.variantTensors = [{ shape: Int32Array.of(2), type: 40 as TensorType, hasRank: true }];
    rejects(def, /unknown tensor type 40/);
    def.subgraphs[0]!.tensors[0]!.variantTensors = [{ shape: Int32Array.of(2), type: F32, hasRank: true }];
    rejects(def, /a float32 tensor has variant_tensors/, 'variant_tensors');
  });
});

describe('LiteRT schema: external buffers', () => {
  /** x [4] + w [4] where w's 16 bytes live at offset 8 of "weights.bin". */
  function externalDef(): ModelDef {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F32, shape: [4] });
    const w = b.addTensor({ name: 'w', type: F32, shape: [4] });
    const y = b.addTensor({ name: 'y', type: F32, shape: [4] });
    b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, w], outputs: [y] });
    const def = b.setInputs([x]).setOutputs([y]).buildDef();
    def.subgraphs[0]!.tensors[w]!.externalBuffer = 7;
    def.externalBufferGroups = [{ name: 'weights.bin' }];
    def.externalBuffers = [{ id: 7, group: 0, offset: 8, length: 16, packing: 'unpacked' }];
    return def;
  }
  const weights = new Uint8Array(32);
  new Float32Array(weights.buffer, 8, 4).set([1, 2, 3, 4]);

  it('says which file holds the data and how to pass it; with the file, the tensor becomes a constant', () => {
    const bytes = writeModel(externalDef());
    const e = expectModelError(() => loadModel(bytes));
    expect(e.message).toMatch(/keeps constant data outside the \.tflite file, in "weights\.bin" \(1 tensors: "w"\)/);
    expect(e.message).toMatch(/loadModel\(bytes, \{ externalFiles: \{ "weights\.bin": <its bytes> \} \}\)/);
    const def = loadModel(bytes, { externalFiles: { 'weights.bin': weights } });
    const w = def.subgraphs[0]!.tensors[1]!;
    expect(w.externalBuffer).toBe(7);
    expect(Array.from(new Float32Array(def.buffers[w.buffer]!.data.slice().buffer))).toEqual([1, 2, 3, 4]);
    expect(def.externalBuffers).toEqual([{ id: 7, group: 0, offset: 8, length: 16, packing: 'unpacked' }]);
    expect(expectModelError(() => loadModel(bytes, { externalFiles: { 'weights.bin': weights.subarray(0, 20) } })).message).toMatch(
      /reads 16 bytes at offset 8 of external file "weights\.bin", which has 20/,
    );
  });

  it('rejects ids that are 0, repeated or unknown, groups out of range and tensors with both kinds of data', () => {
    const mutate = (f: (d: ModelDef) => void, pattern: RegExp, field?: string) => {
      const d = externalDef();
      f(d);
      rejects(d, pattern, field);
    };
    mutate((d) => (d.externalBuffers![0]!.id = 0), /external buffer id 0/, 'id');
    mutate((d) => d.externalBuffers!.push({ ...d.externalBuffers![0]! }), /external buffer id 7 is used twice/, 'id');
    mutate(
      (d) => (d.externalBuffers![0]!.group = 1),
      /external buffer group 1 out of range \(model has 1 external buffer groups\)/,
      'group',
    );
    mutate((d) => (d.subgraphs[0]!.tensors[1]!.externalBuffer = 8), /external_buffer 8 is not among the model's 1 external buffers/);
    mutate((d) => (d.subgraphs[0]!.tensors[1]!.isVariable = true), /a variable tensor cannot take its data from external_buffer 7/);
    mutate((d) => {
      d.buffers.push({ data: new Uint8Array(16) });
      d.subgraphs[0]!.tensors[1]!.buffer = d.buffers.length - 1;
    }, /tensor has both buffer data \(16 bytes\) and external_buffer 7/);
    mutate((d) => (d.externalBuffers![0]!.offset = 2 ** 53), /beyond 2\^53 bytes/, 'length');
  });
});

describe('LiteRT schema: BuiltinOptions2 (StableHLO)', () => {
  it('reads every field of a StableHLO options table and writes it back', () => {
    const def = loadModel(compositeBuilder().build());
    const op = def.subgraphs[0]!.operators[0]!;
    expect(op.builtinOptions2Type).toBe(21);
    expect(op.builtinOptions2).toEqual({
      name: 'odml.double',
      decompositionSubgraphIndex: 1,
      compositeAttributes: Uint8Array.of(1, 2, 3),
      compositeAttributesFormat: 0,
      version: 2,
    });
    expect(loadModel(writeModel(def)).subgraphs[0]!.operators[0]!.builtinOptions2).toEqual(op.builtinOptions2);

    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F32, shape: [2, 3] });
    const y = b.addTensor({ name: 'y', type: F32, shape: [3, 3] });
    const zero = b.addTensor({ name: 'zero', type: F32, shape: [], data: Float32Array.of(0) });
    b.addOperator({
      op: BuiltinOperator.STABLEHLO_PAD,
      inputs: [x, zero],
      outputs: [y],
      builtinOptions2: {
        edgePaddingLow: Int32Array.of(1, -1),
        edgePaddingHigh: [0, 1],
        interiorPadding: [0, 0],
      } as unknown as StablehloPadOptions,
    });
    const pad = loadModel(b.setInputs([x]).setOutputs([y]).build()).subgraphs[0]!.operators[0]!.builtinOptions2 as StablehloPadOptions;
    expect(Array.from(pad.edgePaddingLow)).toEqual([1, -1]);
    expect(Array.from(pad.edgePaddingHigh)).toEqual([0, 1]);
  });

  it('rejects an options table of another op, an int64 beyond int32 and a subgraph index out of range', () => {
    const def = compositeBuilder().buildDef();
    const op = def.subgraphs[0]!.operators[0]!;
    op.builtinOptions2Type = 10; // StablehloPadOptions
    rejects(def, /STABLEHLO_COMPOSITE carries StablehloPadOptions, expected StableHLOCompositeOptions/, 'builtin_options_2_type');

    const far = compositeBuilder({ decompositionSubgraphIndex: 2 }).buildDef();
    rejects(far, /StableHLOCompositeOptions\.decompositionSubgraphIndex = 2 is not a subgraph \(the model has 2\)/);

    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F32, shape: [2] });
    b.addOperator({
      op: BuiltinOperator.STABLEHLO_PAD,
      inputs: [x, x],
      outputs: [x],
      options2: { type: 10, fields: [{ id: 0, type: 'int64[]', value: [2 ** 40] }] },
    });
    rejects(b.buildDef(), /edge_padding_low = 1099511627776 does not fit in int32/, 'edge_padding_low');

    const c = new ModelBuilder();
    const i = c.addTensor({ name: 'i', type: TensorType.INT32, shape: [] });
    c.addOperator({
      op: BuiltinOperator.STABLEHLO_CASE,
      inputs: [i],
      outputs: [],
      builtinOptions2: { branchSubgraphIndices: Int32Array.of(0, -1) } as StablehloCaseOptions,
    });
    rejects(c.buildDef(), /branchSubgraphIndices = -1 is not a subgraph/);
    expect(() => c.addOperator({ op: BuiltinOperator.ADD, inputs: [i, i], outputs: [i], builtinOptions2: {} })).toThrow(
      /ADD takes no builtin_options_2/,
    );
  });
});

describe('LiteRT schema: the buffers vector', () => {
  /**
   * x [4] → `op` (a builtin code, or the custom ADD_CONST of core's test kernels) → y, with `buffers` an
   * empty vector and x naming buffer `xBuffer` (0: no data, as converters write).
   */
  function noBuffers(op: number | 'ADD_CONST', xBuffer = 0): Uint8Array {
    const b = new flatbuffers.Builder(1024);
    const tensor = (name: string, buffer: number) => {
      const n = b.createString(name);
      const shape = Tensor.createShapeVector(b, [4]);
      Tensor.startTensor(b);
      Tensor.addShape(b, shape);
      Tensor.addType(b, F32);
      Tensor.addBuffer(b, buffer);
      Tensor.addName(b, n);
      return Tensor.endTensor(b);
    };
    const tensors = SubGraph.createTensorsVector(b, [tensor('x', xBuffer), tensor('y', 0)]);
    const ins = Operator.createInputsVector(b, [0]);
    const outs = Operator.createOutputsVector(b, [1]);
    const operator = Operator.createOperator(b, 0, ins, outs, 0, 0, 0, 0, 0, 0, 0n, 0n, 0, 0, -1);
    const sgIns = SubGraph.createInputsVector(b, [0]);
    const sgOuts = SubGraph.createOutputsVector(b, [1]);
    const ops = SubGraph.createOperatorsVector(b, [operator]);
    const subgraph = SubGraph.createSubGraph(b, tensors, sgIns, sgOuts, ops, b.createString('main'), -1);
    const code = op === 'ADD_CONST' ? BuiltinOperator.CUSTOM : op;
    const custom = op === 'ADD_CONST' ? b.createString(op) : 0;
    const codes = Model.createOperatorCodesVector(b, [OperatorCode.createOperatorCode(b, Math.min(code, 127), custom, 1, code)]);
    const subgraphs = Model.createSubgraphsVector(b, [subgraph]);
    const buffers = Model.createBuffersVector(b, []);
    Model.startModel(b);
    Model.addVersion(b, 3);
    Model.addOperatorCodes(b, codes);
    Model.addSubgraphs(b, subgraphs);
    Model.addBuffers(b, buffers);
    b.finish(Model.endModel(b), 'TFL3');
    return b.asUint8Array().slice();
  }

  it('loads a model whose buffers vector is empty while its tensors name buffer 0 (TFLite does), and runs it', () => {
    const def = loadModel(noBuffers('ADD_CONST'));
    expect(def.buffers).toEqual([]);
    expect(def.subgraphs[0]!.tensors.map((t) => t.buffer)).toEqual([0, 0]);
    const resolver = new OpResolver().register(addConstKernel(1));
    const interpreter = new MicroInterpreter(def, resolver, { planner: new TestLinearPlanner() }).allocateTensors();
    (interpreter.input(0).data as Float32Array).set([1, 2, 3, 4]);
    interpreter.invoke();
    expect(Array.from(interpreter.output(0).data as Float32Array)).toEqual([2, 3, 4, 5]);
    // The real blocker is what stops a model of an op nobody registered, not its buffers.
    const relu = new MicroInterpreter(loadModel(noBuffers(BuiltinOperator.RELU)), resolver, { planner: new TestLinearPlanner() });
    expect(() => relu.allocateTensors()).toThrow(UnsupportedOpError);
    // Any other index is still out of range.
    expect(expectModelError(() => loadModel(noBuffers(BuiltinOperator.RELU, 1))).message).toMatch(
      /buffer index 1 out of range \(model has 0 buffers\)/,
    );
  });
});
