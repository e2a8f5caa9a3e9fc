import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { ActivationFunctionType, FullyConnectedWeightsFormat, MirrorPadMode, Padding, type BuiltinOptions } from '../options.js';
import { TensorType } from '../types.js';
import { expectSameBuffers, smallModelBuilder, u32, withoutBuffers } from './__tests__/helpers.js';
import { loadModel } from './loader.js';
import type { ModelDef, OperatorDef } from './model-def.js';
import { BuiltinOptionsType, builtinOptionsTypeName, defaultBuiltinOptions, isParsedOptionsType } from './options-map.js';
import { defaultBuiltinOptions2 } from './options2-codec.js';
import { writeModel } from './writer.js';

/** Non-default values for every options type micrort parses. */
const SAMPLE_OPTIONS: ReadonlyArray<readonly [BuiltinOptionsType, BuiltinOptions]> = [
  [
    BuiltinOptionsType.Conv2DOptions,
    {
      padding: Padding.VALID,
      strideW: 2,
      strideH: 3,
      fusedActivationFunction: ActivationFunctionType.RELU6,
      dilationWFactor: 4,
      dilationHFactor: 5,
      quantizedBiasType: TensorType.INT64,
    },
  ],
  [
    BuiltinOptionsType.DepthwiseConv2DOptions,
    {
      padding: Padding.VALID,
      strideW: 2,
      strideH: 1,
      depthMultiplier: 3,
      fusedActivationFunction: ActivationFunctionType.RELU,
      dilationWFactor: 2,
      dilationHFactor: 7,
    },
  ],
  [
    BuiltinOptionsType.TransposeConvOptions,
    {
      padding: Padding.VALID,
      strideW: 2,
      strideH: 2,
      fusedActivationFunction: ActivationFunctionType.TANH,
      quantizedBiasType: TensorType.INT32,
    },
  ],
  [
    BuiltinOptionsType.Pool2DOptions,
    {
      padding: Padding.VALID,
      strideW: 2,
      strideH: 3,
      filterWidth: 4,
      filterHeight: 5,
      fusedActivationFunction: ActivationFunctionType.RELU_N1_TO_1,
    },
  ],
  [
    BuiltinOptionsType.FullyConnectedOptions,
    {
      fusedActivationFunction: ActivationFunctionType.RELU,
      weightsFormat: FullyConnectedWeightsFormat.SHUFFLED4x16INT8,
      keepNumDims: true,
      asymmetricQuantizeInputs: true,
      quantizedBiasType: TensorType.INT32,
    },
  ],
  [BuiltinOptionsType.SoftmaxOptions, { beta: 0.5 }],
  [BuiltinOptionsType.AddOptions, { fusedActivationFunction: ActivationFunctionType.RELU, potScaleInt16: false }],
  [BuiltinOptionsType.SubOptions, { fusedActivationFunction: ActivationFunctionType.RELU6, potScaleInt16: false }],
  [BuiltinOptionsType.MulOptions, { fusedActivationFunction: ActivationFunctionType.TANH }],
  [BuiltinOptionsType.DivOptions, { fusedActivationFunction: ActivationFunctionType.SIGN_BIT }],
  [BuiltinOptionsType.ConcatenationOptions, { axis: -1, fusedActivationFunction: ActivationFunctionType.RELU }],
  [BuiltinOptionsType.ReshapeOptions, { newShape: new Int32Array([1, -1, 8]) }],
  [BuiltinOptionsType.ReducerOptions, { keepDims: true }],
  [BuiltinOptionsType.StridedSliceOptions, { beginMask: 1, endMask: 2, ellipsisMask: 4, newAxisMask: 8, shrinkAxisMask: 16, offset: true }],
  [BuiltinOptionsType.SVDFOptions, { rank: 2, fusedActivationFunction: ActivationFunctionType.RELU, asymmetricQuantizeInputs: true }],
  [
    BuiltinOptionsType.UnidirectionalSequenceLSTMOptions,
    {
      fusedActivationFunction: ActivationFunctionType.TANH,
      cellClip: 10,
      projClip: 0.25,
      timeMajor: true,
      asymmetricQuantizeInputs: true,
      diagonalRecurrentTensors: true,
    },
  ],
  [BuiltinOptionsType.LeakyReluOptions, { alpha: 0.125 }],
  [BuiltinOptionsType.CastOptions, { inDataType: TensorType.INT8, outDataType: TensorType.INT16 }],
  [BuiltinOptionsType.SqueezeOptions, { squeezeDims: new Int32Array([0, 2]) }],
  [BuiltinOptionsType.GatherOptions, { axis: 1, batchDims: 1 }],
  [BuiltinOptionsType.SplitOptions, { numSplits: 3 }],
  [BuiltinOptionsType.PackOptions, { valuesCount: 4, axis: 1 }],
  [BuiltinOptionsType.ArgMaxOptions, { outputType: TensorType.INT64 }],
  [BuiltinOptionsType.IfOptions, { thenSubgraphIndex: 1, elseSubgraphIndex: 2 }],
  [BuiltinOptionsType.WhileOptions, { condSubgraphIndex: 3, bodySubgraphIndex: 4 }],
  [BuiltinOptionsType.CallOnceOptions, { initSubgraphIndex: 5 }],
  [BuiltinOptionsType.VarHandleOptions, { container: 'c', sharedName: 'counter' }],
  [BuiltinOptionsType.LSHProjectionOptions, { type: 2 }],
  [BuiltinOptionsType.SkipGramOptions, { ngramSize: 3, maxSkipSize: 1, includeAllNgrams: true }],
  [BuiltinOptionsType.HashtableOptions, { tableId: 7, keyDtype: 5, valueDtype: 4 }],
  [BuiltinOptionsType.ArgMinOptions, { outputType: TensorType.INT32 }],
  [BuiltinOptionsType.ResizeBilinearOptions, { alignCorners: true, halfPixelCenters: true }],
  [BuiltinOptionsType.ResizeNearestNeighborOptions, { alignCorners: true, halfPixelCenters: true }],
  [BuiltinOptionsType.SpaceToDepthOptions, { blockSize: 2 }],
  [BuiltinOptionsType.DepthToSpaceOptions, { blockSize: 3 }],
  [BuiltinOptionsType.MirrorPadOptions, { mode: MirrorPadMode.SYMMETRIC }],
  [BuiltinOptionsType.UnpackOptions, { num: 3, axis: -1 }],
  [BuiltinOptionsType.SplitVOptions, { numSplits: 2 }],
  [BuiltinOptionsType.L2NormOptions, { fusedActivationFunction: ActivationFunctionType.RELU }],
  [BuiltinOptionsType.BatchMatMulOptions, { adjX: true, adjY: true, asymmetricQuantizeInputs: true }],
  [BuiltinOptionsType.CumsumOptions, { exclusive: true, reverse: true }],
  [BuiltinOptionsType.GeluOptions, { approximate: true }],
  [BuiltinOptionsType.OneHotOptions, { axis: -1 }],
  [BuiltinOptionsType.UniqueOptions, { idxOutType: TensorType.INT64 }],
  [BuiltinOptionsType.ReverseSequenceOptions, { seqDim: 2, batchDim: 1 }],
  [BuiltinOptionsType.LocalResponseNormalizationOptions, { radius: 3, bias: 1.5, alpha: 0.25, beta: 0.75 }],
  [BuiltinOptionsType.FakeQuantOptions, { min: -1.5, max: 2.5, numBits: 8, narrowRange: true }],
  [
    BuiltinOptionsType.Conv3DOptions,
    {
      padding: Padding.VALID,
      strideD: 2,
      strideW: 3,
      strideH: 4,
      fusedActivationFunction: ActivationFunctionType.RELU,
      dilationDFactor: 2,
      dilationWFactor: 3,
      dilationHFactor: 4,
    },
  ],
  [BuiltinOptionsType.RandomOptions, { seed: 0x123456789abcdefn, seed2: -7n }],
  [BuiltinOptionsType.BucketizeOptions, { boundaries: Float32Array.from([-1, 0.5, 2]) }],
  [BuiltinOptionsType.EmbeddingLookupSparseOptions, { combiner: 2 }],
  [BuiltinOptionsType.SparseToDenseOptions, { validateIndices: true }],
  [BuiltinOptionsType.RNNOptions, { fusedActivationFunction: ActivationFunctionType.RELU, asymmetricQuantizeInputs: true }],
  [
    BuiltinOptionsType.LSTMOptions,
    { fusedActivationFunction: ActivationFunctionType.TANH, cellClip: 3.5, projClip: 0.25, kernelType: 1, asymmetricQuantizeInputs: true },
  ],
  [
    BuiltinOptionsType.SequenceRNNOptions,
    { timeMajor: true, fusedActivationFunction: ActivationFunctionType.TANH, asymmetricQuantizeInputs: true },
  ],
  [
    BuiltinOptionsType.BidirectionalSequenceLSTMOptions,
    {
      fusedActivationFunction: ActivationFunctionType.TANH,
      cellClip: 2,
      projClip: 1.5,
      mergeOutputs: true,
      timeMajor: false,
      asymmetricQuantizeInputs: true,
    },
  ],
  [
    BuiltinOptionsType.BidirectionalSequenceRNNOptions,
    { timeMajor: true, fusedActivationFunction: ActivationFunctionType.RELU6, mergeOutputs: true, asymmetricQuantizeInputs: true },
  ],
];

/** A model whose operators carry the given options (custom op codes, so no op/options check applies). */
function modelWithOptions(options: ReadonlyArray<readonly [number, BuiltinOptions | null]>): ModelDef {
  const def = smallModelBuilder().buildDef();
  def.operatorCodes.push({ builtinCode: BuiltinOperator.CUSTOM, deprecatedBuiltinCode: 32, customCode: 'Probe', version: 1 });
  const probe = def.operatorCodes.length - 1;
  const sg = def.subgraphs[0]!;
  sg.operators = options.map(([type, opts]): OperatorDef => ({
    opcodeIndex: probe,
    inputs: new Int32Array([0]),
    outputs: new Int32Array([3]),
    intermediates: new Int32Array(0),
    builtinOptionsType: type,
    builtinOptions: opts,
    customOptions: null,
  }));
  return def;
}

describe('writeModel', () => {
  it('covers every options type micrort parses', () => {
    const parsed = Object.values(BuiltinOptionsType).filter((v): v is number => typeof v === 'number' && isParsedOptionsType(v));
    expect(SAMPLE_OPTIONS.map(([t]) => t).sort((a, b) => a - b)).toEqual(parsed.sort((a, b) => a - b));
  });

  it.each(SAMPLE_OPTIONS.map(([t, o]) => [builtinOptionsTypeName(t), t, o] as const))('round-trips %s', (_name, type, options) => {
    const loaded = loadModel(writeModel(modelWithOptions([[type, options]])));
    const op = loaded.subgraphs[0]!.operators[0]!;
    expect(op.builtinOptionsType).toBe(type);
    expect(op.builtinOptions).toEqual(options);
    // The sample values are all non-default, so this also proves each field is really written.
    for (const [key, value] of Object.entries(defaultBuiltinOptions(type))) {
      if (ArrayBuffer.isView(value)) continue;
      expect((options as Record<string, unknown>)[key], `${key} sample differs from the default`).not.toEqual(value);
    }
  });

  it('writes missing fields as schema defaults, unparsed types as {}, and a type without table as null', () => {
    const loaded = loadModel(
      writeModel(
        modelWithOptions([
          [BuiltinOptionsType.Conv2DOptions, { strideW: 2 } as BuiltinOptions],
          [BuiltinOptionsType.PadOptions, {}],
          [BuiltinOptionsType.AddOptions, null],
          [BuiltinOptionsType.NONE, null],
        ]),
      ),
    );
    const ops = loaded.subgraphs[0]!.operators;
    expect(ops[0]!.builtinOptions).toEqual({ ...defaultBuiltinOptions(BuiltinOptionsType.Conv2DOptions), strideW: 2 });
    expect(ops[1]!.builtinOptions).toEqual({});
    expect(ops[1]!.builtinOptionsType).toBe(BuiltinOptionsType.PadOptions);
    expect(ops[2]!.builtinOptionsType).toBe(BuiltinOptionsType.AddOptions);
    expect(ops[2]!.builtinOptions).toBeNull();
    expect(ops[3]!.builtinOptions).toBeNull();
  });

  it('writes identifier TFL3, version 3, an empty buffer 0 and 16-byte aligned constant data', () => {
    const bytes = writeModel(smallModelBuilder().buildDef());
    expect(bytes.byteOffset).toBe(0);
    expect(String.fromCharCode(...bytes.subarray(4, 8))).toBe('TFL3');
    const def = loadModel(bytes);
    expect(def.version).toBe(3);
    expect(def.buffers[0]!.data.byteLength).toBe(0);
    for (const b of def.buffers.slice(1)) {
      expect(b.zeroCopy).toBe(true);
      expect(b.data.byteOffset % 16).toBe(0);
    }
    expect(u32(bytes, 0)).toBeLessThan(bytes.byteLength);
  });

  it('inserts an empty sentinel buffer when buffer 0 holds data, shifting every buffer index', () => {
    const def = smallModelBuilder().buildDef();
    // Move the empty buffer to the end: buffer 0 now holds the conv filter.
    const empty = def.buffers.length - 1;
    def.buffers.push(def.buffers.shift()!);
    const remap = (i: number) => (i === 0 ? empty : i - 1);
    for (const t of def.subgraphs[0]!.tensors) t.buffer = remap(t.buffer);
    for (const m of def.metadata) m.buffer = remap(m.buffer);
    const filter = def.subgraphs[0]!.tensors[1]!;
    expect(filter.buffer).toBe(0);
    const loaded = loadModel(writeModel(def));
    expect(loaded.buffers[0]!.data.byteLength).toBe(0);
    expect(loaded.buffers.length).toBe(def.buffers.length + 1);
    expect(loaded.subgraphs[0]!.tensors[1]!.buffer).toBe(1);
    expect(Array.from(loaded.buffers[1]!.data)).toEqual(Array.from(def.buffers[0]!.data));
    expect(loaded.subgraphs[0]!.tensors[0]!.buffer).toBe(empty + 1);
    expect(loaded.metadata[0]!.buffer).toBe(def.metadata[0]!.buffer + 1);
  });

  it('round-trips signature defs, shape signatures, min/max, mutating inputs, metadata_buffer and BuiltinOptions2 types', () => {
    const def = smallModelBuilder().buildDef();
    const sg = def.subgraphs[0]!;
    def.signatureDefs = [
      {
        signatureKey: 'serving_default',
        subgraphIndex: 0,
        inputs: [{ name: 'in', tensorIndex: 0 }],
        outputs: [{ name: 'out', tensorIndex: 8 }],
      },
    ];
    def.metadataBuffer = new Int32Array([1]);
    sg.tensors[0]!.shapeSignature = new Int32Array([-1, 4, 4, 2]);
    sg.tensors[0]!.quantization!.min = new Float32Array([-64]);
    sg.tensors[0]!.quantization!.max = new Float32Array([63.5]);
    sg.operators[0]!.mutatingVariableInputs = [false, false, true];
    sg.operators[1]!.builtinOptions2Type = 3;
    const loaded = loadModel(writeModel(def));
    // An empty table of type 3 (StablehloSliceOptions) reads back with every field at its default.
    sg.operators[1]!.builtinOptions2 = defaultBuiltinOptions2(3);
    expect(withoutBuffers(loaded)).toEqual(withoutBuffers(def));
    expectSameBuffers(def, loaded);
  });

  it('writes constant data after the flatbuffer with externalData, 16-byte aligned', () => {
    const def = smallModelBuilder().buildDef();
    const bytes = writeModel(def, { externalData: true });
    const loaded = loadModel(bytes);
    expectSameBuffers(def, loaded);
    const external = loaded.buffers.filter((b) => b.data.byteLength > 0);
    expect(external.length).toBeGreaterThan(0);
    for (const b of external) expect(b.offset! % 16).toBe(0);
  });
});
