// The ABI between the TypeScript side of @micrort/ops-wasm and its AssemblyScript kernels, declared once:
// every parameter block (the words a kernel's prepare writes into the arena and the kernel reads) and
// every packed-data block both sides address. scripts/build-wasm.mjs generates from it
//   src/generated/abi.ts        one enum of word indices per block (`p[W.OutC] = ...`) and its byte size
//   assembly/generated/abi.ts   one byte-offset constant per field (`load<i32>(pp, W_OUT_C)`)
// and test/abi.test.ts fails when either file differs from a fresh generation or when the compiled module
// was built from another ABI (its `abi_hash()` export against ABI_HASH).
//
// A block: { name (the TypeScript enum, also the AssemblyScript prefix), doc, fields }; a field:
// [Name, type, doc, count?] with type 'i32' | 'u32' (an arena offset) | 'f32' | 'i32x4' (four words) and
// count the number of consecutive elements (an array), or 'rest' for a trailing array of any length. A
// field named with `=Other` takes the offset of field Other (another reading of the same words).

/** @typedef {[string, 'i32' | 'u32' | 'f32' | 'i32x4', string, (number | 'rest')?]} Field */
/** @typedef {{ name: string; doc: string; fields: Field[] }} Block */

/** @type {Block[]} */
export const BLOCKS = [
  {
    name: 'W',
    doc: 'The windowed int8 kernels (qs8_conv: CONV_2D, FULLY_CONNECTED as 1x1 windows, the LSTM gates; qs8_dwconv: DEPTHWISE_CONV_2D).',
    fields: [
      ['Total', 'i32', 'output pixels: batches * outH * outW'],
      ['OutHW', 'i32', 'outH * outW'],
      ['OutW', 'i32', 'output width'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['InC', 'i32', 'input depth'],
      ['InImage', 'i32', 'bytes of one input image: inH * inW * inC'],
      ['OutC', 'i32', 'output channels (DEPTHWISE_CONV_2D: channels)'],
      ['KH', 'i32', 'window height'],
      ['KW', 'i32', 'window width'],
      ['StrideH', 'i32', 'stride along the height'],
      ['StrideW', 'i32', 'stride along the width'],
      ['DilH', 'i32', 'dilation along the height'],
      ['DilW', 'i32', 'dilation along the width'],
      ['PadH', 'i32', 'leading padding along the height'],
      ['PadW', 'i32', 'leading padding along the width'],
      [
        'Kb8',
        'i32',
        'qs8_conv: 8-value slices per tap (of the compact row when gathered), or 16-value blocks with DotMode; qs8_dwconv: 8-channel groups',
      ],
      [
        'DotMode',
        'i32',
        'qs8_conv in a relaxed build: 0 the dot_i16x8 tile; 1 the relaxed-dot tile, activations biased to unsigned (usdot engines); 2 the relaxed-dot tile, activations as they are (sdot engines)',
      ],
      ['Packed', 'u32', 'the packed weights: per group of output channels, the folded biases then the int8 weights'],
      ['Mult', 'u32', "TFLM's per-channel output multipliers (int32, one per output channel)"],
      ['Shift', 'u32', "TFLM's per-channel output shifts (int32)"],
      ['ExpandRq', 'i32', '1: the kernel expands Mult and Shift into requantization blocks at the start of the scratch buffer'],
      ['Rq', 'u32', 'the requantization blocks (RQ), one per four output channels; set by the kernel when ExpandRq'],
      ['RqStride', 'i32', 'bytes from one requantization block to the next: RQ_BYTES, or 0 when every channel shares one'],
      ['ZpIn', 'i32', 'input zero point (the zero row holds it)'],
      ['ZeroBytes', 'i32', 'bytes of the zero row'],
      ['Zero', 'u32', 'the zero row: input zero points that taps in the padding read (set by the kernel, in the scratch buffer)'],
      ['ActMin', 'i32', 'lower bound of the fused activation'],
      ['ActMax', 'i32', 'upper bound of the fused activation'],
      ['ZpOut', 'i32', 'output zero point'],
      [
        'Gather',
        'i32',
        'qs8_conv: 1 when the taps are gathered into compact im2col rows first (depth not a multiple of 8); 2: window rows read in place, the last value of each row after the rows (GATHER_ROWS)',
      ],
      ['Direct', 'i32', "1 when pixel q's only tap is input + q * inC (1x1, stride 1, no padding; FULLY_CONNECTED)"],
      [
        'RightOnly',
        'i32',
        '1 when every channel has left shift 0, a right shift of 1 to 19 and a multiplier of at least 2^30 (int8 outputs): requantLanesRight',
      ],
      ['Out16', 'i32', 'one-pixel GEMM (the LSTM gates): int16 outputs clamped to [act_min, act_max]'],
      [
        'U8',
        'i32',
        "1: TFLite's uint8 (asymmetric) layer: activations zero-extended, weights int16 (w - filter zero point), outputs uint8",
      ],
      ['DmTable', 'u32', 'qs8_dwconv with depth multiplier > 1: per group, an i16 swizzle mask and the first input channel (32 bytes)'],
      ['Scratch', 'u32', "the node's scratch buffer (planned memory; set at each invoke), 0 when it has none"],
      ['ScrZero', 'i32', 'offset of the zero row in the scratch buffer (the requantization blocks come first)'],
      ['ScrThread', 'i32', "offset of thread 0's area in the scratch buffer: tap pointers, then gathered rows, then sign-extended rows"],
      ['ScrThreadBytes', 'i32', "bytes of one thread's area"],
      ['ThreadRows', 'i32', "offset of the gathered rows in a thread's area (qs8_conv with Gather)"],
      ['ThreadExt', 'i32', "offset of the sign-extended rows in a thread's area (qs8_conv tile: each slice stored twice)"],
      [
        'Raw',
        'i32',
        '1: hybrid layers (assembly/hybrid/epilogue.ts): the int32 accumulators are stored as they are, four bytes per output, for hybrid_epilogue',
      ],
      [
        'Gemv',
        'i32',
        "qs8_conv: 1 when the weights are in the GEMV layout (weight-pack.ts's packGemv, no channel or depth padding) and every output pixel runs the one-pixel GEMM on its input row (Direct) or gathered compact row (Gather 1), without the tile's sign-extended rows",
      ],
    ],
  },
  {
    name: 'HY',
    doc: 'hybrid_epilogue (hybrid CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, BATCH_MATMUL, SVDF, TRANSPOSE_CONV): int32 accumulators to float32 outputs, in place.',
    fields: [
      ['PerBatch', 'i32', 'output pixels per batch (outH * outW; FULLY_CONNECTED 1)'],
      ['OutC', 'i32', 'output channels'],
      [
        'Mode',
        'i32',
        "0: acc * factor (the weight scale already in the batch's factor); 1: acc * (factor * channel scale); 2: (acc * factor) * channel scale",
      ],
      ['Sums', 'u32', 'per output channel, the sum of its weights (int32): acc - zero point * sum; 0 when the inputs are symmetric'],
      ['Scales', 'u32', 'per output channel, the weight scale (float32), for modes 1 and 2'],
      ['Bias', 'u32', 'per output channel, the float32 bias; 0 without one'],
      ['Factors', 'u32', "per batch, the input's scaling factor (float32; set at each invoke)"],
      ['ZeroPoints', 'u32', "per batch, the input's zero point (int32; set at each invoke)"],
      ['Clamp', 'i32', '1: outputs clamped to [Lo, Hi] (the fused activation of CONV_2D and DEPTHWISE_CONV_2D)'],
      ['Lo', 'f32', 'lower bound of the fused activation'],
      ['Hi', 'f32', 'upper bound of the fused activation'],
      [
        'Fold',
        'f32',
        "the per-tensor weight scale hybrid_quantize folds into each batch's factor (mode 0), read from here: a float32 argument of a WebAssembly export allocates a heap number per call in V8",
      ],
    ],
  },
  {
    name: 'RQ',
    doc: 'One requantization block (assembly/int8/requant.ts): four i32x4 vectors, lane j for output channel 4k + j.',
    fields: [
      ['M', 'i32x4', 'quantized multiplier'],
      ['Left', 'i32x4', '2^left (general path)'],
      ['XHi=Left', 'i32x4', 'requantLanesRight: the largest accumulator to keep (its output is act_max)'],
      ['Right', 'i32x4', '2^(31 - r), 0 when r = 0 (general path)'],
      ['XLo=Right', 'i32x4', 'requantLanesRight: the smallest accumulator to keep (its output is act_min)'],
      ['RZero', 'i32x4', 'all ones where r = 0 (general path)'],
      ['Scale=RZero', 'i32x4', 'requantLanesRight: 2^(21 - r)'],
    ],
  },
  {
    name: 'A',
    doc: 'qs8_add (ADD and SUB, int8 and uint8): TFLM quantized add or subtract, as one verified affine rounding (Kind 0) or step by step (Kind 1).',
    fields: [
      [
        'Kind',
        'i32',
        "bit 0: 0 out = (x1 * C1 + x2 * C2 + K - [.. < T]) >> S, verified at prepare over all 65,536 input pairs, 1 TFLM's three roundings; bit 1: uint8 tensors (values, zero points and bounds taken minus 128); bit 2: SUB (Kind 1 subtracts the second input's rounded part)",
      ],
      ['Count', 'i32', 'output elements'],
      ['Plan', 'u32', 'the broadcast plan (BP), 0 when the inputs and the output are one contiguous run of Count'],
      ['ActMin', 'i32', 'lower bound of the fused activation'],
      ['ActMax', 'i32', 'upper bound of the fused activation'],
      ['C1', 'i32', 'Kind 0: input 1 coefficient'],
      ['C2', 'i32', 'Kind 0: input 2 coefficient'],
      ['K', 'i32', 'Kind 0: constant (zero points, rounding offset, output zero point times 2^S)'],
      ['S', 'i32', 'Kind 0: right shift'],
      ['T', 'i32', 'Kind 0: sums below T round toward zero from below (ties away from zero)'],
      ['Clamp', 'i32', 'Kind 0: 1 when the activation range is narrower than int8'],
      ['Off1=C1', 'i32', 'Kind 1: -zp1'],
      ['Off2=C2', 'i32', 'Kind 1: -zp2'],
      ['Left=K', 'i32', 'Kind 1: left shift (TFLM: 20)'],
      ['M1=S', 'i32', 'Kind 1: input 1 multiplier'],
      ['R1=T', 'i32', 'Kind 1: input 1 right shift (>= 0)'],
      ['M2=Clamp', 'i32', 'Kind 1: input 2 multiplier'],
      ['R2', 'i32', 'Kind 1: input 2 right shift (>= 0)'],
      ['Mo', 'i32', 'Kind 1: output multiplier'],
      ['Ro', 'i32', 'Kind 1: output right shift (>= 0)'],
      ['ZpOut', 'i32', 'Kind 1: output zero point'],
    ],
  },
  {
    name: 'BP',
    doc: 'A broadcast plan of qs8_add: at most three outer loops around one inner run.',
    fields: [
      ['N', 'i32', 'outer loop counts, outermost first', 3],
      ['S1', 'i32', "input 1's byte strides of the outer loops", 3],
      ['S2', 'i32', "input 2's byte strides of the outer loops", 3],
      ['Inner', 'i32', 'elements of the inner run'],
      ['Mode', 'i32', '0 both inputs contiguous along the run, 1 input 1 repeated, 2 input 2 repeated'],
    ],
  },
  {
    name: 'M',
    doc: "qs8_mul (MUL, int8 and TFLite's uint8): TFLM MulElementwise over a broadcast plan.",
    fields: [
      ['Count', 'i32', 'output elements'],
      ['Off1', 'i32', '-zp1'],
      ['Off2', 'i32', '-zp2'],
      ['Mult', 'i32', 'output multiplier'],
      ['Left', 'i32', 'left shift'],
      ['Right', 'i32', 'right shift'],
      ['ZpOut', 'i32', 'output zero point'],
      ['ActMin', 'i32', 'lower bound of the fused activation'],
      ['ActMax', 'i32', 'upper bound of the fused activation'],
      ['N', 'i32', 'outer loop counts, outermost first', 3],
      ['S1', 'i32', "input 1's byte strides of the outer loops", 3],
      ['S2', 'i32', "input 2's byte strides of the outer loops", 3],
      ['Inner', 'i32', 'elements of the inner run'],
      ['Mode', 'i32', '0 both inputs contiguous along the run, 1 input 1 repeated, 2 input 2 repeated'],
      ['U8', 'i32', "1: TFLite's uint8 tensors (values zero-extended, outputs narrowed to uint8)"],
    ],
  },
  {
    name: 'PR',
    doc: "qs8_prelu (PRELU, int8 and TFLite's uint8): TFLM's PreluParams over a broadcast plan of input and alpha.",
    fields: [
      ['Off1', 'i32', '-input zero point'],
      ['Off2', 'i32', '-alpha zero point'],
      ['ZpOut', 'i32', 'output zero point'],
      ['M1', 'i32', 'identity multiplier (input scale / output scale), for x >= input zero point'],
      ['L1', 'i32', 'identity left shift'],
      ['R1', 'i32', 'identity right shift'],
      ['M2', 'i32', 'alpha multiplier (input scale * alpha scale / output scale), for x below the input zero point'],
      ['L2', 'i32', 'alpha left shift'],
      ['R2', 'i32', 'alpha right shift'],
      ['N', 'i32', 'outer loop counts, outermost first', 3],
      ['S1', 'i32', "the input's byte strides of the outer loops", 3],
      ['S2', 'i32', "alpha's byte strides of the outer loops", 3],
      ['Inner', 'i32', 'elements of the inner run'],
      ['Mode', 'i32', '0 input and alpha contiguous along the run, 1 the input repeated, 2 alpha repeated'],
      ['U8', 'i32', "1: TFLite's uint8 tensors (values zero-extended, outputs narrowed to uint8)"],
    ],
  },
  {
    name: 'SD',
    doc: "qs_squared_difference (SQUARED_DIFFERENCE, int8 and int16): TFLM's quantized squared difference over a broadcast plan.",
    fields: [
      ['Off1', 'i32', '-input 1 zero point'],
      ['Off2', 'i32', '-input 2 zero point'],
      ['ZpOut', 'i32', 'output zero point'],
      ['Shift', 'i32', 'left shift of the offset inputs (int8 7, int16 0)'],
      ['M1', 'i32', 'input 1 multiplier'],
      ['R1', 'i32', 'input 1 right shift (>= 0)'],
      ['M2', 'i32', 'input 2 multiplier'],
      ['R2', 'i32', 'input 2 right shift (>= 0)'],
      ['Mo', 'i32', 'output multiplier'],
      ['Lo', 'i32', 'output left shift'],
      ['Ro', 'i32', 'output right shift'],
      ['N', 'i32', 'outer loop counts, outermost first', 3],
      ['S1', 'i32', "input 1's byte strides of the outer loops", 3],
      ['S2', 'i32', "input 2's byte strides of the outer loops", 3],
      ['Inner', 'i32', 'elements of the inner run'],
      ['Mode', 'i32', '0 both inputs contiguous along the run, 1 input 1 repeated, 2 input 2 repeated'],
      ['I16', 'i32', '1: int16 tensors'],
    ],
  },
  {
    name: 'S',
    doc: "qs8_softmax (SOFTMAX, int8 input) and qu8_softmax (TFLite's uint8 input, uint8 or int16 output).",
    fields: [
      ['Outer', 'i32', 'rows'],
      ['Depth', 'i32', 'row length'],
      ['Bits', 'i32', 'output bits: 8 (int8 or uint8) or 16 (int16)'],
      [
        'Table',
        'u32',
        "qs8_softmax: the Q0.31 exponentials of the differences DiffMin..0; qu8_softmax: TFLite's float32 table, entry 255 - v = expf(-scale * beta * v)",
      ],
      ['OutScale', 'f32', 'qu8_softmax: output scale'],
      [
        'DiffMin',
        'i32',
        'qs8_softmax: the smallest row difference with a nonzero exponential (TFLM diff_min, at least -255); Table holds the entries of DiffMin..0',
      ],
      ['OutZp', 'i32', 'qu8_softmax with an int16 output: output zero point'],
    ],
  },
  {
    name: 'Z',
    doc: "quantize_f32_s8, requantize_int, dequantize_s8_f32 (QUANTIZE, DEQUANTIZE; int8, TFLite's uint8, int16 and int32 requantization).",
    fields: [
      ['Count', 'i32', 'elements'],
      ['Scale', 'f32', 'QUANTIZE from float32: output scale; DEQUANTIZE: input scale'],
      ['ZpOut', 'i32', 'QUANTIZE: output zero point; DEQUANTIZE: input zero point'],
      ['Mult', 'i32', 'requantize: multiplier'],
      ['Left', 'i32', 'requantize: left shift'],
      ['Right', 'i32', 'requantize: right shift'],
      ['ZpIn', 'i32', 'requantize: input zero point'],
      ['InU8', 'i32', 'requantize, DEQUANTIZE: 1 when the input is uint8 (zero-extended)'],
      ['OutU8', 'i32', 'QUANTIZE: 1 when the output is uint8 (clamped to [0, 255])'],
      ['InBytes', 'i32', 'requantize: bytes of an input element (1: int8 or uint8, 2: int16, 4: int32)'],
      ['OutBytes', 'i32', 'requantize: bytes of an output element (1: int8 or uint8, 2: int16, 4: int32)'],
    ],
  },
  {
    name: 'Q',
    doc: "qs8_avgpool, qs8_maxpool (AVERAGE_POOL_2D, MAX_POOL_2D, int8 and TFLite's uint8).",
    fields: [
      ['Batches', 'i32', 'batches'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['C', 'i32', 'channels'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['FH', 'i32', 'filter height'],
      ['FW', 'i32', 'filter width'],
      ['SH', 'i32', 'stride along the height'],
      ['SW', 'i32', 'stride along the width'],
      ['PadH', 'i32', 'leading padding along the height'],
      ['PadW', 'i32', 'leading padding along the width'],
      ['ActMin', 'i32', 'lower bound of the fused activation'],
      ['ActMax', 'i32', 'upper bound of the fused activation'],
      ['U8', 'i32', "1: TFLite's uint8 tensors (zero-extended; averages of non-negative sums, (sum + count/2) / count)"],
    ],
  },
  {
    name: 'PD',
    doc: 'pad_bytes (PAD of any fixed-size type, in bytes; the innermost dimension in bytes).',
    fields: [
      ['O', 'i32', 'output dimensions (the last in bytes)', 5],
      ['L', 'i32', 'leading pads (the last in bytes)', 5],
      ['R', 'i32', 'trailing pads (the last in bytes)', 5],
      ['Value', 'i32', 'the fill byte'],
    ],
  },
  {
    name: 'TP',
    doc: 'transpose_bytes (TRANSPOSE of 1-, 2-, 4- or 8-byte elements, up to 6-D).',
    fields: [
      ['D', 'i32', 'output dimensions, outermost first', 6],
      ['S', 'i32', 'input byte strides of the output dimensions', 6],
      ['Es', 'i32', 'element size in bytes'],
    ],
  },
  {
    name: 'CC',
    doc: "concat_bytes (CONCATENATION in bytes; TFLite's uint8 inputs requantized where quantized unlike the output); the input offsets are in a table of their own.",
    fields: [
      ['Outer', 'i32', 'slices before the axis'],
      ['Inputs', 'i32', 'number of inputs'],
      [
        'Rescale',
        'u32',
        "uint8: per input a float32 scale and bias (TFLite's ConcatenationWithScaling), a NaN scale where the input is copied; 0 when every input is copied",
      ],
      ['ZpOut', 'i32', 'uint8 with Rescale: the output zero point'],
      ['Run', 'i32', 'per input, the bytes of its run per slice', 'rest'],
    ],
  },
  {
    name: 'GA',
    doc: 'gather_bytes (GATHER of any fixed-size type: per index one block of params rows copied; the indices read and range-checked at invoke).',
    fields: [
      ['Batches', 'i32', 'product of the batch_dims leading dims'],
      ['Outer', 'i32', 'params rows per batch before the gathered axis'],
      ['AxisSize', 'i32', "params' extent along the gathered axis: indices must lie in [0, AxisSize)"],
      ['Coords', 'i32', 'indices per batch'],
      ['Inner', 'i32', 'bytes of one gathered block (the dims after the axis)'],
      ['IndexBytes', 'i32', 'bytes of one index: 2 (int16), 4 (int32) or 8 (int64)'],
    ],
  },
  {
    name: 'MP',
    doc: 'mirror_pad_bytes (MIRROR_PAD of 1-, 2-, 4- or 8-byte elements as a list of strided box copies, each an MC record).',
    fields: [
      ['Count', 'i32', 'copies, run in order'],
      ['Es', 'i32', 'element size in bytes'],
      ['Copy', 'i32', 'the copies (MC records)', 'rest'],
    ],
  },
  {
    name: 'MC',
    doc: 'One copy of mirror_pad_bytes: a 6-D box of elements read with byte strides S from the input (or the output, already written) and written with byte strides T into the output.',
    fields: [
      ['FromOut', 'i32', '1: read from the output (a border slab mirrored from what is already there), 0: from the input'],
      ['Src', 'i32', 'byte offset of the first element read, from the tensor read'],
      ['Dst', 'i32', "byte offset of the first element written, from the output's start"],
      ['D', 'i32', 'box dimensions, outermost first', 6],
      ['S', 'i32', 'byte strides of the read (negative: walking backwards, 0: repeated)', 6],
      ['T', 'i32', 'byte strides of the write', 6],
    ],
  },
  {
    name: 'B',
    doc: 'f32_binary (ADD, MUL, float32) over a broadcast plan.',
    fields: [
      ['Op', 'i32', '0 ADD, 1 MUL'],
      ['N', 'i32', 'outer loop counts, outermost first', 3],
      ['S1', 'i32', "input 1's byte strides of the outer loops", 3],
      ['S2', 'i32', "input 2's byte strides of the outer loops", 3],
      ['Inner', 'i32', 'elements of the inner run'],
      ['Mode', 'i32', '0 both inputs contiguous along the run, 1 input 1 repeated, 2 input 2 repeated'],
      ['ActMin', 'f32', 'lower bound of the fused activation'],
      ['ActMax', 'f32', 'upper bound of the fused activation'],
    ],
  },
  {
    name: 'U',
    doc: 'f32_clamp, f32_sigmoid, f32_tanh, f32_hardswish (float32 activations), f32_math (ABS, NEG, SQRT, RSQRT, SQUARE, EXP, GELU).',
    fields: [
      ['Count', 'i32', 'elements'],
      ['Min', 'f32', 'f32_clamp: lower bound'],
      ['Max', 'f32', 'f32_clamp: upper bound'],
      ['Op', 'i32', 'f32_math: ABS 0, NEG 1, SQRT 2, RSQRT 3, SQUARE 4, EXP 5, GELU 6, GELU tanh form 7'],
    ],
  },
  {
    name: 'LF',
    doc: 'f32_lstm_step (UNIDIRECTIONAL_SEQUENCE_LSTM, float32): one time step of every batch.',
    fields: [
      ['Batches', 'i32', 'batches'],
      ['Cell', 'i32', 'cell size S'],
      ['Output', 'i32', 'output state size (S without projection)'],
      ['Input', 'i32', 'input size'],
      ['Channels', 'i32', 'gate channels: (3 or 4) * S, gates input (unless CIFG), forget, cell, output'],
      ['Cifg', 'i32', '1: no input gate (input = 1 - forget)'],
      ['Packed', 'u32', 'the gates packed as f32_conv weights [Channels x (Input + Output)], biases folded in'],
      ['Gates', 'u32', 'scratch: one row of Channels floats (rounded up to 8) and 4 of slack'],
      ['XBatchBytes', 'i32', 'bytes between the input rows of consecutive batches'],
      ['OutBatchBytes', 'i32', 'bytes between the output rows of consecutive batches'],
      ['PeepI', 'u32', 'input gate peephole weights (S floats and 4 of slack), 0: none'],
      ['PeepF', 'u32', 'forget gate peephole weights, 0: none'],
      ['PeepO', 'u32', 'output gate peephole weights, 0: none'],
      ['CellClip', 'f32', 'cell clip (0: none)'],
      ['SigFirst', 'u32', 'U block of the sigmoid over the gates before the cell gate: (Channels / S - 2) * S floats'],
      ['OneGate', 'u32', 'U block over one gate: S floats'],
      [
        'Projected',
        'u32',
        'projection input [Batches x S] the gated cell output is written to (0: no projection, the output state and output instead)',
      ],
    ],
  },
  {
    name: 'LH',
    doc: 'hybrid_lstm_step (UNIDIRECTIONAL_SEQUENCE_LSTM, float32 activations x int8 weights): one time step of every batch.',
    fields: [
      [
        'Lf',
        'u32',
        'the LF block of the float cell (Batches, Cell, Output, Input, Channels, Cifg, Gates, XBatchBytes, OutBatchBytes, peepholes, CellClip, SigFirst, OneGate, Projected; not Packed)',
      ],
      [
        'Packed',
        'u32',
        'the gate weights: Channels rounded up to 4 rows of Kx8 + Kh8 int8, the input weights then the recurrent ones (zeros past Input, Output and Channels)',
      ],
      ['Kx8', 'i32', 'Input rounded up to 8'],
      ['Kh8', 'i32', 'Output rounded up to 8'],
      ['Bias', 'u32', 'per gate channel, the float32 bias (Channels rounded up to 4)'],
      ['ScaleX', 'u32', "per gate channel, the scale of its gate's input weights (float32)"],
      ['ScaleH', 'u32', "per gate channel, the scale of its gate's recurrent weights (float32)"],
      ['Asymmetric', 'i32', '1: asymmetric_quantize_inputs (a zero point per row)'],
      ['Quantized', 'u32', 'scratch: one quantized int8 row (the largest of Input, Output, Cell, and 16 of slack)'],
      ['Row', 'u32', 'scratch: the quantized rows widened to int16 less their zero points (Kx8 + Kh8, or Kp8)'],
      ['Factors', 'u32', "scratch: 4 words, a row's scaling factor and zero point, twice"],
      ['ProjPacked', 'u32', 'the projection weights: Output rounded up to 4 rows of Kp8 int8; 0 without projection'],
      ['Kp8', 'i32', 'Cell rounded up to 8'],
      ['ProjBias', 'u32', 'the projection bias (float32, Output rounded up to 4; zeros without one)'],
      ['ProjScale', 'f32', 'the projection weights scale'],
      ['ProjClip', 'f32', 'proj_clip (0: none)'],
    ],
  },
  {
    name: 'LQ',
    doc: 'qs8_lstm (UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations and weights, int16 cell state; TFLM EvalLstm<int8, int8, int16, int32>): every time step of every batch in one call.',
    fields: [
      ['Batches', 'i32', 'batches (one with time-major input)'],
      ['Steps', 'i32', 'time steps'],
      ['TimeMajor', 'i32', '1: input and output rows are [step][batch], 0: [batch][step]'],
      ['Input', 'i32', 'input size (bytes of one input row)'],
      ['State', 'i32', 'state size S (cells, bytes of one hidden-state and output row)'],
      ['Gates', 'i32', 'S rounded up to 8: int16 values of one gate buffer in the scratch buffer'],
      [
        'Fc',
        'u32',
        "the gate FCs (conv.ts's gemvGate, int16 outputs): FC f's packGemv weights (gate g's input FC 2g, recurrent FC 2g + 1; gates forget, input, cell, output)",
        8,
      ],
      [
        'Rq',
        'i32',
        "FC f's quantized multiplier at 2f and its shift (positive: left) at 2f + 1 (per-tensor weights: every unit alike); the kernel writes the FC's requantization block into the scratch buffer before running it",
        16,
      ],
      ['FcMult', 'i32', 'forget gate x cell state: quantized multiplier (TFLM CreateInterGateMulParams)'],
      ['FcShift', 'i32', 'forget gate x cell state: shift (positive: left)'],
      ['IcMult', 'i32', 'input gate x cell gate: quantized multiplier'],
      ['IcShift', 'i32', 'input gate x cell gate: shift'],
      ['HMult', 'i32', 'output gate x tanh(cell): quantized multiplier into the hidden state'],
      ['HShift', 'i32', 'output gate x tanh(cell): shift'],
      ['HZp', 'i32', 'hidden state zero point'],
      ['Clip', 'i32', '1: clip the cell state to [-CellClip, CellClip]'],
      ['CellClip', 'i32', 'cell_clip in the cell state quantization (0..32767)'],
      ['TanhMult', 'i32', "tanh of the cell state: the eval's rescaling multiplier (<= 32767; int16SigmoidEvalRescale)"],
      ['TanhShift', 'i32', "tanh of the cell state: the eval's right shift"],
    ],
  },
  {
    name: 'FS',
    doc: 'f32_softmax (SOFTMAX, float32, over the last axis).',
    fields: [
      ['Outer', 'i32', 'rows'],
      ['Depth', 'i32', 'row length'],
      ['Beta', 'f32', 'beta (>= 0)'],
    ],
  },
  {
    name: 'G',
    doc: 'f32_conv (CONV_2D, FULLY_CONNECTED, float32).',
    fields: [
      ['Total', 'i32', 'rows of the GEMM: batches * outH * outW'],
      ['OutHW', 'i32', 'outH * outW'],
      ['OutW', 'i32', 'output width'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['InC', 'i32', 'input depth'],
      ['InImageBytes', 'i32', 'bytes of one input image'],
      ['OutC', 'i32', 'output channels'],
      ['KH', 'i32', 'window height'],
      ['KW', 'i32', 'window width'],
      ['StrideH', 'i32', 'stride along the height'],
      ['StrideW', 'i32', 'stride along the width'],
      ['DilH', 'i32', 'dilation along the height'],
      ['DilW', 'i32', 'dilation along the width'],
      ['PadH', 'i32', 'leading padding along the height'],
      ['PadW', 'i32', 'leading padding along the width'],
      ['K', 'i32', 'reduction length'],
      ['Packed', 'u32', 'the packed weights'],
      ['Rows', 'u32', "gathered rows (four of RowBytes per thread, thread 0's first: assembly/thread-slot.ts), with Gather"],
      ['ActMin', 'f32', 'lower bound of the fused activation'],
      ['ActMax', 'f32', 'upper bound of the fused activation'],
      ['RowBytes', 'i32', 'bytes from one row of the GEMM to the next'],
      ['Sparse', 'u32', 'direct 1x1 layers with sparse constant weights: the non-zero weights per output channel (sparse-gemm.ts), else 0'],
      [
        'SparseScratch',
        'u32',
        "with Sparse: per thread, a block of 16 pixels transposed (K x 64 bytes; thread 0's first: assembly/thread-slot.ts)",
      ],
      ['Gather', 'i32', '1: the GEMM rows are gathered into Rows (a window wider than one pixel); 0: direct (the input holds them)'],
    ],
  },
  {
    name: 'TC',
    doc: 'f32_tconv (TRANSPOSE_CONV and Convolution2DTransposeBias, float32): a GEMM of input rows into columns, scattered into the output.',
    fields: [
      ['Gemm', 'u32', "f32_conv's parameter block (G) of the GEMM: input pixels [P x inC] by the packed weights, columns [P x KH*KW*OutC]"],
      ['Batches', 'i32', 'batches'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['InRowBytes', 'i32', 'bytes of one input row: inW * inC * 4'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['OutC', 'i32', 'output channels'],
      ['KH', 'i32', 'filter height'],
      ['KW', 'i32', 'filter width'],
      ['StrideH', 'i32', 'stride along the height'],
      ['StrideW', 'i32', 'stride along the width'],
      ['PadH', 'i32', 'output rows before input row 0 (its window starts at -PadH)'],
      ['PadW', 'i32', 'output columns before input column 0'],
      ['ChunkRows', 'i32', 'input rows per GEMM (the columns of ChunkRows * inW pixels fit ColBytes)'],
      ['Col', 'u32', 'the columns: ColBytes per thread'],
      ['ColBytes', 'i32', "bytes of one thread's columns"],
      ['Bias', 'u32', 'the bias (OutC floats), 0 without one'],
      ['Clamp', 'i32', '1: outputs clamped to [ActMin, ActMax] (a fused activation)'],
      ['ActMin', 'f32', 'lower bound of the fused activation'],
      ['ActMax', 'f32', 'upper bound of the fused activation'],
    ],
  },
  {
    name: 'TQ',
    doc: "qs8_tconv_run and qs16_tconv_run (TRANSPOSE_CONV, int8, TFLite's uint8 and 16x8): TFLM's int32 scatter of (input - zp) x filter products into an accumulator buffer, then per-channel requantization; a call covers a band of output rows.",
    fields: [
      ['Batches', 'i32', 'batches'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['InC', 'i32', 'input depth'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['OutC', 'i32', 'output channels'],
      ['KH', 'i32', 'filter height'],
      ['KW', 'i32', 'filter width'],
      ['StrideH', 'i32', 'stride along the height'],
      ['StrideW', 'i32', 'stride along the width'],
      ['PadH', 'i32', 'output rows before input row 0'],
      ['PadW', 'i32', 'output columns before input column 0'],
      ['ZpIn', 'i32', 'input zero point'],
      ['ZpOut', 'i32', 'output zero point'],
      ['ActMin', 'i32', 'lower output bound'],
      ['ActMax', 'i32', 'upper output bound'],
      ['U8', 'i32', "1: TFLite's uint8 (activations zero-extended, outputs uint8)"],
      [
        'Packed',
        'u32',
        'the weights minus the filter zero point as int16: per tap, per block of 8 output channels, per input channel, 8 values',
      ],
      ['Blocks', 'i32', 'blocks of 8 output channels'],
      ['Acc', 'u32', 'the int32 (16x8: int64) accumulators of the whole output, + 64 bytes (the scratch buffer, set at each invoke)'],
      ['Bias', 'u32', 'the bias padded to Blocks * 8 (zeros without one): int32, or int64 for 16x8'],
      ['Rq', 'u32', 'the requantization blocks (RQ), Blocks * 2; 16x8: per channel the reduced multiplier and the total shift (two int32)'],
      ['Tmp', 'u32', '64 bytes per thread for a partial block'],
      [
        'Raw',
        'i32',
        'qs8_tconv_run, hybrid TRANSPOSE_CONV: 1 leaves the int32 accumulators as they are (Acc: the float32 output tensor, for hybrid_epilogue), no requantization',
      ],
    ],
  },
  {
    name: 'D',
    doc: 'f32_dwconv (DEPTHWISE_CONV_2D, float32, depth multiplier 1).',
    fields: [
      ['Batches', 'i32', 'batches'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['C', 'i32', 'channels'],
      ['KH', 'i32', 'window height'],
      ['KW', 'i32', 'window width'],
      ['StrideH', 'i32', 'stride along the height'],
      ['StrideW', 'i32', 'stride along the width'],
      ['DilH', 'i32', 'dilation along the height'],
      ['DilW', 'i32', 'dilation along the width'],
      ['PadH', 'i32', 'leading padding along the height'],
      ['PadW', 'i32', 'leading padding along the width'],
      ['Packed', 'u32', 'the packed weights'],
      ['Zero', 'u32', 'zeros, the depth rounded up to 8'],
      ['Ptrs', 'u32', "room for the taps' pointers of two pixels per thread"],
      ['ActMin', 'f32', 'lower bound of the fused activation'],
      ['ActMax', 'f32', 'upper bound of the fused activation'],
    ],
  },
  {
    name: 'FP',
    doc: 'f32_maxpool, f32_avgpool (MAX_POOL_2D, AVERAGE_POOL_2D, float32).',
    fields: [
      ['Batches', 'i32', 'batches'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['C', 'i32', 'channels'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['FH', 'i32', 'filter height'],
      ['FW', 'i32', 'filter width'],
      ['SH', 'i32', 'stride along the height'],
      ['SW', 'i32', 'stride along the width'],
      ['PadH', 'i32', 'leading padding along the height'],
      ['PadW', 'i32', 'leading padding along the width'],
      ['ActMin', 'f32', 'lower bound of the fused activation'],
      ['ActMax', 'f32', 'upper bound of the fused activation'],
    ],
  },
  {
    name: 'RD',
    doc: "The reductions (MEAN, SUM, REDUCE_MAX, REDUCE_MIN): f32_reduce (float32) and qs8_reduce (int8, uint8) over the loops of kernel-support's reduceLoops.",
    fields: [
      ['Kind', 'i32', 'MEAN 0, SUM 1, REDUCE_MAX 2, REDUCE_MIN 3'],
      ['Inner', 'i32', 'kept values after the last reduced axis (contiguous; 1 when the last axis is reduced)'],
      ['KA', 'i32', 'values of the outer kept group (1 when absent)'],
      ['KB', 'i32', 'values of the second kept group (1 when absent)'],
      ['SKA', 'i32', 'input stride of KA, elements'],
      ['SKB', 'i32', 'input stride of KB, elements'],
      ['RA', 'i32', 'values of the outer reduced group (1 when absent)'],
      ['RB', 'i32', 'values of the second reduced group (1 when absent)'],
      ['RC', 'i32', 'values of the innermost reduced group'],
      ['SRA', 'i32', 'input stride of RA, elements'],
      ['SRB', 'i32', 'input stride of RB, elements'],
      ['SRC', 'i32', 'input stride of RC, elements (1 when Inner is 1)'],
      ['Count', 'i32', 'values folded into each output: RA * RB * RC'],
      ['ZpCount', 'i32', 'qs8_reduce MEAN, SUM: zp_in * Count (int32, wrapping)'],
      ['Mult', 'i32', 'qs8_reduce MEAN, SUM: multiplier of scale_in / scale_out (MEAN: with 1/Count folded in)'],
      ['Left', 'i32', 'qs8_reduce MEAN, SUM: left shift'],
      ['Right', 'i32', 'qs8_reduce MEAN, SUM: right shift'],
      ['ZpOut', 'i32', 'qs8_reduce MEAN, SUM: output zero point'],
      ['U8', 'i32', "qs8_reduce: 1 for TFLite's uint8 tensors (values zero-extended, compared unsigned, outputs narrowed to uint8)"],
    ],
  },
  {
    name: 'R',
    doc: 'RESIZE_BILINEAR: f32_resize_bilinear (float32), qs8_resize_bilinear (int8), qs16_resize_bilinear (int16), qu8_resize_bilinear (uint8).',
    fields: [
      ['Batches', 'i32', 'batches'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['C', 'i32', 'channels'],
      ['InImage', 'i32', 'bytes of one input image'],
      [
        'Y',
        'u32',
        "per output row (16 bytes): the lower row's byte offset, the upper row's, their weights (f32; qs8: i32 in 10-bit fixed point)",
      ],
      [
        'X',
        'u32',
        "per output column (16 bytes): the left pixel's byte offset, the right pixel's, their weights (f32; qs8: i32 in 10-bit fixed point)",
      ],
    ],
  },
  {
    name: 'RN',
    doc: 'resize_nearest_bytes (RESIZE_NEAREST_NEIGHBOR, any element type: it copies pixels).',
    fields: [
      ['Batches', 'i32', 'batches'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['PixelBytes', 'i32', 'bytes of one pixel: channels * element size'],
      ['InImage', 'i32', 'bytes of one input image'],
      ['Rows', 'u32', "per output row: the source row's byte offset in the image (u32)"],
      ['Cols', 'u32', "per output column: the source pixel's byte offset in the row (u32)"],
    ],
  },
  {
    name: 'BM',
    doc: 'qs8_bmm_run / qs16_bmm_run (BATCH_MATMUL, int8 / int16): output rows [r0, r1) of Calls output matrices stacked (Calls * Rows rows), dot products of zero-point-shifted int16 lanes (int32 sums for int8, int64 for int16), one requantization.',
    fields: [
      ['Rows', 'i32', 'output rows of one matrix (LHS rows A; batches * A when one GEMM covers every batch)'],
      ['Cols', 'i32', 'output columns C'],
      ['Depth', 'i32', 'accumulation depth K'],
      ['Depth8', 'i32', 'K rounded up to 8: int16 values per packed RHS column and per widened LHS row'],
      ['LhsRow', 'i32', 'bytes from one LHS row to the next (K values; 1 with adj_x)'],
      ['LhsStep', 'i32', 'bytes from one LHS value of a row to the next (1 value; A values with adj_x)'],
      ['ZpLhs', 'i32', 'LHS zero point'],
      ['ZpOut', 'i32', 'output zero point'],
      ['ActMin', 'i32', 'lower output bound'],
      ['ActMax', 'i32', 'upper output bound'],
      ['Rq', 'u32', 'the requantization block (RQ, general path; one multiplier and shift in every lane)'],
      [
        'Row',
        'u32',
        'scratch for two widened LHS rows per thread (2 * Depth8 int16 each, 16-byte aligned; thread t at Row + t * 4 * Depth8)',
      ],
      ['Mult16', 'i32', "qs16_bmm_run: TFLite's int16 multiplier reduced to 16 bits"],
      ['Shift16', 'i32', 'qs16_bmm_run: the right shift after it, 15 - shift (>= 1)'],
      ['Calls', 'i32', 'output matrices (Rows rows of Cols values each, one after the other in the output)'],
      [
        'Index',
        'u32',
        'per output matrix two words: the byte offset of its LHS matrix from the LHS argument, the arena offset of its packed RHS matrix',
      ],
    ],
  },
  {
    name: 'SV',
    doc: 'qs8_svdf (SVDF, int8 input and output, int16 or int8 activation state): the state shifted, the feature matmul requantized into its newest column, the time matmul, bias and rank sums requantized into the output; f32_svdf (float32) reads the shape words, HasBias, Feature (float32 rows), Row (Input8 floats) and Acc (float32); hybrid_svdf (hybrid SVDF, after the int8 feature GEMM) the shape words, HasBias and Acc (float32).',
    fields: [
      ['Batches', 'i32', 'batch rows'],
      ['InputSize', 'i32', 'input values per batch row'],
      ['Input8', 'i32', 'InputSize rounded up to 8: bytes per packed feature-weight row, int16 values of the widened input row'],
      ['Filters', 'i32', 'num_filters'],
      ['Memory', 'i32', 'memory_size: state values per filter'],
      ['Units', 'i32', 'num_units = num_filters / rank'],
      ['Rank', 'i32', 'rank'],
      ['HasBias', 'i32', '1: the bias argument is an int32 bias of Units values; 0: no bias'],
      ['State16', 'i32', '1: int16 state and time weights (zero point 0); 0: int8 state and time weights'],
      ['ZpIn', 'i32', 'input zero point'],
      ['ZpState', 'i32', 'activation state zero point'],
      ['ZpOut', 'i32', 'output zero point'],
      ['StateMin', 'i32', "lower bound of the feature activation (the state type's minimum, before its zero point)"],
      ['StateMax', 'i32', "upper bound of the feature activation (the state type's maximum)"],
      ['Mult1', 'i32', 'feature matmul to state: quantized multiplier'],
      ['Left1', 'i32', 'feature matmul to state: left shift'],
      ['Right1', 'i32', 'feature matmul to state: right shift (0-31)'],
      ['Mult2', 'i32', 'time matmul to output: quantized multiplier'],
      ['Left2', 'i32', 'time matmul to output: left shift'],
      ['Right2', 'i32', 'time matmul to output: right shift (0-31)'],
      [
        'Feature',
        'u32',
        'the feature weights packed at prepare: Filters rounded up to 4 rows of Input8 int8 (zeros past InputSize and Filters)',
      ],
      ['Row', 'u32', 'scratch: one input row widened to int16 less ZpIn (Input8 values, zeros past InputSize)'],
      ['Acc', 'u32', 'scratch: the time matmul of every filter of one batch row (Filters rounded up to 4 int32)'],
    ],
  },
  {
    name: 'C16',
    doc: "qs16_conv_run and qs16_dwconv_run (16x8 CONV_2D, FULLY_CONNECTED as 1x1 windows over the batches, DEPTHWISE_CONV_2D: int16 activations with zero point 0, int8 weights): exact int64 sums of int16 x int8 products, then TFLM's int64 (Wide) or int32 requantization; a call covers a range of output pixels.",
    fields: [
      ['Batches', 'i32', 'batches'],
      ['InH', 'i32', 'input height'],
      ['InW', 'i32', 'input width'],
      ['InC', 'i32', 'input depth (qs16_dwconv_run: channels of the input it reads, OutC after the depth-multiplier expansion)'],
      ['OutH', 'i32', 'output height'],
      ['OutW', 'i32', 'output width'],
      ['OutC', 'i32', 'output channels'],
      ['KH', 'i32', 'window height'],
      ['KW', 'i32', 'window width'],
      ['StrideH', 'i32', 'stride along the height'],
      ['StrideW', 'i32', 'stride along the width'],
      ['DilH', 'i32', 'dilation along the height'],
      ['DilW', 'i32', 'dilation along the width'],
      ['PadH', 'i32', 'leading padding along the height'],
      ['PadW', 'i32', 'leading padding along the width'],
      ['K8', 'i32', 'qs16_conv_run: values of one im2col row (KH * KW * InC) rounded up to 8'],
      [
        'Direct',
        'i32',
        "qs16_conv_run: 1 when pixel q's row is the input's int16 values at input + q * InC * 2 (1x1, stride 1, no padding, InC a multiple of 8)",
      ],
      [
        'Packed',
        'u32',
        'the weights as int16: qs16_conv_run per output channel K8 values (zeros past the row, zero channels up to a multiple of 4); qs16_dwconv_run per tap OutC rounded up to 8 values',
      ],
      [
        'Wide',
        'i32',
        "1: TFLM's int64 bias and MultiplyByQuantizedMultiplier (reduced 16-bit multiplier); 0: int32 wrapping sums, int32 bias and the 32-bit one",
      ],
      ['Bias', 'u32', 'the bias padded to a multiple of 8 channels (zeros without one): int64 when Wide, else int32'],
      [
        'Rq',
        'u32',
        'Wide: per channel the reduced multiplier and the total shift (two int32); else the requantization blocks (RQ), one per four channels',
      ],
      ['ActMin', 'i32', 'lower output bound'],
      ['ActMax', 'i32', 'upper output bound'],
      ['Dm', 'i32', 'qs16_dwconv_run: depth multiplier; > 1 reads the input expanded by qs16_dw_expand into Expand'],
      ['SrcC', 'i32', 'qs16_dw_expand: channels of the input tensor'],
      [
        'Scratch',
        'u32',
        "the node's scratch buffer (set at each invoke): qs16_conv_run two im2col rows per thread; qs16_dwconv_run with Dm > 1 the expanded input",
      ],
    ],
  },
];

/**
 * Constants both sides use: [name, value, doc].
 * @type {[string, number, string][]}
 */
export const CONSTANTS = [
  ['GEMM_TILE_PIXELS', 4, 'output pixels of one qs8_conv register tile (rows of its scratch buffers)'],
  ['THREAD_GAP_BYTES', 4096, "bytes free before, between and after the threads' scratch slots (src/kernels/parallel.ts's threadSlots)"],
];

const WORDS = { i32: 1, u32: 1, f32: 1, i32x4: 4 };

/** `OutHW` → `OUT_HW`, `StrideH` → `STRIDE_H`, `YHi` → `Y_HI`, `Kb8` → `KB8`. */
export function snake(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
}

/**
 * The fields of `block` with their word index, in order; `count` is the words of the block (a trailing
 * 'rest' array counts zero).
 */
export function layout(block) {
  const out = [];
  const at = new Map();
  let word = 0;
  for (const [decl, type, doc, count = 1] of block.fields) {
    const [name, alias] = decl.split('=');
    if (alias !== undefined) {
      if (!at.has(alias)) throw new Error(`abi: ${block.name}.${name} aliases unknown field ${alias}`);
      out.push({ name, type, doc, count, word: at.get(alias), alias });
      continue;
    }
    if (at.has(name)) throw new Error(`abi: ${block.name}.${name} declared twice`);
    at.set(name, word);
    out.push({ name, type, doc, count, word });
    word += count === 'rest' ? 0 : WORDS[type] * count;
  }
  return { fields: out, words: word };
}

/** Bytes a block takes in the arena: its words, rounded up to 16 bytes. */
export function blockBytes(block) {
  return (layout(block).words * 4 + 15) & ~15;
}

/** FNV-1a of the ABI's canonical JSON: both generated files carry it, and the module returns it from abi_hash(). */
export function abiHash(blocks = BLOCKS) {
  const text = JSON.stringify(
    blocks.map((b) => ({ name: b.name, fields: layout(b).fields.map((f) => [f.name, f.type, f.count, f.word]) })),
  );
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

const HEADER = (what) => [
  `// Generated by packages/ops-wasm/scripts/build-wasm.mjs from scripts/abi.mjs (${what}): do not edit.`,
  '// Change scripts/abi.mjs and run `pnpm build`; test/abi.test.ts fails when this file is stale.',
];

/** src/generated/abi.ts: one enum of word indices per block, its byte size, and the ABI hash. */
export function generateTs(blocks = BLOCKS) {
  const lines = [...HEADER('the TypeScript side'), ''];
  lines.push('/** Hash of the ABI; the kernels module returns the same from `abi_hash()`. */');
  lines.push(`export const ABI_HASH = ${abiHash(blocks)};`);
  for (const [name, value, doc] of CONSTANTS) lines.push('', `/** ${doc} */`, `export const ${name} = ${value};`);
  for (const b of blocks) {
    const { fields, words } = layout(b);
    lines.push('', `/** ${b.doc} Word indices. */`, `export enum ${b.name} {`);
    for (const f of fields) {
      const kind = f.type === 'i32x4' ? 'i32x4 (four words)' : f.type === 'u32' ? 'u32 arena offset' : f.type;
      const n = f.count === 'rest' ? ', a trailing array' : f.count > 1 ? `, ${f.count} words` : '';
      lines.push(`  /** ${f.doc} (${kind}${n}${f.alias ? `; the words of ${f.alias}` : ''}) */`);
      lines.push(`  ${f.name} = ${f.word},`);
    }
    lines.push(`  /** Words of the block${fields.some((f) => f.count === 'rest') ? ' before the trailing array' : ''}. */`);
    lines.push(`  Words = ${words},`, '}');
    lines.push(`/** Bytes of the ${b.name} block in the arena (its words rounded up to 16 bytes). */`);
    lines.push(`export const ${b.name}_BYTES = ${blockBytes(b)};`);
  }
  lines.push('');
  return lines.join('\n');
}

/** assembly/generated/abi.ts: one byte-offset constant per field (`<BLOCK>_<FIELD>`), the block sizes and the hash. */
export function generateAs(blocks = BLOCKS) {
  const lines = [...HEADER('the AssemblyScript side'), ''];
  lines.push('/** Hash of the ABI (src/generated/abi.ts has the same). */');
  lines.push(`export const ABI_HASH: i32 = ${abiHash(blocks)};`);
  for (const [name, value, doc] of CONSTANTS) lines.push(`export const ${name}: i32 = ${value}; // ${doc}`);
  for (const b of blocks) {
    const { fields } = layout(b);
    lines.push('', `// ${b.doc} Byte offsets:`);
    for (const f of fields) {
      const n = f.count === 'rest' ? ' (trailing array)' : f.count > 1 ? ` (${f.count} words)` : '';
      lines.push(`export const ${b.name}_${snake(f.name)} = ${f.word * 4}; // ${f.type}${n}: ${f.doc}`);
    }
    lines.push(`export const ${b.name}_BYTES = ${blockBytes(b)};`);
  }
  lines.push('');
  return lines.join('\n');
}
