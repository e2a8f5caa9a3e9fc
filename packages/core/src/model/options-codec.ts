import type * as flatbuffers from 'flatbuffers';
import type {
  AddOptions as AddOptionsDef,
  ArgMaxOptions as ArgMaxOptionsDef,
  ArgMinOptions as ArgMinOptionsDef,
  HashtableOptions as HashtableOptionsDef,
  LSHProjectionOptions as LSHProjectionOptionsDef,
  SkipGramOptions as SkipGramOptionsDef,
  BatchMatMulOptions as BatchMatMulOptionsDef,
  BuiltinOptions as BuiltinOptionsDef,
  CallOnceOptions as CallOnceOptionsDef,
  IfOptions as IfOptionsDef,
  VarHandleOptions as VarHandleOptionsDef,
  WhileOptions as WhileOptionsDef,
  CastOptions as CastOptionsDef,
  ConcatenationOptions as ConcatenationOptionsDef,
  Conv2DOptions as Conv2DOptionsDef,
  DepthToSpaceOptions as DepthToSpaceOptionsDef,
  CumsumOptions as CumsumOptionsDef,
  GeluOptions as GeluOptionsDef,
  OneHotOptions as OneHotOptionsDef,
  UniqueOptions as UniqueOptionsDef,
  ReverseSequenceOptions as ReverseSequenceOptionsDef,
  LocalResponseNormalizationOptions as LocalResponseNormalizationOptionsDef,
  FakeQuantOptions as FakeQuantOptionsDef,
  Conv3DOptions as Conv3DOptionsDef,
  RandomOptions as RandomOptionsDef,
  BucketizeOptions as BucketizeOptionsDef,
  EmbeddingLookupSparseOptions as EmbeddingLookupSparseOptionsDef,
  SparseToDenseOptions as SparseToDenseOptionsDef,
  RNNOptions as RNNOptionsDef,
  LSTMOptions as LSTMOptionsDef,
  SequenceRNNOptions as SequenceRNNOptionsDef,
  BidirectionalSequenceLSTMOptions as BidirectionalSequenceLSTMOptionsDef,
  BidirectionalSequenceRNNOptions as BidirectionalSequenceRNNOptionsDef,
  DepthwiseConv2DOptions as DepthwiseConv2DOptionsDef,
  DivOptions as DivOptionsDef,
  FullyConnectedOptions as FullyConnectedOptionsDef,
  GatherOptions as GatherOptionsDef,
  L2NormOptions as L2NormOptionsDef,
  LeakyReluOptions as LeakyReluOptionsDef,
  MirrorPadOptions as MirrorPadOptionsDef,
  MulOptions as MulOptionsDef,
  PackOptions as PackOptionsDef,
  Pool2DOptions as Pool2DOptionsDef,
  ReducerOptions as ReducerOptionsDef,
  ReshapeOptions as ReshapeOptionsDef,
  ResizeBilinearOptions as ResizeBilinearOptionsDef,
  ResizeNearestNeighborOptions as ResizeNearestNeighborOptionsDef,
  SoftmaxOptions as SoftmaxOptionsDef,
  SpaceToDepthOptions as SpaceToDepthOptionsDef,
  SplitOptions as SplitOptionsDef,
  SplitVOptions as SplitVOptionsDef,
  SqueezeOptions as SqueezeOptionsDef,
  StridedSliceOptions as StridedSliceOptionsDef,
  SubOptions as SubOptionsDef,
  SVDFOptions as SVDFOptionsDef,
  TransposeConvOptions as TransposeConvOptionsDef,
  UnidirectionalSequenceLSTMOptions as UnidirectionalSequenceLSTMOptionsDef,
  UnpackOptions as UnpackOptionsDef,
} from '../options.js';
import {
  AddOptions,
  HashtableOptions,
  LSHProjectionOptions,
  SkipGramOptions,
  ArgMaxOptions,
  CallOnceOptions,
  ArgMinOptions,
  CastOptions,
  IfOptions,
  VarHandleOptions,
  WhileOptions,
  ConcatenationOptions,
  Conv2DOptions,
  DepthToSpaceOptions,
  BatchMatMulOptions,
  CumsumOptions,
  GeluOptions,
  OneHotOptions,
  UniqueOptions,
  ReverseSequenceOptions,
  LocalResponseNormalizationOptions,
  FakeQuantOptions,
  Conv3DOptions,
  RandomOptions,
  BucketizeOptions,
  EmbeddingLookupSparseOptions,
  SparseToDenseOptions,
  RNNOptions,
  LSTMOptions,
  SequenceRNNOptions,
  BidirectionalSequenceLSTMOptions,
  BidirectionalSequenceRNNOptions,
  DepthwiseConv2DOptions,
  DivOptions,
  FullyConnectedOptions,
  GatherOptions,
  L2NormOptions,
  LeakyReluOptions,
  MirrorPadOptions,
  MulOptions,
  PackOptions,
  Pool2DOptions,
  ReducerOptions,
  ReshapeOptions,
  ResizeBilinearOptions,
  ResizeNearestNeighborOptions,
  SoftmaxOptions,
  SpaceToDepthOptions,
  SplitOptions,
  SplitVOptions,
  SqueezeOptions,
  StridedSliceOptions,
  SubOptions,
  SVDFOptions,
  TransposeConvOptions,
  UnidirectionalSequenceLSTMOptions,
  UnpackOptions,
  type Operator,
} from './generated/tflite.js';
import { BuiltinOptionsType, defaultBuiltinOptions } from './options-map.js';

/** Any generated table class: something `Operator.builtinOptions(obj)` can initialise. */
interface TableObject {
  __init(i: number, bb: flatbuffers.ByteBuffer): unknown;
}

/** Copies an int32 vector read through an index accessor into a fresh Int32Array. */
function readInt32Vector(length: number, at: (i: number) => number | null): Int32Array {
  const out = new Int32Array(length);
  for (let i = 0; i < length; i++) out[i] = at(i) ?? 0;
  return out;
}

/** Reads one parsed member of the `builtin_options` union of a verified operator; null when its table is absent. */
type OptionsReader = (op: Operator) => BuiltinOptionsDef | null;

/** The reader of the union member whose generated table class `make` creates; `read` copies its fields into options.ts's shape. */
function reader<O extends TableObject>(make: () => O, read: (o: O) => BuiltinOptionsDef): OptionsReader {
  return (op) => {
    const o = op.builtinOptions(make()) as O | null;
    return o ? read(o) : null;
  };
}

/** The union members micrort parses, by union type. */
const OPTIONS_READERS: ReadonlyMap<number, OptionsReader> = new Map<number, OptionsReader>([
  [
    BuiltinOptionsType.Conv2DOptions,
    reader(
      () => new Conv2DOptions(),
      (o): Conv2DOptionsDef => ({
        padding: o.padding() as number,
        strideW: o.strideW(),
        strideH: o.strideH(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
        dilationWFactor: o.dilationWFactor(),
        dilationHFactor: o.dilationHFactor(),
        quantizedBiasType: o.quantizedBiasType() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.DepthwiseConv2DOptions,
    reader(
      () => new DepthwiseConv2DOptions(),
      (o): DepthwiseConv2DOptionsDef => ({
        padding: o.padding() as number,
        strideW: o.strideW(),
        strideH: o.strideH(),
        depthMultiplier: o.depthMultiplier(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
        dilationWFactor: o.dilationWFactor(),
        dilationHFactor: o.dilationHFactor(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.TransposeConvOptions,
    reader(
      () => new TransposeConvOptions(),
      (o): TransposeConvOptionsDef => ({
        padding: o.padding() as number,
        strideW: o.strideW(),
        strideH: o.strideH(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
        quantizedBiasType: o.quantizedBiasType() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.Pool2DOptions,
    reader(
      () => new Pool2DOptions(),
      (o): Pool2DOptionsDef => ({
        padding: o.padding() as number,
        strideW: o.strideW(),
        strideH: o.strideH(),
        filterWidth: o.filterWidth(),
        filterHeight: o.filterHeight(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.FullyConnectedOptions,
    reader(
      () => new FullyConnectedOptions(),
      (o): FullyConnectedOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
        weightsFormat: o.weightsFormat() as number,
        keepNumDims: o.keepNumDims(),
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
        quantizedBiasType: o.quantizedBiasType() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.SoftmaxOptions,
    reader(
      () => new SoftmaxOptions(),
      (o): SoftmaxOptionsDef => ({ beta: o.beta() }),
    ),
  ],
  [
    BuiltinOptionsType.AddOptions,
    reader(
      () => new AddOptions(),
      (o): AddOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
        potScaleInt16: o.potScaleInt16(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.SubOptions,
    reader(
      () => new SubOptions(),
      (o): SubOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
        potScaleInt16: o.potScaleInt16(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.MulOptions,
    reader(
      () => new MulOptions(),
      (o): MulOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.DivOptions,
    reader(
      () => new DivOptions(),
      (o): DivOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.ConcatenationOptions,
    reader(
      () => new ConcatenationOptions(),
      (o): ConcatenationOptionsDef => ({
        axis: o.axis(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.ReshapeOptions,
    reader(
      () => new ReshapeOptions(),
      (o): ReshapeOptionsDef => ({
        newShape: readInt32Vector(o.newShapeLength(), (i) => o.newShape(i)),
      }),
    ),
  ],
  [
    BuiltinOptionsType.ReducerOptions,
    reader(
      () => new ReducerOptions(),
      (o): ReducerOptionsDef => ({ keepDims: o.keepDims() }),
    ),
  ],
  [
    BuiltinOptionsType.StridedSliceOptions,
    reader(
      () => new StridedSliceOptions(),
      (o): StridedSliceOptionsDef => ({
        beginMask: o.beginMask(),
        endMask: o.endMask(),
        ellipsisMask: o.ellipsisMask(),
        newAxisMask: o.newAxisMask(),
        shrinkAxisMask: o.shrinkAxisMask(),
        offset: o.offset(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.SVDFOptions,
    reader(
      () => new SVDFOptions(),
      (o): SVDFOptionsDef => ({
        rank: o.rank(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.UnidirectionalSequenceLSTMOptions,
    reader(
      () => new UnidirectionalSequenceLSTMOptions(),
      (o): UnidirectionalSequenceLSTMOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
        cellClip: o.cellClip(),
        projClip: o.projClip(),
        timeMajor: o.timeMajor(),
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
        diagonalRecurrentTensors: o.diagonalRecurrentTensors(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.LeakyReluOptions,
    reader(
      () => new LeakyReluOptions(),
      (o): LeakyReluOptionsDef => ({ alpha: o.alpha() }),
    ),
  ],
  [
    BuiltinOptionsType.CastOptions,
    reader(
      () => new CastOptions(),
      (o): CastOptionsDef => ({
        inDataType: o.inDataType() as number,
        outDataType: o.outDataType() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.SqueezeOptions,
    reader(
      () => new SqueezeOptions(),
      (o): SqueezeOptionsDef => ({
        squeezeDims: readInt32Vector(o.squeezeDimsLength(), (i) => o.squeezeDims(i)),
      }),
    ),
  ],
  [
    BuiltinOptionsType.GatherOptions,
    reader(
      () => new GatherOptions(),
      (o): GatherOptionsDef => ({
        axis: o.axis(),
        batchDims: o.batchDims(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.SplitOptions,
    reader(
      () => new SplitOptions(),
      (o): SplitOptionsDef => ({ numSplits: o.numSplits() }),
    ),
  ],
  [
    BuiltinOptionsType.PackOptions,
    reader(
      () => new PackOptions(),
      (o): PackOptionsDef => ({
        valuesCount: o.valuesCount(),
        axis: o.axis(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.ArgMaxOptions,
    reader(
      () => new ArgMaxOptions(),
      (o): ArgMaxOptionsDef => ({
        outputType: o.outputType() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.IfOptions,
    reader(
      () => new IfOptions(),
      (o): IfOptionsDef => ({
        thenSubgraphIndex: o.thenSubgraphIndex(),
        elseSubgraphIndex: o.elseSubgraphIndex(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.WhileOptions,
    reader(
      () => new WhileOptions(),
      (o): WhileOptionsDef => ({
        condSubgraphIndex: o.condSubgraphIndex(),
        bodySubgraphIndex: o.bodySubgraphIndex(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.CallOnceOptions,
    reader(
      () => new CallOnceOptions(),
      (o): CallOnceOptionsDef => ({
        initSubgraphIndex: o.initSubgraphIndex(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.VarHandleOptions,
    reader(
      () => new VarHandleOptions(),
      (o): VarHandleOptionsDef => ({
        container: o.container(),
        sharedName: o.sharedName(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.ArgMinOptions,
    reader(
      () => new ArgMinOptions(),
      (o): ArgMinOptionsDef => ({
        outputType: o.outputType() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.LSHProjectionOptions,
    reader(
      () => new LSHProjectionOptions(),
      (o): LSHProjectionOptionsDef => ({ type: o.type() as number }),
    ),
  ],
  [
    BuiltinOptionsType.SkipGramOptions,
    reader(
      () => new SkipGramOptions(),
      (o): SkipGramOptionsDef => ({ ngramSize: o.ngramSize(), maxSkipSize: o.maxSkipSize(), includeAllNgrams: o.includeAllNgrams() }),
    ),
  ],
  [
    BuiltinOptionsType.HashtableOptions,
    reader(
      () => new HashtableOptions(),
      (o): HashtableOptionsDef => ({ tableId: o.tableId(), keyDtype: o.keyDtype() as number, valueDtype: o.valueDtype() as number }),
    ),
  ],
  [
    BuiltinOptionsType.ResizeBilinearOptions,
    reader(
      () => new ResizeBilinearOptions(),
      (o): ResizeBilinearOptionsDef => ({
        alignCorners: o.alignCorners(),
        halfPixelCenters: o.halfPixelCenters(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.ResizeNearestNeighborOptions,
    reader(
      () => new ResizeNearestNeighborOptions(),
      (o): ResizeNearestNeighborOptionsDef => ({
        alignCorners: o.alignCorners(),
        halfPixelCenters: o.halfPixelCenters(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.SpaceToDepthOptions,
    reader(
      () => new SpaceToDepthOptions(),
      (o): SpaceToDepthOptionsDef => ({
        blockSize: o.blockSize(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.DepthToSpaceOptions,
    reader(
      () => new DepthToSpaceOptions(),
      (o): DepthToSpaceOptionsDef => ({
        blockSize: o.blockSize(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.MirrorPadOptions,
    reader(
      () => new MirrorPadOptions(),
      (o): MirrorPadOptionsDef => ({ mode: o.mode() as number }),
    ),
  ],
  [
    BuiltinOptionsType.UnpackOptions,
    reader(
      () => new UnpackOptions(),
      (o): UnpackOptionsDef => ({ num: o.num(), axis: o.axis() }),
    ),
  ],
  [
    BuiltinOptionsType.SplitVOptions,
    reader(
      () => new SplitVOptions(),
      (o): SplitVOptionsDef => ({ numSplits: o.numSplits() }),
    ),
  ],
  [
    BuiltinOptionsType.L2NormOptions,
    reader(
      () => new L2NormOptions(),
      (o): L2NormOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
      }),
    ),
  ],
  [
    BuiltinOptionsType.BatchMatMulOptions,
    reader(
      () => new BatchMatMulOptions(),
      (o): BatchMatMulOptionsDef => ({
        adjX: o.adjX(),
        adjY: o.adjY(),
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.CumsumOptions,
    reader(
      () => new CumsumOptions(),
      (o): CumsumOptionsDef => ({
        exclusive: o.exclusive(),
        reverse: o.reverse(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.GeluOptions,
    reader(
      () => new GeluOptions(),
      (o): GeluOptionsDef => ({ approximate: o.approximate() }),
    ),
  ],
  [
    BuiltinOptionsType.OneHotOptions,
    reader(
      () => new OneHotOptions(),
      (o): OneHotOptionsDef => ({ axis: o.axis() }),
    ),
  ],
  [
    BuiltinOptionsType.UniqueOptions,
    reader(
      () => new UniqueOptions(),
      (o): UniqueOptionsDef => ({ idxOutType: o.idxOutType() as number }),
    ),
  ],
  [
    BuiltinOptionsType.ReverseSequenceOptions,
    reader(
      () => new ReverseSequenceOptions(),
      (o): ReverseSequenceOptionsDef => ({ seqDim: o.seqDim(), batchDim: o.batchDim() }),
    ),
  ],
  [
    BuiltinOptionsType.LocalResponseNormalizationOptions,
    reader(
      () => new LocalResponseNormalizationOptions(),
      (o): LocalResponseNormalizationOptionsDef => ({ radius: o.radius(), bias: o.bias(), alpha: o.alpha(), beta: o.beta() }),
    ),
  ],
  [
    BuiltinOptionsType.FakeQuantOptions,
    reader(
      () => new FakeQuantOptions(),
      (o): FakeQuantOptionsDef => ({ min: o.min(), max: o.max(), numBits: o.numBits(), narrowRange: o.narrowRange() }),
    ),
  ],
  [
    BuiltinOptionsType.Conv3DOptions,
    reader(
      () => new Conv3DOptions(),
      (o): Conv3DOptionsDef => ({
        padding: o.padding() as number,
        strideD: o.strideD(),
        strideW: o.strideW(),
        strideH: o.strideH(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
        dilationDFactor: o.dilationDFactor(),
        dilationWFactor: o.dilationWFactor(),
        dilationHFactor: o.dilationHFactor(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.RandomOptions,
    reader(
      () => new RandomOptions(),
      (o): RandomOptionsDef => ({ seed: o.seed(), seed2: o.seed2() }),
    ),
  ],
  [
    BuiltinOptionsType.BucketizeOptions,
    reader(
      () => new BucketizeOptions(),
      (o): BucketizeOptionsDef => ({ boundaries: Float32Array.from(o.boundariesArray() ?? []) }),
    ),
  ],
  [
    BuiltinOptionsType.EmbeddingLookupSparseOptions,
    reader(
      () => new EmbeddingLookupSparseOptions(),
      (o): EmbeddingLookupSparseOptionsDef => ({ combiner: o.combiner() as number }),
    ),
  ],
  [
    BuiltinOptionsType.SparseToDenseOptions,
    reader(
      () => new SparseToDenseOptions(),
      (o): SparseToDenseOptionsDef => ({ validateIndices: o.validateIndices() }),
    ),
  ],
  [
    BuiltinOptionsType.RNNOptions,
    reader(
      () => new RNNOptions(),
      (o): RNNOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.LSTMOptions,
    reader(
      () => new LSTMOptions(),
      (o): LSTMOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
        cellClip: o.cellClip(),
        projClip: o.projClip(),
        kernelType: o.kernelType() as number,
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.SequenceRNNOptions,
    reader(
      () => new SequenceRNNOptions(),
      (o): SequenceRNNOptionsDef => ({
        timeMajor: o.timeMajor(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.BidirectionalSequenceLSTMOptions,
    reader(
      () => new BidirectionalSequenceLSTMOptions(),
      (o): BidirectionalSequenceLSTMOptionsDef => ({
        fusedActivationFunction: o.fusedActivationFunction() as number,
        cellClip: o.cellClip(),
        projClip: o.projClip(),
        mergeOutputs: o.mergeOutputs(),
        timeMajor: o.timeMajor(),
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
      }),
    ),
  ],
  [
    BuiltinOptionsType.BidirectionalSequenceRNNOptions,
    reader(
      () => new BidirectionalSequenceRNNOptions(),
      (o): BidirectionalSequenceRNNOptionsDef => ({
        timeMajor: o.timeMajor(),
        fusedActivationFunction: o.fusedActivationFunction() as number,
        mergeOutputs: o.mergeOutputs(),
        asymmetricQuantizeInputs: o.asymmetricQuantizeInputs(),
      }),
    ),
  ],
]);

/**
 * Parses the `builtin_options` union of a verified operator into the plain options object of options.ts.
 * Returns `null` when the union type is NONE or the table is absent, and `{}` for union types micrort
 * does not parse.
 */
export function readBuiltinOptions(op: Operator): BuiltinOptionsDef | null {
  const type = op.builtinOptionsType() as number;
  if (type === BuiltinOptionsType.NONE) return null;
  const read = OPTIONS_READERS.get(type);
  if (read) return read(op);
  // A table micrort does not parse: present → `{}`, absent → null. Any table class can probe presence.
  return op.builtinOptions(new ReducerOptions()) ? {} : null;
}

/** Reads field `key` of a loosely typed options object, falling back to `fallback` when absent. */
function field<V>(options: Readonly<Record<string, unknown>>, defaults: Readonly<Record<string, unknown>>, key: string): V {
  const v = options[key];
  return (v === undefined ? defaults[key] : v) as V;
}

function int32List(value: unknown): Int32Array {
  if (value instanceof Int32Array) return value;
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return Int32Array.from(value as ArrayLike<number>);
  return new Int32Array(0);
}

/**
 * Serializes `options` as the `BuiltinOptions` table of union type `type` and returns its offset. Fields
 * missing from `options` take the schema defaults; types micrort does not parse are written as an empty
 * table (their fields, if any, keep the schema defaults).
 */
export function writeBuiltinOptions(
  builder: flatbuffers.Builder,
  type: number,
  options: Readonly<BuiltinOptionsDef> | null,
): flatbuffers.Offset {
  const o = (options ?? {}) as Readonly<Record<string, unknown>>;
  const d = defaultBuiltinOptions(type) as unknown as Readonly<Record<string, unknown>>;
  const num = (key: string): number => Number(field<number>(o, d, key) ?? 0);
  const bool = (key: string): boolean => Boolean(field<boolean>(o, d, key));
  switch (type) {
    case BuiltinOptionsType.Conv2DOptions:
      return Conv2DOptions.createConv2DOptions(
        builder,
        num('padding'),
        num('strideW'),
        num('strideH'),
        num('fusedActivationFunction'),
        num('dilationWFactor'),
        num('dilationHFactor'),
        num('quantizedBiasType'),
      );
    case BuiltinOptionsType.DepthwiseConv2DOptions:
      return DepthwiseConv2DOptions.createDepthwiseConv2DOptions(
        builder,
        num('padding'),
        num('strideW'),
        num('strideH'),
        num('depthMultiplier'),
        num('fusedActivationFunction'),
        num('dilationWFactor'),
        num('dilationHFactor'),
      );
    case BuiltinOptionsType.TransposeConvOptions:
      return TransposeConvOptions.createTransposeConvOptions(
        builder,
        num('padding'),
        num('strideW'),
        num('strideH'),
        num('fusedActivationFunction'),
        num('quantizedBiasType'),
      );
    case BuiltinOptionsType.Pool2DOptions:
      return Pool2DOptions.createPool2DOptions(
        builder,
        num('padding'),
        num('strideW'),
        num('strideH'),
        num('filterWidth'),
        num('filterHeight'),
        num('fusedActivationFunction'),
      );
    case BuiltinOptionsType.FullyConnectedOptions:
      return FullyConnectedOptions.createFullyConnectedOptions(
        builder,
        num('fusedActivationFunction'),
        num('weightsFormat'),
        bool('keepNumDims'),
        bool('asymmetricQuantizeInputs'),
        num('quantizedBiasType'),
      );
    case BuiltinOptionsType.SoftmaxOptions:
      return SoftmaxOptions.createSoftmaxOptions(builder, num('beta'));
    case BuiltinOptionsType.AddOptions:
      return AddOptions.createAddOptions(builder, num('fusedActivationFunction'), bool('potScaleInt16'));
    case BuiltinOptionsType.SubOptions:
      return SubOptions.createSubOptions(builder, num('fusedActivationFunction'), bool('potScaleInt16'));
    case BuiltinOptionsType.MulOptions:
      return MulOptions.createMulOptions(builder, num('fusedActivationFunction'));
    case BuiltinOptionsType.DivOptions:
      return DivOptions.createDivOptions(builder, num('fusedActivationFunction'));
    case BuiltinOptionsType.ConcatenationOptions:
      return ConcatenationOptions.createConcatenationOptions(builder, num('axis'), num('fusedActivationFunction'));
    case BuiltinOptionsType.ReshapeOptions: {
      const shape = int32List(o['newShape']);
      // An empty new_shape is written as "no vector", which reads back as an empty Int32Array.
      const vec = shape.length > 0 ? ReshapeOptions.createNewShapeVector(builder, shape) : 0;
      return ReshapeOptions.createReshapeOptions(builder, vec);
    }
    case BuiltinOptionsType.ReducerOptions:
      return ReducerOptions.createReducerOptions(builder, bool('keepDims'));
    case BuiltinOptionsType.StridedSliceOptions:
      return StridedSliceOptions.createStridedSliceOptions(
        builder,
        num('beginMask'),
        num('endMask'),
        num('ellipsisMask'),
        num('newAxisMask'),
        num('shrinkAxisMask'),
        bool('offset'),
      );
    case BuiltinOptionsType.SVDFOptions:
      return SVDFOptions.createSVDFOptions(builder, num('rank'), num('fusedActivationFunction'), bool('asymmetricQuantizeInputs'));
    case BuiltinOptionsType.UnidirectionalSequenceLSTMOptions:
      return UnidirectionalSequenceLSTMOptions.createUnidirectionalSequenceLSTMOptions(
        builder,
        num('fusedActivationFunction'),
        num('cellClip'),
        num('projClip'),
        bool('timeMajor'),
        bool('asymmetricQuantizeInputs'),
        bool('diagonalRecurrentTensors'),
      );
    case BuiltinOptionsType.LeakyReluOptions:
      return LeakyReluOptions.createLeakyReluOptions(builder, num('alpha'));
    case BuiltinOptionsType.CastOptions:
      return CastOptions.createCastOptions(builder, num('inDataType'), num('outDataType'));
    case BuiltinOptionsType.SqueezeOptions: {
      const dims = int32List(o['squeezeDims']);
      const vec = dims.length > 0 ? SqueezeOptions.createSqueezeDimsVector(builder, dims) : 0;
      return SqueezeOptions.createSqueezeOptions(builder, vec);
    }
    case BuiltinOptionsType.GatherOptions:
      return GatherOptions.createGatherOptions(builder, num('axis'), num('batchDims'));
    case BuiltinOptionsType.SplitOptions:
      return SplitOptions.createSplitOptions(builder, num('numSplits'));
    case BuiltinOptionsType.PackOptions:
      return PackOptions.createPackOptions(builder, num('valuesCount'), num('axis'));
    case BuiltinOptionsType.ArgMaxOptions:
      return ArgMaxOptions.createArgMaxOptions(builder, num('outputType'));
    case BuiltinOptionsType.IfOptions:
      return IfOptions.createIfOptions(builder, num('thenSubgraphIndex'), num('elseSubgraphIndex'));
    case BuiltinOptionsType.WhileOptions:
      return WhileOptions.createWhileOptions(builder, num('condSubgraphIndex'), num('bodySubgraphIndex'));
    case BuiltinOptionsType.CallOnceOptions:
      return CallOnceOptions.createCallOnceOptions(builder, num('initSubgraphIndex'));
    case BuiltinOptionsType.VarHandleOptions: {
      // Strings are created before the table starts.
      const str = (key: string): number => {
        const v = field<string | null>(o, d, key);
        return typeof v === 'string' ? builder.createString(v) : 0;
      };
      const container = str('container');
      const sharedName = str('sharedName');
      return VarHandleOptions.createVarHandleOptions(builder, container, sharedName);
    }
    case BuiltinOptionsType.ArgMinOptions:
      return ArgMinOptions.createArgMinOptions(builder, num('outputType'));
    case BuiltinOptionsType.LSHProjectionOptions:
      return LSHProjectionOptions.createLSHProjectionOptions(builder, num('type'));
    case BuiltinOptionsType.SkipGramOptions:
      return SkipGramOptions.createSkipGramOptions(builder, num('ngramSize'), num('maxSkipSize'), bool('includeAllNgrams'));
    case BuiltinOptionsType.HashtableOptions:
      return HashtableOptions.createHashtableOptions(builder, num('tableId'), num('keyDtype'), num('valueDtype'));
    case BuiltinOptionsType.ResizeBilinearOptions:
      return ResizeBilinearOptions.createResizeBilinearOptions(builder, bool('alignCorners'), bool('halfPixelCenters'));
    case BuiltinOptionsType.ResizeNearestNeighborOptions:
      return ResizeNearestNeighborOptions.createResizeNearestNeighborOptions(builder, bool('alignCorners'), bool('halfPixelCenters'));
    case BuiltinOptionsType.SpaceToDepthOptions:
      return SpaceToDepthOptions.createSpaceToDepthOptions(builder, num('blockSize'));
    case BuiltinOptionsType.DepthToSpaceOptions:
      return DepthToSpaceOptions.createDepthToSpaceOptions(builder, num('blockSize'));
    case BuiltinOptionsType.MirrorPadOptions:
      return MirrorPadOptions.createMirrorPadOptions(builder, num('mode'));
    case BuiltinOptionsType.UnpackOptions:
      return UnpackOptions.createUnpackOptions(builder, num('num'), num('axis'));
    case BuiltinOptionsType.SplitVOptions:
      return SplitVOptions.createSplitVOptions(builder, num('numSplits'));
    case BuiltinOptionsType.L2NormOptions:
      return L2NormOptions.createL2NormOptions(builder, num('fusedActivationFunction'));
    case BuiltinOptionsType.BatchMatMulOptions:
      return BatchMatMulOptions.createBatchMatMulOptions(builder, bool('adjX'), bool('adjY'), bool('asymmetricQuantizeInputs'));
    case BuiltinOptionsType.CumsumOptions:
      return CumsumOptions.createCumsumOptions(builder, bool('exclusive'), bool('reverse'));
    case BuiltinOptionsType.GeluOptions:
      return GeluOptions.createGeluOptions(builder, bool('approximate'));
    case BuiltinOptionsType.OneHotOptions:
      return OneHotOptions.createOneHotOptions(builder, num('axis'));
    case BuiltinOptionsType.UniqueOptions:
      return UniqueOptions.createUniqueOptions(builder, num('idxOutType'));
    case BuiltinOptionsType.ReverseSequenceOptions:
      return ReverseSequenceOptions.createReverseSequenceOptions(builder, num('seqDim'), num('batchDim'));
    case BuiltinOptionsType.LocalResponseNormalizationOptions:
      return LocalResponseNormalizationOptions.createLocalResponseNormalizationOptions(
        builder,
        num('radius'),
        num('bias'),
        num('alpha'),
        num('beta'),
      );
    case BuiltinOptionsType.FakeQuantOptions:
      return FakeQuantOptions.createFakeQuantOptions(builder, num('min'), num('max'), num('numBits'), bool('narrowRange'));
    case BuiltinOptionsType.Conv3DOptions:
      return Conv3DOptions.createConv3DOptions(
        builder,
        num('padding'),
        num('strideD'),
        num('strideW'),
        num('strideH'),
        num('fusedActivationFunction'),
        num('dilationDFactor'),
        num('dilationWFactor'),
        num('dilationHFactor'),
      );
    case BuiltinOptionsType.RandomOptions:
      return RandomOptions.createRandomOptions(builder, BigInt(field<bigint>(o, d, 'seed')), BigInt(field<bigint>(o, d, 'seed2')));
    case BuiltinOptionsType.BucketizeOptions: {
      const b = Array.from((field<ArrayLike<number> | undefined>(o, d, 'boundaries') ?? []) as ArrayLike<number>);
      return BucketizeOptions.createBucketizeOptions(builder, b.length > 0 ? BucketizeOptions.createBoundariesVector(builder, b) : 0);
    }
    case BuiltinOptionsType.EmbeddingLookupSparseOptions:
      return EmbeddingLookupSparseOptions.createEmbeddingLookupSparseOptions(builder, num('combiner'));
    case BuiltinOptionsType.SparseToDenseOptions:
      return SparseToDenseOptions.createSparseToDenseOptions(builder, bool('validateIndices'));
    case BuiltinOptionsType.RNNOptions:
      return RNNOptions.createRNNOptions(builder, num('fusedActivationFunction'), bool('asymmetricQuantizeInputs'));
    case BuiltinOptionsType.LSTMOptions:
      return LSTMOptions.createLSTMOptions(
        builder,
        num('fusedActivationFunction'),
        num('cellClip'),
        num('projClip'),
        num('kernelType'),
        bool('asymmetricQuantizeInputs'),
      );
    case BuiltinOptionsType.SequenceRNNOptions:
      return SequenceRNNOptions.createSequenceRNNOptions(
        builder,
        bool('timeMajor'),
        num('fusedActivationFunction'),
        bool('asymmetricQuantizeInputs'),
      );
    case BuiltinOptionsType.BidirectionalSequenceLSTMOptions:
      return BidirectionalSequenceLSTMOptions.createBidirectionalSequenceLSTMOptions(
        builder,
        num('fusedActivationFunction'),
        num('cellClip'),
        num('projClip'),
        bool('mergeOutputs'),
        bool('timeMajor'),
        bool('asymmetricQuantizeInputs'),
      );
    case BuiltinOptionsType.BidirectionalSequenceRNNOptions:
      return BidirectionalSequenceRNNOptions.createBidirectionalSequenceRNNOptions(
        builder,
        bool('timeMajor'),
        num('fusedActivationFunction'),
        bool('mergeOutputs'),
        bool('asymmetricQuantizeInputs'),
      );
    default:
      builder.startObject(0);
      return builder.endObject();
  }
}
