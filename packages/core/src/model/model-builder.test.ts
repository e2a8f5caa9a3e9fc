import * as flatbuffers from 'flatbuffers';
import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { ModelError } from '../errors.js';
import { ActivationFunctionType, Padding, type Conv2DOptions } from '../options.js';
import { TensorType } from '../types.js';
import { expectModelError, smallModelBuilder } from './__tests__/helpers.js';
import { loadModel } from './loader.js';
import { ModelBuilder } from './model-builder.js';
import { BuiltinOptionsType, defaultBuiltinOptions } from './options-map.js';
import { Model } from './generated/tflite.js';

describe('ModelBuilder', () => {
  it('builds a model that loads back with its tensors, operators, options and metadata', () => {
    const def = loadModel(smallModelBuilder().build());
    const sg = def.subgraphs[0]!;
    expect(def.description).toBe('small test model');
    expect(sg.tensors.map((t) => t.name)).toEqual([
      'input',
      'conv/filter',
      'conv/bias',
      'conv',
      'shape',
      'flat',
      'fc/weights',
      'logits',
      'probs',
    ]);
    expect(Array.from(sg.inputs)).toEqual([0]);
    expect(Array.from(sg.outputs)).toEqual([8]);
    expect(def.operatorCodes.map((c) => [c.builtinCode, c.version])).toEqual([
      [BuiltinOperator.CONV_2D, 3],
      [BuiltinOperator.RESHAPE, 1],
      [BuiltinOperator.FULLY_CONNECTED, 1],
      [BuiltinOperator.SOFTMAX, 1],
    ]);
    const conv = sg.operators[0]!;
    expect(conv.builtinOptionsType).toBe(BuiltinOptionsType.Conv2DOptions);
    expect(conv.builtinOptions).toEqual({
      ...(defaultBuiltinOptions(BuiltinOptionsType.Conv2DOptions) as Conv2DOptions),
      padding: Padding.SAME,
      strideW: 1,
      strideH: 1,
      fusedActivationFunction: ActivationFunctionType.RELU,
    });
    expect(sg.operators[2]!.builtinOptions).toEqual(defaultBuiltinOptions(BuiltinOptionsType.FullyConnectedOptions));
    expect(Array.from(sg.operators[2]!.inputs)).toEqual([5, 6, -1]);
    const filter = sg.tensors[1]!;
    expect(new Int8Array(def.buffers[filter.buffer]!.data.buffer, def.buffers[filter.buffer]!.data.byteOffset, 6)).toEqual(
      new Int8Array([1, -2, 3, -4, 5, -6]),
    );
    expect(Array.from(filter.quantization!.scale)).toEqual([0.1, 0.2, 0.3].map(Math.fround));
    expect(filter.quantization!.quantizedDimension).toBe(0);
    const bias = sg.tensors[2]!;
    const biasData = def.buffers[bias.buffer]!.data;
    expect(Array.from(new Int32Array(biasData.buffer, biasData.byteOffset, 3))).toEqual([10, -20, 30]);
    expect(def.metadata.map((m) => m.name)).toEqual(['min_runtime_version']);
    expect(def.buffers[0]!.data.byteLength).toBe(0);
  });

  it('shares operator codes between operators of the same op and version', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
    const z = b.addTensor({ name: 'z', type: TensorType.FLOAT32, shape: [4] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [y] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [y], outputs: [z] });
    b.addOperator({ op: BuiltinOperator.RELU, version: 2, inputs: [z], outputs: [x] });
    const def = loadModel(b.setInputs([x]).setOutputs([z]).build());
    expect(def.operatorCodes.length).toBe(2);
    expect(def.subgraphs[0]!.operators.map((o) => o.opcodeIndex)).toEqual([0, 0, 1]);
  });

  it('stores builtin codes above 127 with the placeholder deprecated code', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
    const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
    b.addOperator({ op: BuiltinOperator.GELU, inputs: [x], outputs: [y] });
    const def = loadModel(b.setInputs([x]).setOutputs([y]).build());
    expect(def.operatorCodes[0]).toEqual({ builtinCode: BuiltinOperator.GELU, deprecatedBuiltinCode: 127, customCode: null, version: 1 });
    expect(def.subgraphs[0]!.operators[0]!.builtinOptionsType).toBe(BuiltinOptionsType.GeluOptions);
  });

  it('writes custom ops with their name and raw options', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [8] });
    const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [8] });
    b.addOperator({ op: { custom: 'SignalWindow' }, inputs: [x], outputs: [y], customOptions: new Uint8Array([1, 2, 3]) });
    const def = loadModel(b.setInputs([x]).setOutputs([y]).build());
    expect(def.operatorCodes[0]).toMatchObject({ builtinCode: BuiltinOperator.CUSTOM, customCode: 'SignalWindow' });
    expect(Array.from(def.subgraphs[0]!.operators[0]!.customOptions!)).toEqual([1, 2, 3]);
    expect(def.subgraphs[0]!.operators[0]!.builtinOptions).toBeNull();
  });

  it('writes raw option tables by slot (builtin_options and builtin_options_2), defaults included', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
    const y = b.addTensor({ name: 'y', type: TensorType.INT32, shape: [4] });
    b.addOperator({
      op: BuiltinOperator.BUCKETIZE,
      inputs: [x],
      outputs: [y],
      rawOptions: [{ id: 0, type: 'float32[]', value: [0.5, 1.5] }],
    });
    b.addOperator({
      op: BuiltinOperator.HASHTABLE,
      inputs: [],
      outputs: [y],
      rawOptions: [
        { id: 0, type: 'int32', value: 7 },
        { id: 1, type: 'int8', value: TensorType.INT64 },
        { id: 2, type: 'int8', value: 0 },
      ],
      options2: {
        type: 7,
        fields: [
          { id: 0, type: 'bool', value: true },
          { id: 1, type: 'int64[]', value: [3, -1] },
        ],
      },
    });
    const bytes = b.setInputs([x]).setOutputs([y]).build();
    const def = loadModel(bytes);
    expect(def.subgraphs[0]!.operators.map((o) => [o.builtinOptionsType, o.builtinOptions2Type])).toEqual([
      [BuiltinOptionsType.BucketizeOptions, undefined],
      [BuiltinOptionsType.HashtableOptions, 7],
    ]);
    // Read the tables back by slot, as TFLite's generated accessors do.
    const sg = Model.getRootAsModel(new flatbuffers.ByteBuffer(bytes)).subgraphs(0)!;
    const table = (opIndex: number, second: boolean): flatbuffers.Table => {
      const t = { bb: null, bb_pos: 0 };
      const op = sg.operators(opIndex)!;
      return (second ? op.builtinOptions2(t) : op.builtinOptions(t)) as flatbuffers.Table;
    };
    const field = (t: flatbuffers.Table, id: number) => t.bb.__offset(t.bb_pos, 4 + 2 * id);
    const bucketize = table(0, false);
    const boundaries = bucketize.bb.__vector(bucketize.bb_pos + field(bucketize, 0));
    expect([bucketize.bb.readFloat32(boundaries), bucketize.bb.readFloat32(boundaries + 4)]).toEqual([0.5, 1.5]);
    const hashtable = table(1, false);
    expect(hashtable.bb.readInt32(hashtable.bb_pos + field(hashtable, 0))).toBe(7);
    expect(hashtable.bb.readInt8(hashtable.bb_pos + field(hashtable, 1))).toBe(TensorType.INT64);
    expect(field(hashtable, 2)).not.toBe(0); // a value equal to the schema default is still written
    const scatter = table(1, true);
    expect(scatter.bb.readInt8(scatter.bb_pos + field(scatter, 0))).toBe(1);
    const dims = scatter.bb.__vector(scatter.bb_pos + field(scatter, 1));
    expect([scatter.bb.readInt64(dims), scatter.bb.readInt64(dims + 8)]).toEqual([3n, -1n]);
  });

  it('copies constant data, so later changes to the caller array do not leak in', () => {
    const b = new ModelBuilder();
    const data = new Float32Array([1, 2]);
    const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [2], data });
    data[0] = 99;
    const def = b.buildDef();
    const bytes = def.buffers[def.subgraphs[0]!.tensors[w]!.buffer]!.data;
    expect(new Float32Array(bytes.slice().buffer)[0]).toBe(1);
  });

  it('rejects data that does not match the shape, and options on ops that have none', () => {
    const b = new ModelBuilder();
    const e = expectModelError(() => b.addTensor({ name: 'w', type: TensorType.INT32, shape: [3], data: new Int32Array(2) }));
    expect(e.message).toMatch(/data has 8 bytes, shape \[3\] of int32 needs 12/);
    expect(() => b.addTensor({ name: 'bad', type: TensorType.INT8, shape: [-1] })).toThrow(ModelError);
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1] });
    expect(() => b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [x], options: { beta: 1 } })).toThrow(
      /takes no builtin options/,
    );
  });

  it('verifies on build: an operator referring to a missing tensor is a ModelError', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1] });
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [5] });
    const e = expectModelError(() => b.setInputs([x]).setOutputs([x]).build());
    expect(e.location).toMatchObject({ table: 'Operator', field: 'outputs' });
  });
});
