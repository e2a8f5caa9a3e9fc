/**
 * TFLite's op set as data: every `AddBuiltin(BuiltinOperator_X, Register_X(), min_version,
 * max_version)` and `AddCustom(name, …)` of `tflite::ops::builtin::BuiltinOpResolver`
 * (tensorflow/lite/core/kernels/register.cc of tensorflow/tensorflow at
 * 0314b97f5952b2e5188ffd0f540bd53012d7aa97: 158 builtins and 4 custom ops, in its order), and for each
 * op the input/output tensor-type combinations its kernel's Prepare/Eval accepts. A
 * combination is one type per input position (`null`: an optional input left out) and one per output.
 *
 * Where the types come from, per op (`source` names the kernel file under tensorflow/lite/kernels/;
 * `@commit` where the revision read with the search tool is pinned):
 * - the kernel's own type checks — its `switch (input->type)`, `TF_LITE_ENSURE_TYPES_EQ`, `kTfLiteInt8 …`
 *   branches — read in the source, and quoted back by the runtimes below when they refuse a type;
 * - TFLite 2.9's C library (the tfjs-tflite-node oracle): each op's recipe (tflite-op-recipes.ts) was
 *   built for every element type and index type and run; what 2.9 runs is listed, and
 *   tflite-op-set.test.ts keeps checking that it runs every combination not marked `after29`;
 * - current LiteRT (LiteRT.js 2.5.3, built from TFLite's kernels — its errors cite
 *   third_party/tensorflow/lite/kernels/*.cc): a combination 2.9 refuses is listed, marked `after29`
 *   with what 2.9 says, when LiteRT.js runs it; benchmarks' tflite-op-set.litert.test.ts keeps checking
 *   that it runs every one of them, and tflite-op-set.test.ts that 2.9 refuses them. LiteRT.js hands float
 *   ops to XNNPACK, so float16 activations are listed only where the kernel's own type check names
 *   float16 (CONCATENATION, FLOOR) or XNNPACK has no such operator (gathers, comparisons, data movement);
 *   float16 arithmetic that runs in LiteRT.js through XNNPACK alone is not a TFLite kernel type.
 * Types both runtimes refuse are not listed (e.g. STRIDED_SLICE int64 indices, CAST uint64, PACK bool).
 * Where 2.9 took more than the current kernel (WHERE's float16/float64/int16… conditions), the current
 * kernel wins and the op's comment says so.
 *
 * `hybrid` marks TFLite's hybrid kernels: float32 activations × int8/uint8 (or int4) weights,
 * dequantized on the fly (the converter's dynamic-range quantization). `condition` says when a kernel
 * takes a combination only under a condition on the tensors (zero points, scales, shapes).
 */
import type { DType } from './tflite-recipe-builder.js';

export type { DType } from './tflite-recipe-builder.js';

/** One type combination an op's kernel accepts. */
export interface TypeCombo {
  /** One type per input position; `null` for an optional input left out. */
  inputs: readonly (DType | null)[];
  /** One type per output. */
  outputs: readonly DType[];
  /** Float activations × quantized weights (TFLite's hybrid kernels). */
  hybrid?: true;
  /** What the kernel requires of the tensors for this combination. */
  condition?: string;
  /** Absent from TFLite 2.9 (the tfjs-tflite-node oracle's library): what 2.9 lacks. */
  after29?: string;
}

/** One op of BuiltinOpResolver. */
export interface TfliteOp {
  kind: 'builtin' | 'custom';
  /** The builtin operator's schema name (`CONV_2D`) or the custom op's registered name (`Mfcc`). */
  name: string;
  /** `min_version`, `max_version` of the registration. */
  versions: readonly [number, number];
  /** The kernel file under tensorflow/lite/kernels/ and the commit it was read at. */
  source: string;
  types: readonly TypeCombo[];
  /** The whole op is absent from TFLite 2.9: why. */
  after29?: string;
  note?: string;
}

// ---------------------------------------------------------------------------------------------------
// Helpers that spell combinations.

/** One combination. */
const c = (inputs: readonly (DType | null)[], outputs: readonly DType[], extra: Partial<TypeCombo> = {}): TypeCombo => ({
  inputs,
  outputs,
  ...extra,
});
/** For each type t: n inputs of type t, one output of type t. */
const same = (n: number, types: readonly DType[], extra: (t: DType) => Partial<TypeCombo> = () => ({})): TypeCombo[] =>
  types.map((t) => c(new Array<DType>(n).fill(t), [t], extra(t)));
/** For each type t: inputs `f(t)`, output t. */
const each = (
  types: readonly DType[],
  inputs: (t: DType) => readonly (DType | null)[],
  outputs: (t: DType) => readonly DType[] = (t) => [t],
  extra: (t: DType) => Partial<TypeCombo> = () => ({}),
): TypeCombo[] => types.flatMap((t) => [c(inputs(t), outputs(t), extra(t))]);
/** Every pairing of data types with index types: inputs `f(t, i)`, output `g(t, i)`. */
const cross = (
  types: readonly DType[],
  indexTypes: readonly DType[],
  inputs: (t: DType, i: DType) => readonly (DType | null)[],
  outputs: (t: DType, i: DType) => readonly DType[] = (t) => [t],
  extra: (t: DType, i: DType) => Partial<TypeCombo> = () => ({}),
): TypeCombo[] => types.flatMap((t) => indexTypes.map((i) => c(inputs(t, i), outputs(t, i), extra(t, i))));

const ZP0 = 'int16: zero points 0';
const int16zp0 = (t: DType): Partial<TypeCombo> => (t === 'int16' ? { condition: ZP0 } : {});

const B = (
  name: string,
  versions: readonly [number, number],
  source: string,
  types: readonly TypeCombo[],
  more: Partial<TfliteOp> = {},
): TfliteOp => ({
  kind: 'builtin',
  name,
  versions,
  source,
  types,
  ...more,
});
const C = (name: string, source: string, types: readonly TypeCombo[], more: Partial<TfliteOp> = {}): TfliteOp => ({
  kind: 'custom',
  name,
  versions: [1, 1],
  source,
  types,
  ...more,
});

// Common type lists.
/** Every fixed-size element type the tfjs-tflite-node oracle and LiteRT.js can carry, and string. */
const ANY: readonly DType[] = [
  'float32',
  'float16',
  'float64',
  'int8',
  'uint8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'uint64',
  'bool',
  'complex64',
  'string',
];
/** The same without string. */
const FIXED: readonly DType[] = ANY.filter((t) => t !== 'string');
/** Types that generic (element-size) data movement added after 2.9: float16, float64, uint16, uint32, uint64, complex64. */
const WIDE: readonly DType[] = ['float16', 'float64', 'uint16', 'uint32', 'uint64', 'complex64'];
const I32_64: readonly DType[] = ['int32', 'int64'];
/** Marks a combination TFLite 2.9 refuses: what 2.9 says (or does). */
const A29 = (why: string): Partial<TypeCombo> => ({ after29: `TFLite 2.9: ${why}` });
const NEW_OP = 'TFLite 2.9 has no such builtin (builtin code out of range)';

/** Every op of BuiltinOpResolver, in register.cc's order. */
export const TFLITE_OPS: readonly TfliteOp[] = [
  // elementwise.cc: IsAbsSupportedType float32/int8/int16/int32; int16 quantized needs zero points 0, plain int16 takes the non-quantized path.
  B('ABS', [1, 5], 'elementwise.cc @0211eb0', [
    ...same(1, ['float32', 'int8']),
    c(['int16'], ['int16'], { condition: 'quantized: zero points 0 (or no quantization: plain int16 abs)' }),
    c(['int32'], ['int32'], A29('Type INT32 is unsupported by op Abs')),
  ]),
  // activations.cc HardSwishEval: float32, uint8, int8.
  B('HARD_SWISH', [1, 1], 'activations.cc @e1a7295', same(1, ['float32', 'uint8', 'int8'])),
  // activations.cc ReluEval: float32, uint8, int8, int16 (ReluPrepare: int16 zero points 0).
  B('RELU', [1, 3], 'activations.cc @e1a7295', same(1, ['float32', 'uint8', 'int8', 'int16'], int16zp0)),
  // activations.cc Relu1Eval: float32, uint8, int8.
  B('RELU_N1_TO_1', [1, 1], 'activations.cc @e1a7295', same(1, ['float32', 'uint8', 'int8'])),
  // activations.cc Relu0to1Eval: float32, uint8, int8.
  B('RELU_0_TO_1', [1, 1], 'activations.cc @e1a7295', same(1, ['float32', 'uint8', 'int8']), { after29: NEW_OP }),
  // activations.cc Relu6Eval: float32, uint8, int8, int16.
  B('RELU6', [1, 3], 'activations.cc @e1a7295', same(1, ['float32', 'uint8', 'int8', 'int16'], int16zp0)),
  // activations.cc TanhPrepare/TanhEval: float32, uint8, int8, int16 (int16: zero points 0, output scale 2^-15).
  B('TANH', [1, 3], 'activations.cc @e1a7295', [
    ...same(1, ['float32', 'uint8', 'int8']),
    c(['int16'], ['int16'], { condition: 'zero points 0, output scale 1/32768' }),
  ]),
  // activations.cc SigmoidPrepare: uint8/int8 output scale 1/256 (zero point 0 / -128); int16 zero points 0, output scale 1/32768.
  B('LOGISTIC', [1, 3], 'activations.cc @e1a7295', [
    c(['float32'], ['float32']),
    c(['uint8'], ['uint8'], { condition: 'output scale 1/256, zero point 0' }),
    c(['int8'], ['int8'], { condition: 'output scale 1/256, zero point -128' }),
    c(['int16'], ['int16'], { condition: 'zero points 0, output scale 1/32768' }),
  ]),
  // pooling.cc AverageEval/MaxEval: float32, uint8, int8, int16; L2Eval: float32.
  B('AVERAGE_POOL_2D', [1, 3], 'pooling.cc', same(1, ['float32', 'uint8', 'int8', 'int16'])),
  B('MAX_POOL_2D', [1, 3], 'pooling.cc', same(1, ['float32', 'uint8', 'int8', 'int16'])),
  B('L2_POOL_2D', [1, 1], 'pooling.cc', same(1, ['float32'])),
  // conv.cc: the bias is required (has_bias); int8 filters per channel, int4 filters unpacked at prepare; int16 activations × int8
  // filters with an int64 (or int32) bias; hybrid: float32 input × int8/uint8 filter (per-channel int8 as the converter writes it).
  B('CONV_2D', [1, 7], 'conv.cc', [
    c(['float32', 'float32', 'float32'], ['float32']),
    c(['uint8', 'uint8', 'int32'], ['uint8']),
    c(['int8', 'int8', 'int32'], ['int8'], { condition: 'filter zero points 0' }),
    c(['int8', 'int4', 'int32'], ['int8'], { condition: 'filter zero points 0', ...A29('Unsupported data type 17 (int4) in tensor') }),
    c(['int16', 'int8', 'int64'], ['int16'], { condition: 'zero points 0' }),
    c(['int16', 'int8', 'int32'], ['int16'], { condition: 'zero points 0' }),
    c(['float32', 'int8', 'float32'], ['float32'], { hybrid: true }),
    c(['float32', 'uint8', 'float32'], ['float32'], { hybrid: true }),
  ]),
  // depthwise_conv.cc: as CONV_2D, but the bias may be left out (2 inputs), int16 takes only an int64 bias, and hybrid only int8 filters.
  B('DEPTHWISE_CONV_2D', [1, 7], 'depthwise_conv.cc', [
    c(['float32', 'float32', 'float32'], ['float32']),
    c(['float32', 'float32', null], ['float32'], A29('crashes (SIGSEGV) on a depthwise convolution without bias')),
    c(['uint8', 'uint8', 'int32'], ['uint8']),
    c(['int8', 'int8', 'int32'], ['int8'], { condition: 'filter zero points 0' }),
    c(['int8', 'int4', 'int32'], ['int8'], { condition: 'filter zero points 0', ...A29('Unsupported data type 17 (int4) in tensor') }),
    c(['int16', 'int8', 'int64'], ['int16'], { condition: 'zero points 0; the bias must be int64' }),
    c(['float32', 'int8', 'float32'], ['float32'], { hybrid: true }),
  ]),
  // svdf.cc: float32; integer (int8 input, int8 feature weights, int16 time weights and state, int32 bias); hybrid float32 × int8/uint8 weights.
  B('SVDF', [1, 4], 'svdf.cc', [
    c(['float32', 'float32', 'float32', 'float32', 'float32'], ['float32']),
    c(['int8', 'int8', 'int16', 'int32', 'int16'], ['int8'], { condition: 'state and time weights int16, zero points 0' }),
    c(['float32', 'int8', 'int8', 'float32', 'float32'], ['float32'], { hybrid: true }),
    c(['float32', 'uint8', 'uint8', 'float32', 'float32'], ['float32'], { hybrid: true }),
  ]),
  // basic_rnn.cc: float32, or hybrid float32 × int8/uint8 weights (input, weights, recurrent weights, bias, hidden state).
  B('RNN', [1, 3], 'basic_rnn.cc', rnnTypes()),
  // bidirectional_sequence_rnn.cc: forward and backward cells, float32 or hybrid.
  B('BIDIRECTIONAL_SEQUENCE_RNN', [1, 3], 'bidirectional_sequence_rnn.cc', [
    c(['float32', ...rnnSide('float32'), ...rnnSide('float32'), null, null, null], ['float32', 'float32']),
    c(['float32', ...rnnSide('int8'), ...rnnSide('int8'), null, null, null], ['float32', 'float32'], { hybrid: true }),
    c(['float32', ...rnnSide('uint8'), ...rnnSide('uint8'), null, null, null], ['float32', 'float32'], { hybrid: true }),
  ]),
  B('UNIDIRECTIONAL_SEQUENCE_RNN', [1, 3], 'unidirectional_sequence_rnn.cc', rnnTypes()),
  // embedding_lookup.cc: int32 ids; the value's rows copied for any type of a fixed size (and strings) or dequantized (hybrid:
  // int8/uint8/int4 value, float32 output); 2.9 copied only float32/int8/uint8.
  B('EMBEDDING_LOOKUP', [1, 3], 'embedding_lookup.cc', [
    ...each(['float32', 'int8', 'uint8'], (t) => ['int32', t]),
    ...each(
      ['int16', 'int32', 'int64', 'bool', ...WIDE, 'string'],
      (t) => ['int32', t],
      (t) => [t],
      () => A29('Type not currently supported (in Eval)'),
    ),
    c(['int32', 'int8'], ['float32'], { hybrid: true }),
    c(['int32', 'uint8'], ['float32'], { hybrid: true }),
    c(['int32', 'int4'], ['float32'], { hybrid: true, ...A29('Unsupported data type 17 (int4) in tensor') }),
  ]),
  // embedding_lookup_sparse.cc: int32 ids, indices and dense shape, float32 weights and values.
  B('EMBEDDING_LOOKUP_SPARSE', [1, 1], 'embedding_lookup_sparse.cc', [c(['int32', 'int32', 'int32', 'float32', 'float32'], ['float32'])]),
  // fully_connected.cc: float32 (bias optional); uint8 → uint8 or int16; int8; int8 × int4 weights; int16 × int8 weights with
  // int64 or int32 bias; hybrid float32 × int8/uint8/int4 weights.
  B('FULLY_CONNECTED', [1, 10], 'fully_connected.cc', [
    c(['float32', 'float32', 'float32'], ['float32']),
    c(['float32', 'float32', null], ['float32']),
    c(['uint8', 'uint8', 'int32'], ['uint8']),
    c(['uint8', 'uint8', 'int32'], ['int16']),
    c(['int8', 'int8', 'int32'], ['int8'], { condition: 'weight zero points 0' }),
    c(['int8', 'int4', 'int32'], ['int8'], { condition: 'weight zero points 0', ...A29('Unsupported data type 17 (int4) in tensor') }),
    c(['int16', 'int8', 'int64'], ['int16'], { condition: 'zero points 0' }),
    c(['int16', 'int8', 'int32'], ['int16'], { condition: 'zero points 0' }),
    c(['float32', 'int8', 'float32'], ['float32'], { hybrid: true }),
    c(['float32', 'uint8', 'float32'], ['float32'], { hybrid: true }),
    c(['float32', 'int4', 'float32'], ['float32'], { hybrid: true, ...A29('Unsupported data type 17 (int4) in tensor') }),
  ]),
  // lsh_projection.cc: float32 hash seeds; the input's rows are hashed as raw bytes (strings by content), any type; optional float32 weights.
  B('LSH_PROJECTION', [1, 1], 'lsh_projection.cc', [
    ...each(
      ANY,
      (t) => ['float32', t],
      () => ['int32'],
    ),
    c(['float32', 'float32', 'float32'], ['int32']),
  ]),
  // hashtable_lookup.cc: int32 lookup and keys; the value rows copied (strings by content), any type; hits uint8.
  B(
    'HASHTABLE_LOOKUP',
    [1, 1],
    'hashtable_lookup.cc',
    each(
      ANY,
      (t) => ['int32', 'int32', t],
      (t) => [t, 'uint8'],
    ),
  ),
  // activations.cc SoftmaxEval: float32; uint8 → uint8/int16; int8 → int8/int16; int16 → int16 (zero point 0, 1–4 D).
  B('SOFTMAX', [1, 3], 'activations.cc @e1a7295', [
    c(['float32'], ['float32']),
    c(['uint8'], ['uint8'], { condition: 'output scale 1/256, zero point 0' }),
    c(['int8'], ['int8'], { condition: 'output scale 1/256, zero point -128' }),
    c(['uint8'], ['int16']),
    c(['int8'], ['int16']),
    c(['int16'], ['int16'], { condition: 'zero points 0, 1 to 4 dimensions' }),
  ]),
  // concatenation.cc: float32, uint8, int8, int16, int32, int64, bool; later float16, bfloat16, uint32 (its type check lists them).
  B('CONCATENATION', [1, 4], 'concatenation.cc', [
    ...same(2, ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool']),
    ...same(2, ['float16', 'bfloat16', 'uint32'], () => A29('input_type == kTfLiteFloat32 || … was not true')),
  ]),
  // add.cc: float32, int32, int64, uint8, int8, int16 (int16: zero points 0; pot_scale_int16 false takes any scales).
  B(
    'ADD',
    [1, 5],
    'add.cc',
    same(2, ['float32', 'int32', 'int64', 'uint8', 'int8', 'int16'], (t) =>
      t === 'int16' ? { condition: 'zero points 0; power-of-two scales unless pot_scale_int16 is false' } : {},
    ),
  ),
  // space_to_batch_nd.cc / batch_to_space_nd.cc: int32 block shape and paddings/crops; data of any size class since 2.9's float32/uint8/int8/int32/int64.
  B('SPACE_TO_BATCH_ND', [1, 4], 'space_to_batch_nd.cc', s2bTypes()),
  B('BATCH_TO_SPACE_ND', [1, 4], 'batch_to_space_nd.cc', s2bTypes()),
  // mul.cc: float32, int32, int64, uint8, int8, int16 (zero points 0), complex64, uint32.
  B('MUL', [1, 7], 'mul.cc', [
    ...same(2, ['float32', 'int32', 'int64', 'uint8', 'int8']),
    c(['int16', 'int16'], ['int16'], { condition: ZP0 }),
    ...same(2, ['complex64', 'uint32'], () => A29('Mul only supports FLOAT32, INT32 and quantized UINT8, INT8 and INT16')),
  ]),
  // l2norm.cc: float32, uint8, int8 (quantized output scale 1/128, zero point 128 / 0).
  B('L2_NORMALIZATION', [1, 2], 'l2norm.cc', same(1, ['float32', 'uint8', 'int8'])),
  // local_response_norm.cc: float32.
  B('LOCAL_RESPONSE_NORMALIZATION', [1, 1], 'local_response_norm.cc', same(1, ['float32'])),
  // lstm.cc: the full kernel (24 inputs) float32, hybrid float32 × int8/uint8 weights, integer (int8 × int8, int16 cell state,
  // 5 intermediates); the basic kernel (kernel_type BASIC, 5 inputs, uint8 with an int16 cell state).
  B('LSTM', [1, 4], 'lstm.cc', [
    c(lstmCell('float32', 'float32', 'float32'), ['float32']),
    c(lstmCell('float32', 'int8', 'float32'), ['float32'], { hybrid: true }),
    c(lstmCell('float32', 'uint8', 'float32'), ['float32'], { hybrid: true }),
    c(lstmCell('int8', 'int8', 'int32', 'int8', 'int16'), ['int8'], {
      condition: 'integer LSTM: 5 intermediate tensors carry the gate scales',
    }),
    c(['uint8', 'uint8', 'uint8', 'int32', 'int16'], ['uint8', 'int16', 'uint8', 'int16'], {
      condition: 'LSTMOptions.kernel_type BASIC (the 5-input quantized cell)',
    }),
  ]),
  // bidirectional_sequence_lstm.cc: float32, hybrid float32 × int8/uint8 weights.
  B('BIDIRECTIONAL_SEQUENCE_LSTM', [1, 3], 'bidirectional_sequence_lstm.cc', [
    c(bidiLstm('float32'), ['float32', 'float32']),
    c(bidiLstm('int8'), ['float32', 'float32'], { hybrid: true }),
    c(bidiLstm('uint8'), ['float32', 'float32'], { hybrid: true }),
  ]),
  // unidirectional_sequence_lstm.cc: float32, hybrid, integer (int8 × int8, int16 cell).
  B('UNIDIRECTIONAL_SEQUENCE_LSTM', [1, 4], 'unidirectional_sequence_lstm.cc', [
    c(lstmCell('float32', 'float32', 'float32'), ['float32']),
    c(lstmCell('float32', 'int8', 'float32'), ['float32'], { hybrid: true }),
    c(lstmCell('float32', 'uint8', 'float32'), ['float32'], { hybrid: true }),
    c(lstmCell('int8', 'int8', 'int32', 'int8', 'int16'), ['int8'], {
      condition: 'integer LSTM: 5 intermediate tensors carry the gate scales',
    }),
  ]),
  // pad.cc: float32, uint8, int8, int16, int32, int64, bool; int32 or int64 paddings (PADV2: a constant value of the data type).
  B(
    'PAD',
    [1, 4],
    'pad.cc',
    padTypes((t, i) => [t, i]),
  ),
  B(
    'PADV2',
    [1, 4],
    'pad.cc',
    padTypes((t, i) => [t, i, t]),
  ),
  // reshape.cc: copies bytes, any type; the new shape from an int32 (or int64) tensor, or from the options when there is none.
  B('RESHAPE', [1, 1], 'reshape.cc', [
    ...each(ANY, (t) => [t, 'int32']),
    c(['float32', 'int64'], ['float32'], {
      condition: 'only an int32 shape tensor is read; another type falls back to ReshapeOptions.new_shape',
    }),
    c(['float32', null], ['float32']),
  ]),
  // resize_bilinear.cc: float32, uint8, int8, int16 with an int32 size.
  B(
    'RESIZE_BILINEAR',
    [1, 4],
    'resize_bilinear.cc',
    each(['float32', 'uint8', 'int8', 'int16'], (t) => [t, 'int32']),
  ),
  // resize_nearest_neighbor.cc: float32, uint8, int8, int16; later also int32, float16, uint16, uint32, bool.
  B('RESIZE_NEAREST_NEIGHBOR', [1, 4], 'resize_nearest_neighbor.cc', [
    ...each(['float32', 'uint8', 'int8', 'int16'], (t) => [t, 'int32']),
    ...each(
      ['int32', 'float16', 'uint16', 'uint32', 'bool'],
      (t) => [t, 'int32'],
      (t) => [t],
      () => A29('Output type … requires float, uint8, int8 or int16'),
    ),
  ]),
  // skip_gram.cc: a string sentence → string n-grams.
  B('SKIP_GRAM', [1, 1], 'skip_gram.cc', [c(['string'], ['string'])]),
  // space_to_depth.cc / depth_to_space.cc: float32, uint8, int8, int32, int64.
  B('SPACE_TO_DEPTH', [1, 2], 'space_to_depth.cc', same(1, ['float32', 'uint8', 'int8', 'int32', 'int64'])),
  B('DEPTH_TO_SPACE', [1, 2], 'depth_to_space.cc', same(1, ['float32', 'uint8', 'int8', 'int32', 'int64'])),
  // gather.cc: float32, uint8, int8, int16, int32, int64, bool, string (1-D) × int32/int64 positions; later int16 positions, int4 and float16 params.
  B('GATHER', [1, 6], 'gather.cc', [
    ...cross(
      ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool', 'string'],
      I32_64,
      (t, i) => [t, i],
      (t) => [t],
      (t) => (t === 'string' ? { condition: 'string params: 1-D' } : {}),
    ),
    ...each(
      ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool', 'string'],
      (t) => [t, 'int16'],
      (t) => [t],
      () => A29("Positions of type 'INT16' are not supported by gather"),
    ),
    ...each(
      ['int32', 'int64', 'int16'],
      (i) => ['int4', i],
      () => ['int4'],
      () => A29('Unsupported data type 17 (int4) in tensor'),
    ),
    c(['float16', 'int32'], ['float16'], A29("Type 'FLOAT16' is not supported by gather")),
  ]),
  // transpose.cc: float32, uint8, int8, int16, int32, int64, bool with an int32 permutation; later any fixed size.
  B('TRANSPOSE', [1, 6], 'transpose.cc', [
    ...each(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool'], (t) => [t, 'int32']),
    ...each(
      WIDE,
      (t) => [t, 'int32'],
      (t) => [t],
      () => A29('Type … is currently not supported by Transpose'),
    ),
  ]),
  // reduce.cc: MEAN float32, int32, int64, uint8, int8, int16 (int32 axes).
  B(
    'MEAN',
    [1, 3],
    'reduce.cc',
    each(['float32', 'int32', 'int64', 'uint8', 'int8', 'int16'], (t) => [t, 'int32']),
  ),
  // div.cc: float32, int32, uint8; later int8, int16.
  B('DIV', [1, 2], 'div.cc', [
    ...same(2, ['float32', 'int32', 'uint8']),
    ...same(2, ['int8', 'int16'], () => A29('Div only supports FLOAT32, INT32 and quantized UINT8')),
  ]),
  // sub.cc: float32, int32, int64, uint8, int8, int16.
  B(
    'SUB',
    [1, 5],
    'sub.cc',
    same(2, ['float32', 'int32', 'int64', 'uint8', 'int8', 'int16'], (t) =>
      t === 'int16' ? { condition: 'zero points 0; power-of-two scales unless pot_scale_int16 is false' } : {},
    ),
  ),
  // split.cc: int32 axis; float32, uint8, int8, int16, int32; later int64.
  B('SPLIT', [1, 4], 'split.cc', [
    ...each(
      ['float32', 'uint8', 'int8', 'int16', 'int32'],
      (t) => ['int32', t],
      (t) => [t, t],
    ),
    c(['int32', 'int64'], ['int64', 'int64'], A29('input_type == … was not true (no int64)')),
  ]),
  // split_v.cc: float32, uint8, int8, int16, int32, int64; int32 or int64 size_splits; int32 axis.
  B(
    'SPLIT_V',
    [1, 2],
    'split_v.cc',
    cross(
      ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64'],
      I32_64,
      (t, i) => [t, i, 'int32'],
      (t) => [t, t],
    ),
  ),
  // squeeze.cc: copies bytes, any type.
  B('SQUEEZE', [1, 2], 'squeeze.cc', same(1, ANY)),
  // strided_slice.cc: int32 begin/end/strides; float32, uint8, int8, int16, int32, int64, bool, string; later uint32 and the other sizes.
  B('STRIDED_SLICE', [1, 8], 'strided_slice.cc', [
    ...each(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool', 'string'], (t) => [t, 'int32', 'int32', 'int32']),
    ...each(
      ['uint32', 'float16', 'float64', 'uint16', 'uint64', 'complex64'],
      (t) => [t, 'int32', 'int32', 'int32'],
      (t) => [t],
      () => A29('Type … is currently not supported by StridedSlice'),
    ),
  ]),
  // exp.cc: float32; later int8 and int16 (lookup tables).
  B('EXP', [1, 2], 'exp.cc', [
    c(['float32'], ['float32']),
    ...same(1, ['int8', 'int16'], () => A29('Type … is currently not supported by Exp')),
  ]),
  // topk_v2.cc: int32 k (later int16); float32, uint8, int8, int32, int64 (later int16) values; int32 or int16 indices.
  B('TOPK_V2', [1, 3], 'topk_v2.cc', [
    ...cross(
      ['float32', 'uint8', 'int8', 'int32', 'int64'],
      ['int32', 'int16'],
      (t) => [t, 'int32'],
      (t, i) => [t, i],
    ),
    ...each(
      ['int32', 'int16'],
      () => ['int16', 'int32'],
      (i) => ['int16', i],
      () => A29('Type INT16 is currently not supported by TopK'),
    ),
    c(['float32', 'int16'], ['float32', 'int32'], A29('refuses an int16 k')),
  ]),
  // elementwise.cc: LOG float32; later int8, int16 (lookup tables; int16 zero points 0).
  B('LOG', [1, 2], 'elementwise.cc @0211eb0', [
    c(['float32'], ['float32']),
    c(['int8'], ['int8'], A29('Type INT8 is unsupported by op Log')),
    c(['int16'], ['int16'], { condition: 'quantized, zero points 0', ...A29('Type INT16 is unsupported by op Log') }),
  ]),
  // activations.cc LogSoftmaxPrepare: float32; uint8 (output 16/256, zero point 255); int8 (output 16/256, zero point 127).
  B('LOG_SOFTMAX', [1, 2], 'activations.cc @e1a7295', [
    c(['float32'], ['float32']),
    c(['uint8'], ['uint8'], { condition: 'output scale 16/256, zero point 255' }),
    c(['int8'], ['int8'], { condition: 'output scale 16/256, zero point 127' }),
  ]),
  // cast.cc: between float32, int8, uint8, int16, int32, uint32, int64, bool, complex64; later also float64, float16, uint16 and
  // float32 ↔ bfloat16 (uint64 is refused to this day).
  B('CAST', [1, 5], 'cast.cc', castPairs()),
  // dequantize.cc: uint8, int8, int16, float16 → float32; later int4.
  B('DEQUANTIZE', [1, 5], 'dequantize.cc', [
    ...each(
      ['uint8', 'int8', 'int16', 'float16'],
      (t) => [t],
      () => ['float32'],
    ),
    c(['int4'], ['float32'], A29('Unsupported data type 17 (int4) in tensor')),
  ]),
  // activations.cc PreluEval: float32, uint8, int8 (alpha of the input's type); later int16.
  B('PRELU', [1, 1], 'activations.cc @e1a7295', [
    ...same(2, ['float32', 'uint8', 'int8']),
    c(['int16', 'int16'], ['int16'], A29('Only float32 and uint8 and int8 are supported')),
  ]),
  // maximum_minimum.cc: float32, uint8, int8, int16, int32, int64.
  B('MAXIMUM', [1, 4], 'maximum_minimum.cc', same(2, ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64'])),
  B('MINIMUM', [1, 4], 'maximum_minimum.cc', same(2, ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64'])),
  // arg_min_max.cc: float32, uint8, int8, int32, bool input; int32/int64 axis; int32/int64 output (ArgMaxOptions.output_type).
  B('ARG_MAX', [1, 3], 'arg_min_max.cc', argMinMax()),
  B('ARG_MIN', [1, 3], 'arg_min_max.cc', argMinMax()),
  // comparisons.cc: float32, uint8, int8, int32, int64 → bool; later int16 (quantized) and float16.
  B('GREATER', [1, 2], 'comparisons.cc', compare([])),
  B('GREATER_EQUAL', [1, 3], 'comparisons.cc', compare([])),
  B('LESS', [1, 3], 'comparisons.cc', compare([])),
  B('LESS_EQUAL', [1, 2], 'comparisons.cc', compare([])),
  // floor.cc: float32; later float16 (and bfloat16). ceil.cc, round.cc: float32. neg.cc: float32, int32, int64.
  B('FLOOR', [1, 1], 'floor.cc', [
    c(['float32'], ['float32']),
    ...same(1, ['float16', 'bfloat16'], () => A29('input->type != kTfLiteFloat32')),
  ]),
  B('CEIL', [1, 1], 'ceil.cc', same(1, ['float32'])),
  B('ROUND', [1, 1], 'round.cc', same(1, ['float32'])),
  B('NEG', [1, 1], 'neg.cc', same(1, ['float32', 'int32', 'int64'])),
  // select.cc: bool condition; float32, uint8, int8, int16, int32, int64, bool; later uint32 and the other sizes.
  B('SELECT', [1, 4], 'select.cc', selectTypes()),
  B('SELECT_V2', [1, 2], 'select.cc', selectTypes()),
  // slice.cc: int32/int64 begin and size; float32, uint8, int8, int16, int32, int64, bool, string; later any fixed size.
  B('SLICE', [1, 6], 'slice.cc', [
    ...cross(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool', 'string'], I32_64, (t, i) => [t, i, i]),
    ...each(
      WIDE,
      (t) => [t, 'int32', 'int32'],
      (t) => [t],
      () => A29('Type … is currently not supported by Slice'),
    ),
  ]),
  B('SIN', [1, 1], 'elementwise.cc @0211eb0', same(1, ['float32'])),
  B('COS', [1, 1], 'elementwise.cc @0211eb0', same(1, ['float32'])),
  // transpose_conv.cc: int32 output shape; float32 (bias optional); uint8; int8 (int32 bias); int16 × int8 weights (int64 bias).
  B(
    'TRANSPOSE_CONV',
    [1, 4],
    'transpose_conv.cc',
    [
      c(['int32', 'float32', 'float32', null], ['float32']),
      c(['int32', 'float32', 'float32', 'float32'], ['float32']),
      c(['int32', 'uint8', 'uint8', null], ['uint8']),
      c(['int32', 'int8', 'int8', null], ['int8'], { condition: 'weight zero points 0' }),
      c(['int32', 'int8', 'int8', 'int32'], ['int8'], { condition: 'weight zero points 0' }),
      c(['int32', 'int8', 'int16', 'int64'], ['int16'], { condition: 'zero points 0' }),
      c(['int32', 'int8', 'float32', null], ['float32'], { hybrid: true, ...A29('weights->type != input->type') }),
    ],
    { note: 'the hybrid combination is known from LiteRT.js only, where XNNPACK may be what runs it' },
  ),
  // tile.cc: int32/int64 multiples; float32, uint8, int8, int32, int64, bool, string; later int16 and any fixed size.
  B('TILE', [1, 3], 'tile.cc', [
    ...cross(['float32', 'uint8', 'int8', 'int32', 'int64', 'bool', 'string'], I32_64, (t, i) => [t, i]),
    ...each(
      I32_64,
      (i) => ['int16', i],
      () => ['int16'],
      () => A29("Type 'INT16' is not supported by tile"),
    ),
    ...each(
      WIDE,
      (t) => [t, 'int32'],
      (t) => [t],
      () => A29('Type … is not supported by tile'),
    ),
  ]),
  // reduce.cc: SUM float32, int32, int64, uint8, int8, int16 (int16: input and output quantization equal).
  B(
    'SUM',
    [1, 2],
    'reduce.cc',
    each(
      ['float32', 'int32', 'int64', 'uint8', 'int8', 'int16'],
      (t) => [t, 'int32'],
      (t) => [t],
      (t) => (t === 'int16' ? { condition: 'input and output quantization equal' } : {}),
    ),
  ),
  B(
    'REDUCE_PROD',
    [1, 2],
    'reduce.cc',
    each(['float32', 'int32', 'int64', 'int8', 'int16'], (t) => [t, 'int32']),
  ),
  // reduce.cc: REDUCE_MAX/REDUCE_MIN quantized types need the output's quantization equal to the input's.
  B('REDUCE_MAX', [1, 3], 'reduce.cc', reduceMinMax()),
  B('REDUCE_MIN', [1, 3], 'reduce.cc', reduceMinMax()),
  B('REDUCE_ANY', [1, 1], 'reduce.cc', [c(['bool', 'int32'], ['bool'])]),
  B('REDUCE_ALL', [1, 1], 'reduce.cc', [c(['bool', 'int32'], ['bool'])]),
  // expand_dims.cc: copies bytes, any type; int32 or int64 axis.
  B('EXPAND_DIMS', [1, 1], 'expand_dims.cc', [
    ...each(ANY, (t) => [t, 'int32']),
    ...each(['float32', 'int8', 'bool', 'string'], (t) => [t, 'int64']),
  ]),
  // sparse_to_dense.cc: int32/int64 indices and shape; float32, int32, int64, int8, uint8 values.
  B(
    'SPARSE_TO_DENSE',
    [1, 3],
    'sparse_to_dense.cc',
    cross(['float32', 'int32', 'int64', 'int8', 'uint8'], I32_64, (t, i) => [i, i, t, t]),
  ),
  // comparisons.cc: EQUAL/NOT_EQUAL also take bool and string.
  B('EQUAL', [1, 4], 'comparisons.cc', compare(['bool', 'string'])),
  B('NOT_EQUAL', [1, 3], 'comparisons.cc', compare(['bool', 'string'])),
  // elementwise.cc: SQRT float32, later int8/int16; RSQRT float32, int8, later int16 (zero points 0).
  B('SQRT', [1, 1], 'elementwise.cc @0211eb0', [
    c(['float32'], ['float32']),
    ...same(1, ['int8', 'int16'], () => A29('Type … is unsupported by op Sqrt')),
  ]),
  B('RSQRT', [1, 2], 'elementwise.cc @0211eb0', [
    ...same(1, ['float32', 'int8']),
    c(['int16'], ['int16'], { condition: ZP0, ...A29('Type INT16 is unsupported by op Rsqrt') }),
  ]),
  // shape.cc / rank.cc: read the dims of a tensor of any type; SHAPE writes int32 or int64 (ShapeOptions.out_type).
  B('SHAPE', [1, 1], 'shape.cc', [
    ...each(
      ANY,
      (t) => [t],
      () => ['int32'],
    ),
    ...each(
      ['float32', 'int8', 'string'],
      (t) => [t],
      () => ['int64'],
    ),
  ]),
  B(
    'RANK',
    [1, 1],
    'rank.cc',
    each(
      ANY,
      (t) => [t],
      () => ['int32'],
    ),
  ),
  // pow.cc: float32, int32.
  B('POW', [1, 1], 'pow.cc', same(2, ['float32', 'int32'])),
  // fake_quant.cc: float32 (it checks no type; other types would be read as float32).
  B('FAKE_QUANT', [1, 2], 'fake_quant.cc', same(1, ['float32'])),
  // pack.cc: float32, uint8, int8, int16, int32, int64; later uint32.
  B('PACK', [1, 4], 'pack.cc', [
    ...same(2, ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64']),
    c(['uint32', 'uint32'], ['uint32'], A29("Type 'UINT32' is not supported by pack")),
  ]),
  // one_hot.cc: int32/int64 indices, int32 depth; float32, int32, int64, bool, uint8, int8 on/off values.
  B(
    'ONE_HOT',
    [1, 1],
    'one_hot.cc',
    cross(['float32', 'int32', 'int64', 'bool', 'uint8', 'int8'], I32_64, (t, i) => [i, 'int32', t, t]),
  ),
  // logical.cc: bool.
  B('LOGICAL_OR', [1, 1], 'logical.cc', [c(['bool', 'bool'], ['bool'])]),
  B('LOGICAL_AND', [1, 1], 'logical.cc', [c(['bool', 'bool'], ['bool'])]),
  B('LOGICAL_NOT', [1, 1], 'elementwise.cc @0211eb0', [c(['bool'], ['bool'])]),
  // unpack.cc: float32, uint8, int8, int16, int32, bool; later float16.
  B('UNPACK', [1, 4], 'unpack.cc', [
    ...each(
      ['float32', 'uint8', 'int8', 'int16', 'int32', 'bool'],
      (t) => [t],
      (t) => [t, t],
    ),
    c(['float16'], ['float16', 'float16'], A29("Type 'FLOAT16' is not supported by unpack")),
  ]),
  // floor_div.cc: float32, int32; later int16, int8. floor_mod.cc: float32, int32, int64; later int16, int8.
  B('FLOOR_DIV', [1, 3], 'floor_div.cc', [
    ...same(2, ['float32', 'int32']),
    ...same(2, ['int16', 'int8'], () => A29('Type … is not supported by floor_div')),
  ]),
  B('SQUARE', [1, 1], 'elementwise.cc @0211eb0', same(1, ['float32'])),
  // zeros_like.cc: float32, int32, int64.
  B('ZEROS_LIKE', [1, 1], 'zeros_like.cc', same(1, ['float32', 'int32', 'int64'])),
  B('FLOOR_MOD', [1, 2], 'floor_mod.cc', [
    ...same(2, ['float32', 'int32', 'int64']),
    ...same(2, ['int16', 'int8'], () => A29('Type … is not supported by floor_mod')),
  ]),
  // range.cc: int32, float32 scalars; later int64.
  B('RANGE', [1, 2], 'range.cc', [
    ...same(3, ['int32', 'float32']),
    c(['int64', 'int64', 'int64'], ['int64'], A29('Unknown index output data type: INT64')),
  ]),
  // activations.cc LeakyReluEval: float32, uint8, int8, int16 (zero points 0).
  B('LEAKY_RELU', [1, 2], 'activations.cc @e1a7295', same(1, ['float32', 'uint8', 'int8', 'int16'], int16zp0)),
  // squared_difference.cc: float32, int32, int8.
  B('SQUARED_DIFFERENCE', [1, 2], 'squared_difference.cc', same(2, ['float32', 'int32', 'int8'])),
  // fill.cc: int32/int64 dims; float32, int32, int64, bool, string, int8, int16 value; later any fixed size.
  B('FILL', [1, 4], 'fill.cc', [
    ...cross(['float32', 'int32', 'int64', 'bool', 'string', 'int8', 'int16'], I32_64, (t, i) => [i, t]),
    ...each(
      I32_64,
      (i) => [i, 'float16'],
      () => ['float16'],
      () => A29('Fill only currently supports int8, int16, int32, int64, float32, bool, string'),
    ),
    ...each(
      ['float64', 'uint8', 'uint16', 'uint32', 'uint64', 'complex64'],
      (t) => ['int32', t],
      (t) => [t],
      () => A29('Fill only currently supports int8, int16, int32, int64, float32, bool, string'),
    ),
  ]),
  // mirror_pad.cc: int32/int64 paddings; float32, uint8, int8, int32, int64; later int16 and any fixed size.
  B('MIRROR_PAD', [1, 3], 'mirror_pad.cc', [
    ...cross(['float32', 'uint8', 'int8', 'int32', 'int64'], I32_64, (t, i) => [t, i]),
    ...each(
      I32_64,
      (i) => ['int16', i],
      () => ['int16'],
      () => A29('refuses int16 in Eval'),
    ),
    ...each(
      [...WIDE, 'bool'],
      (t) => [t, 'int32'],
      (t) => [t],
      () => A29('refuses the type in Eval'),
    ),
  ]),
  // unique.cc: float32, uint8, int8, int16, int32, int64; int32/int64 index output (UniqueOptions.idx_out_type).
  B(
    'UNIQUE',
    [1, 1],
    'unique.cc',
    cross(
      ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64'],
      I32_64,
      (t) => [t],
      (t, i) => [t, i],
    ),
  ),
  // reverse.cc: int32 axis; float32, uint8, int8, int16, int32, int64, bool; later float16.
  B('REVERSE_V2', [1, 3], 'reverse.cc', [
    ...each(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool'], (t) => [t, 'int32']),
    c(['float16', 'int32'], ['float16'], A29("Type 'FLOAT16' is not supported by reverse")),
  ]),
  // add_n.cc: float32, int32.
  B('ADD_N', [1, 1], 'add_n.cc', same(3, ['float32', 'int32'])),
  // gather_nd.cc: float32, uint8, int8, int16, int32, int64, string params × int32/int64 indices; later int16 indices, bool and float16 params.
  B('GATHER_ND', [1, 4], 'gather_nd.cc', [
    ...cross(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'string'], I32_64, (t, i) => [t, i]),
    ...each(
      ['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'string', 'bool'],
      (t) => [t, 'int16'],
      (t) => [t],
      () => A29("Indices of type 'INT16' are not supported by gather_nd"),
    ),
    ...each(
      I32_64,
      (i) => ['bool', i],
      () => ['bool'],
      () => A29("Params of type 'BOOL' are not supported by gather_nd"),
    ),
    c(['float16', 'int32'], ['float16'], A29("Params of type 'FLOAT16' are not supported by gather_nd")),
  ]),
  // where.cc: a bool, float32, int32, int64, int8, uint8, uint32 condition → int64 coordinates (2.9 also took float16, float64, int16, uint16, uint64, string, complex64; the current kernel refuses them).
  B(
    'WHERE',
    [1, 2],
    'where.cc',
    each(
      ['bool', 'float32', 'int32', 'int64', 'int8', 'uint8', 'uint32'],
      (t) => [t],
      () => ['int64'],
    ),
  ),
  // activations.cc EluEval: float32, int8.
  B('ELU', [1, 1], 'activations.cc @e1a7295', same(1, ['float32', 'int8'])),
  // reverse_sequence.cc: int32/int64 sequence lengths; float32, uint8, int16, int32, int64.
  B(
    'REVERSE_SEQUENCE',
    [1, 1],
    'reverse_sequence.cc',
    cross(['float32', 'uint8', 'int16', 'int32', 'int64'], I32_64, (t, i) => [t, i]),
  ),
  // matrix_diag.cc / matrix_set_diag.cc: copy elements of any fixed size.
  B('MATRIX_DIAG', [1, 1], 'matrix_diag.cc', same(1, FIXED)),
  // quantize.cc: float32 → uint8/int8/int16 (later int4); requantization uint8/int8/int16 → the same or another 8/16-bit type; int16 → int32.
  B('QUANTIZE', [1, 3], 'quantize.cc', [
    ...each(
      ['uint8', 'int8', 'int16'],
      () => ['float32'],
      (t) => [t],
    ),
    ...each(
      ['uint8', 'int8', 'int16'],
      (t) => [t],
      (t) => [t],
    ),
    c(['uint8'], ['int8']),
    c(['int8'], ['uint8']),
    c(['int16'], ['int8']),
    c(['int16'], ['int32']),
    c(['int8'], ['int16'], A29('output->type == kTfLiteUInt8 || output->type == kTfLiteInt8 was not true')),
    c(['float32'], ['int4'], A29('Unsupported data type 17 (int4) in tensor')),
  ]),
  B('MATRIX_SET_DIAG', [1, 1], 'matrix_set_diag.cc', same(2, FIXED)),
  // if.cc / while.cc: copy tensors of any type between subgraphs.
  B(
    'IF',
    [1, 1],
    'if.cc',
    each(ANY, (t) => ['bool', t]),
  ),
  B(
    'WHILE',
    [1, 1],
    'while.cc',
    each(
      ANY,
      (t) => ['int32', t],
      (t) => ['int32', t],
    ),
  ),
  // non_max_suppression.cc: float32 boxes, scores and thresholds, int32 max output size.
  B('NON_MAX_SUPPRESSION_V4', [1, 1], 'non_max_suppression.cc', [
    c(['float32', 'float32', 'int32', 'float32', 'float32'], ['int32', 'int32']),
  ]),
  B('NON_MAX_SUPPRESSION_V5', [1, 1], 'non_max_suppression.cc', [
    c(['float32', 'float32', 'int32', 'float32', 'float32', 'float32'], ['int32', 'float32', 'int32']),
  ]),
  // scatter_nd.cc: int32 indices and shape; float32, uint8, int8, int32, int64 updates; later bool.
  B('SCATTER_ND', [1, 1], 'scatter_nd.cc', [
    ...each(['float32', 'uint8', 'int8', 'int32', 'int64'], (t) => ['int32', t, 'int32']),
    c(['int32', 'bool', 'int32'], ['bool'], A29("Updates of type 'BOOL' are not supported by scatter_nd")),
  ]),
  // densify.cc: a constant sparse float32, int8 or float16 tensor.
  B(
    'DENSIFY',
    [1, 1],
    'densify.cc',
    same(1, ['float32', 'int8', 'float16'], () => ({ condition: 'a constant sparse input' })),
  ),
  // segment_sum.cc: float32, int32 data, int32 segment ids.
  B(
    'SEGMENT_SUM',
    [1, 1],
    'segment_sum.cc',
    each(['float32', 'int32'], (t) => [t, 'int32']),
  ),
  // batch_matmul.cc: float32, int8, int16 (lhs and rhs of one type), hybrid float32 × int8 (constant rhs); later int16 × int8.
  B('BATCH_MATMUL', [1, 4], 'batch_matmul.cc', [
    ...same(2, ['float32', 'int8']),
    c(['int16', 'int16'], ['int16'], { condition: ZP0 }),
    c(['float32', 'int8'], ['float32'], { hybrid: true, condition: 'constant int8 rhs' }),
    c(['int16', 'int8'], ['int16'], { condition: ZP0, ...A29('(lhs float32 && rhs int8) || lhs type == rhs type was not true') }),
  ]),
  // cumsum.cc: float32, int32, int64 with an int32 axis.
  B(
    'CUMSUM',
    [1, 1],
    'cumsum.cc',
    each(['float32', 'int32', 'int64'], (t) => [t, 'int32']),
  ),
  // broadcast_to.cc: copies elements of any fixed size (no string); int32 or int64 shape.
  B('BROADCAST_TO', [2, 3], 'broadcast_to.cc', [
    ...cross(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool'], I32_64, (t, i) => [t, i]),
    ...each(WIDE, (t) => [t, 'int32']),
  ]),
  // call_once.cc: no tensors.
  B('CALL_ONCE', [1, 1], 'call_once.cc', [c([], [])]),
  // rfft2d.cc: float32 input, int32 fft_length → complex64.
  B('RFFT2D', [1, 1], 'rfft2d.cc', [c(['float32', 'int32'], ['complex64'])]),
  // conv3d.cc: float32 input, filter and (optional) bias.
  B('CONV_3D', [1, 1], 'conv3d.cc', [c(['float32', 'float32', 'float32'], ['float32']), c(['float32', 'float32', null], ['float32'])]),
  // complex_support.cc: complex64 → float32, complex128 → float64.
  B('IMAG', [1, 1], 'complex_support.cc', [c(['complex64'], ['float32']), c(['complex128'], ['float64'])]),
  B('REAL', [1, 1], 'complex_support.cc', [c(['complex64'], ['float32']), c(['complex128'], ['float64'])]),
  B('COMPLEX_ABS', [1, 1], 'complex_support.cc', [c(['complex64'], ['float32']), c(['complex128'], ['float64'])]),
  // broadcast_args.cc: int32 or int64 shapes.
  B('BROADCAST_ARGS', [1, 1], 'broadcast_args.cc', same(2, ['int32', 'int64'])),
  // hashtable/*.cc: a resource table of int64 → string or string → int64.
  B('HASHTABLE', [1, 1], 'hashtable/hashtable.cc', [
    c([], ['resource'], { condition: 'key/value types int64 → string or string → int64' }),
  ]),
  B('HASHTABLE_FIND', [1, 1], 'hashtable/hashtable_find.cc', [
    c(['resource', 'int64', 'string'], ['string']),
    c(['resource', 'string', 'int64'], ['int64']),
  ]),
  B('HASHTABLE_IMPORT', [1, 1], 'hashtable/hashtable_import.cc', [
    c(['resource', 'int64', 'string'], []),
    c(['resource', 'string', 'int64'], []),
  ]),
  B('HASHTABLE_SIZE', [1, 1], 'hashtable/hashtable_size.cc', [c(['resource'], ['int64'])]),
  // conv3d_transpose.cc: int32 output shape, float32 filter, input and (optional) bias.
  B('CONV_3D_TRANSPOSE', [1, 1], 'conv3d_transpose.cc', [
    c(['int32', 'float32', 'float32', 'float32'], ['float32']),
    c(['int32', 'float32', 'float32', null], ['float32']),
  ]),
  // var_handle.cc / read_variable.cc / assign_variable.cc: a resource variable holding a tensor of any type.
  B('VAR_HANDLE', [1, 1], 'var_handle.cc', [c([], ['resource'])]),
  B(
    'READ_VARIABLE',
    [1, 1],
    'read_variable.cc',
    each(ANY, () => ['resource']),
  ),
  B(
    'ASSIGN_VARIABLE',
    [1, 1],
    'assign_variable.cc',
    each(
      ANY,
      (t) => ['resource', t],
      () => [],
    ),
  ),
  // multinomial.cc: float32 logits, int32 sample count → int32 or int64.
  B('MULTINOMIAL', [1, 1], 'multinomial.cc', [c(['float32', 'int32'], ['int32']), c(['float32', 'int32'], ['int64'])]),
  // random_ops.cc: an int32 shape → float32.
  B('RANDOM_STANDARD_NORMAL', [1, 1], 'random_ops.cc', [c(['int32'], ['float32'])]),
  // bucketize.cc: float32, float64, int32, int64 → int32.
  B(
    'BUCKETIZE',
    [1, 1],
    'bucketize.cc',
    each(
      ['float32', 'float64', 'int32', 'int64'],
      (t) => [t],
      () => ['int32'],
    ),
  ),
  B('RANDOM_UNIFORM', [1, 1], 'random_ops.cc', [c(['int32'], ['float32'])]),
  // activations.cc GeluEval: float32, uint8, int8.
  B('GELU', [1, 2], 'activations.cc @e1a7295', same(1, ['float32', 'uint8', 'int8'])),
  // dynamic_update_slice.cc: int32 start indices; float32, int8, int32, int64; later int64 indices, bool, int16, float16.
  B('DYNAMIC_UPDATE_SLICE', [1, 1], 'dynamic_update_slice.cc', [
    ...each(['float32', 'int8', 'int32', 'int64'], (t) => [t, t, 'int32']),
    ...each(
      ['float32', 'int8', 'int32', 'int64'],
      (t) => [t, t, 'int64'],
      (t) => [t],
      () => A29('start_indices->type != kTfLiteInt32'),
    ),
    ...cross(
      ['bool', 'int16', 'float16'],
      I32_64,
      (t, i) => [t, t, i],
      (t) => [t],
      () => A29('DynamicUpdateSlice only currently supports 8-bit/32-bit/64-bit integer or float type'),
    ),
  ]),
  // unsorted_segment.cc: float32, int32 data; int32 segment ids and segment count.
  B('UNSORTED_SEGMENT_PROD', [1, 1], 'unsorted_segment.cc', unsortedSegment(), { after29: NEW_OP }),
  B('UNSORTED_SEGMENT_MAX', [1, 1], 'unsorted_segment.cc', unsortedSegment(), { after29: NEW_OP }),
  B('UNSORTED_SEGMENT_MIN', [1, 1], 'unsorted_segment.cc', unsortedSegment(), { after29: NEW_OP }),
  B('UNSORTED_SEGMENT_SUM', [1, 1], 'unsorted_segment.cc', unsortedSegment(), { after29: NEW_OP }),
  // atan2.cc: float32, float64.
  B('ATAN2', [1, 1], 'atan2.cc', same(2, ['float32', 'float64']), { after29: NEW_OP }),
  // sign.cc: float32, float64, int32.
  B('SIGN', [1, 2], 'sign.cc', same(1, ['float32', 'float64', 'int32']), { after29: NEW_OP }),
  // bitcast.cc: reinterprets the bytes; the innermost dimension absorbs the size ratio.
  B(
    'BITCAST',
    [1, 1],
    'bitcast.cc',
    [
      c(['float32'], ['int32']),
      c(['int32'], ['float32']),
      c(['float32'], ['uint8']),
      c(['uint8'], ['float32']),
      c(['int64'], ['int32']),
      c(['int16'], ['uint16']),
    ],
    { after29: NEW_OP },
  ),
  // bitwise_xor.cc / right_shift.cc: 8/16/32-bit signed and unsigned integers.
  B('BITWISE_XOR', [1, 1], 'bitwise_xor.cc', same(2, ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32']), { after29: NEW_OP }),
  B('RIGHT_SHIFT', [1, 1], 'right_shift.cc', same(2, ['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32']), { after29: NEW_OP }),
  // stablehlo_scatter.cc EvalWithIndexType: float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64 data × int32/int64 indices.
  B(
    'STABLEHLO_SCATTER',
    [1, 1],
    'stablehlo_scatter.cc',
    cross(['float16', 'float32', 'float64', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64'], I32_64, (t, i) => [
      t,
      i,
      t,
    ]),
    { after29: NEW_OP },
  ),
  // numeric_verify.cc: a quantized (uint8, int8, int16) or float16 input against a float32 reference; one float32 output
  // (TFLite 2.9 checks NumOutputs == 1; an older revision, @0406598, had none).
  C(
    'NumericVerify',
    'numeric_verify.cc',
    each(
      ['uint8', 'int8', 'int16', 'float16'],
      (t) => [t, 'float32'],
      () => ['float32'],
    ),
  ),
  // mfcc.cc: a float32 spectrogram and an int32 sample rate.
  C('Mfcc', 'mfcc.cc', [c(['float32', 'int32'], ['float32'])]),
  // audio_spectrogram.cc: float32 samples.
  C('AudioSpectrogram', 'audio_spectrogram.cc', [c(['float32'], ['float32'])]),
  // detection_postprocess.cc: float32 or uint8 box encodings, class predictions and anchors → four float32 outputs.
  C('TFLite_Detection_PostProcess', 'detection_postprocess.cc', [
    c(['float32', 'float32', 'float32'], ['float32', 'float32', 'float32', 'float32']),
    c(['uint8', 'uint8', 'uint8'], ['float32', 'float32', 'float32', 'float32']),
  ]),
];

// Input layouts of the multi-input ops.

/** One direction of BIDIRECTIONAL_SEQUENCE_RNN: weights, recurrent weights (type w), bias, hidden state. */
function rnnSide(w: DType): DType[] {
  return [w, w, 'float32', 'float32'];
}

/** The 24 inputs of an LSTM cell: input x, weights w, biases b, output state o, cell state s (optional ones omitted). */
function lstmCell(x: DType, w: DType, b: DType, o: DType = x, s: DType = x): (DType | null)[] {
  return [x, w, w, w, w, w, w, w, w, null, null, null, b, b, b, b, null, null, o, s, null, null, null, null];
}

/** The 48 inputs of BIDIRECTIONAL_SEQUENCE_LSTM (float32 activations, weights w, no aux input). */
function bidiLstm(w: DType): (DType | null)[] {
  const cell: (DType | null)[] = [w, w, w, w, w, w, w, w, null, null, null, 'float32', 'float32', 'float32', 'float32', null, null];
  return ['float32', ...cell, ...cell, 'float32', 'float32', 'float32', 'float32', null, null, null, null, null, null, null, null, null];
}

/** RNN, UNIDIRECTIONAL_SEQUENCE_RNN: float32, or hybrid with int8/uint8 weights. */
function rnnTypes(): TypeCombo[] {
  return [
    c(['float32', 'float32', 'float32', 'float32', 'float32'], ['float32']),
    c(['float32', 'int8', 'int8', 'float32', 'float32'], ['float32'], { hybrid: true }),
    c(['float32', 'uint8', 'uint8', 'float32', 'float32'], ['float32'], { hybrid: true }),
  ];
}

/** SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND: 2.9's types, then int16 and the wide ones with bool. */
function s2bTypes(): TypeCombo[] {
  return [
    ...each(['float32', 'uint8', 'int8', 'int32', 'int64'], (t) => [t, 'int32', 'int32']),
    ...each(
      ['int16', ...WIDE, 'bool'],
      (t) => [t, 'int32', 'int32'],
      (t) => [t],
      () => A29('Type … is currently not supported'),
    ),
  ];
}

/** PAD / PADV2: 2.9's types with int32/int64 paddings, then bool. */
function padTypes(inputs: (t: DType, i: DType) => DType[]): TypeCombo[] {
  return [
    ...cross(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64'], I32_64, inputs),
    ...cross(
      ['bool'],
      I32_64,
      inputs,
      (t) => [t],
      () => A29('Type BOOL is currently not supported by Pad'),
    ),
  ];
}

/** SELECT / SELECT_V2: a bool condition, then two values of one type. */
function selectTypes(): TypeCombo[] {
  return [
    ...each(['float32', 'uint8', 'int8', 'int16', 'int32', 'int64', 'bool'], (t) => ['bool', t, t]),
    ...each(
      ['uint32', 'float16', 'float64', 'uint16', 'uint64', 'complex64'],
      (t) => ['bool', t, t],
      (t) => [t],
      () => A29('Does not support type other than bool|float|int'),
    ),
  ];
}

/** Comparisons: float32, uint8, int8, int32, int64 (+ `more`) → bool; int16 and float16 after 2.9. */
function compare(more: readonly DType[]): TypeCombo[] {
  return [
    ...each(
      ['float32', 'uint8', 'int8', 'int32', 'int64', ...more],
      (t) => [t, t],
      () => ['bool'],
    ),
    ...each(
      ['int16', 'float16'],
      (t) => [t, t],
      () => ['bool'],
      () => A29('Does not support type … requires float|int|uint8'),
    ),
  ];
}

/** REDUCE_MAX / REDUCE_MIN: quantized outputs keep the input's quantization. */
function reduceMinMax(): TypeCombo[] {
  return each(
    ['float32', 'int32', 'int64', 'uint8', 'int8', 'int16'],
    (t) => [t, 'int32'],
    (t) => [t],
    (t) => (t === 'uint8' || t === 'int8' || t === 'int16' ? { condition: 'input and output quantization equal' } : {}),
  );
}

/** UNSORTED_SEGMENT_*: float32/int32 data, int32 ids and count. */
function unsortedSegment(): TypeCombo[] {
  return each(['float32', 'int32'], (t) => [t, 'int32', 'int32']);
}

/** ARG_MAX / ARG_MIN: input types × axis int32/int64 × output int32/int64. */
function argMinMax(): TypeCombo[] {
  const out: TypeCombo[] = [];
  for (const t of ['float32', 'uint8', 'int8', 'int32', 'bool'] as DType[])
    for (const axis of I32_64) for (const o of I32_64) out.push(c([t, axis], [o]));
  return out;
}

/** CAST: between every two types of 2.9's set; float64, float16 and uint16 after 2.9 (uint64 is refused to this day). */
function castPairs(): TypeCombo[] {
  const old: DType[] = ['float32', 'int8', 'uint8', 'int16', 'int32', 'uint32', 'int64', 'bool', 'complex64'];
  const added: DType[] = ['float64', 'float16', 'uint16'];
  const types = [...old, ...added];
  return [
    ...types.flatMap((a) =>
      types
        .filter((b) => b !== a)
        .map((b) => c([a], [b], added.includes(a) || added.includes(b) ? A29('Type … is unsupported by op Cast') : {})),
    ),
    c(['float32'], ['bfloat16'], A29('Type BFLOAT16 is unsupported by op Cast')),
    c(['bfloat16'], ['float32'], A29('Type BFLOAT16 is unsupported by op Cast')),
  ];
}

/** The resolver's key for an op of the set: the builtin name, or `CUSTOM:<name>`. */
export function tfliteResolverKey(op: TfliteOp): string {
  return op.kind === 'builtin' ? op.name : `CUSTOM:${op.name}`;
}
