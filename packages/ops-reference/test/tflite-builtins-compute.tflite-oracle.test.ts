/**
 * The reductions, data-dependent, convolution, random and audio kernels of registrations/tflite-builtins.ts
 * against TFLite 2.9 on writer-made models beyond the op-set recipes: several axes with and without
 * keep_dims (quantized REDUCE_PROD byte for byte), data-dependent outputs (actual dims and values), NMS with ties
 * and soft suppression, 3-D convolutions with strides, dilations, padding and activations, the random
 * ops over several invokes (the generator's state carries over), and the audio front end chained
 * (AudioSpectrogram → Mfcc). Integers byte for byte, floats within 1e-5 + 1e-4·|TFLite|.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator as Op, MicroInterpreter, Padding, loadModel, tensorTypeName } from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { referenceResolver } from '@micrort/test-support/conformance';
import { compareOutput, runMicrort, type OutputDiff } from '@micrort/test-support/output-compare';
import { compareSingleOp, singleOpModel, type SingleOpModel } from '@micrort/test-support/single-op-model';
import { flexMap } from '@micrort/test-support/flexbuffers';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable } from '@micrort/test-support/tflite-oracle';

if (!oracleAvailable) it.skip(`TFLite oracle: ${ORACLE_SKIP_REASON}`, () => {});

const maxDiff = new Map<string, number>();
function expectSame(op: string, diffs: OutputDiff[]): void {
  diffs.forEach((d, j) => {
    maxDiff.set(op, Math.max(maxDiff.get(op) ?? 0, d.maxAbsDiff));
    expect(d.ok, `${op} output ${j}: ${d.detail}`).toBe(true);
  });
}

const reduceShape = (shape: number[], axes: number[], keep: boolean) =>
  shape.flatMap((d, i) => (axes.includes(i) || axes.includes(i - shape.length) ? (keep ? [1] : []) : [d]));

describe.skipIf(!oracleAvailable)('TFLite builtins (reductions, data-dependent, conv3d, random, audio) vs TFLite 2.9', () => {
  it('REDUCE_PROD: axis sets with and without keep_dims; float32, int32, int64; quantized int8/int16 rescaled', () => {
    const shape = [2, 3, 4];
    for (const axes of [[1], [0, 2], [-1], [0, 1, 2], [2, 0]])
      for (const keep of [false, true]) {
        const out = reduceShape(shape, axes, keep);
        const spec = { op: Op.REDUCE_PROD, options: { keepDims: keep } };
        const axis = { type: 'int32' as const, shape: [axes.length], values: axes, constant: true };
        expectSame(
          'REDUCE_PROD',
          compareSingleOp(singleOpModel(spec, [{ type: 'float32', shape, range: [0.6, 1.6] }, axis], [{ type: 'float32', shape: out }])),
        );
        expectSame(
          'REDUCE_PROD',
          compareSingleOp(singleOpModel(spec, [{ type: 'int32', shape, range: [-9, 9] }, axis], [{ type: 'int32', shape: out }])),
        );
        expectSame(
          'REDUCE_PROD',
          compareSingleOp(singleOpModel(spec, [{ type: 'int64', shape, range: [-50, 50] }, axis], [{ type: 'int64', shape: out }])),
        );
        for (const [t, qi, qo] of [
          ['int8', { scale: 0.05, zeroPoint: 3 }, { scale: 0.01, zeroPoint: -7 }],
          ['int8', { scale: 0.1, zeroPoint: -20 }, { scale: 0.5, zeroPoint: 0 }],
          ['int16', { scale: 1 / 4096, zeroPoint: 0 }, { scale: 1 / 1024, zeroPoint: 0 }],
          ['int16', { scale: 1 / 256, zeroPoint: 0 }, { scale: 0.5, zeroPoint: 0 }],
        ] as const)
          expectSame(
            'REDUCE_PROD',
            compareSingleOp(singleOpModel(spec, [{ type: t, shape, q: qi }, axis], [{ type: t, shape: out, q: qo }])),
          );
      }
  });

  it('REDUCE_ANY: axis sets, keep_dims', () => {
    const shape = [3, 2, 4];
    for (const axes of [[0], [1, 2], [-1], [0, 1, 2]])
      for (const keep of [false, true])
        expectSame(
          'REDUCE_ANY',
          compareSingleOp(
            singleOpModel(
              { op: Op.REDUCE_ANY, options: { keepDims: keep } },
              [
                { type: 'bool', shape, values: Array.from({ length: 24 }, (_, i) => (i % 7 === 3 ? 1 : 0)) },
                { type: 'int32', shape: [axes.length], values: axes, constant: true },
              ],
              [{ type: 'bool', shape: reduceShape(shape, axes, keep) }],
            ),
          ),
        );
  });

  it('SEGMENT_SUM: repeated segments, 1-D to 3-D data', () => {
    for (const [shape, ids] of [
      [[5], [0, 0, 1, 2, 2]],
      [
        [6, 3],
        [0, 1, 1, 1, 2, 2],
      ],
      [
        [4, 2, 3],
        [0, 1, 1, 1],
      ],
    ] as const)
      for (const t of ['float32', 'int32'] as const)
        expectSame(
          'SEGMENT_SUM',
          compareSingleOp(
            singleOpModel(
              { op: Op.SEGMENT_SUM },
              [
                { type: t, shape: [...shape] },
                { type: 'int32', shape: [ids.length], values: [...ids], constant: true },
              ],
              [{ type: t, shape: [ids[ids.length - 1]! + 1, ...shape.slice(1)] }],
            ),
          ),
        );
  });

  it('WHERE: float32 with NaN and -0, int8, uint32 and int64 conditions of rank 1 to 4 (runtime: data-dependent, actual dims)', () => {
    for (const shape of [[7], [3, 4], [2, 3, 2], [2, 1, 3, 2]]) {
      const n = shape.reduce((a, b) => a * b, 1);
      const floats = Array.from({ length: n }, (_, i) => [0, -0, Number.NaN, 1.5, 0, -2][i % 6]!);
      const ints = Array.from({ length: n }, (_, i) => (i * 5) % 3);
      for (const [t, values] of [
        ['float32', floats],
        ['int8', ints],
        ['uint32', ints],
        ['int64', ints],
        ['bool', ints.map((v) => (v ? 1 : 0))],
      ] as const)
        expectSame(
          'WHERE',
          compareSingleOp(
            singleOpModel(
              { op: Op.WHERE },
              [{ type: t, shape, values: [...values], ...(t === 'int8' ? { q: { scale: 1, zeroPoint: 0 } } : {}) }],
              [{ type: 'int64', shape: [n, shape.length] }],
            ),
          ),
        );
    }
  });

  it('WHERE on a constant condition: the exact shape in prepare', () => {
    expectSame(
      'WHERE',
      compareSingleOp(
        singleOpModel(
          { op: Op.WHERE },
          [{ type: 'bool', shape: [2, 3], values: [0, 1, 1, 0, 0, 1], constant: true }],
          [{ type: 'int64', shape: [3, 2] }],
        ),
      ),
    );
  });

  it('UNIQUE: repeated values, -0 and 0, int64 and int32 index outputs (runtime: data-dependent, actual dims)', () => {
    for (const [t, values] of [
      ['float32', [1.5, -0, 2, 0, 1.5, 3, 2, -7]],
      ['int8', [4, -3, 4, 4, 0, -3, 9, 1]],
      ['int16', [300, 300, -1, 2, 300, -1, 5, 6]],
      ['int32', [7, 7, 7, 7, 7, 7, 7, 7]],
      ['int64', [1, 2, 3, 4, 5, 6, 7, 8]],
      ['uint8', [0, 255, 0, 255, 1, 2, 1, 0]],
    ] as const)
      for (const idx of ['int32', 'int64'] as const)
        expectSame(
          'UNIQUE',
          compareSingleOp(
            singleOpModel(
              { op: Op.UNIQUE, rawOptions: [{ id: 0, type: 'int8', value: idx === 'int32' ? 2 : 4 }] },
              [{ type: t, shape: [8], values: [...values], ...(t === 'int8' || t === 'uint8' ? { q: { scale: 1, zeroPoint: 0 } } : {}) }],
              [
                { type: t, shape: [8], ...(t === 'int8' || t === 'uint8' ? { q: { scale: 1, zeroPoint: 0 } } : {}) },
                { type: idx, shape: [8] },
              ],
            ),
          ),
        );
  });

  it('TOPK_V2: ties (lower position first), k = 0, 1 and n, 1-D to 3-D, every value type', () => {
    const values = [3, 1, 3, 2, 3, 0, -1, 2, 2, 5, 3, 3];
    for (const [shape, k] of [
      [[12], 5],
      [[3, 4], 0],
      [[3, 4], 1],
      [[3, 4], 4],
      [[2, 2, 3], 2],
    ] as const)
      for (const t of ['float32', 'int32', 'int64', 'uint8', 'int8'] as const) {
        const q = t === 'int8' || t === 'uint8' ? { q: { scale: 1, zeroPoint: 0 } } : {};
        const out = [...shape.slice(0, -1), k];
        expectSame(
          'TOPK_V2',
          compareSingleOp(
            singleOpModel(
              { op: Op.TOPK_V2 },
              [
                { type: t, shape: [...shape], values: values.map((v) => (t === 'uint8' ? v + 1 : v)), ...q },
                { type: 'int32', shape: [], values: [k], constant: true },
              ],
              [
                { type: t, shape: out, ...q },
                { type: 'int32', shape: out },
              ],
            ),
          ),
        );
      }
  });

  it('NON_MAX_SUPPRESSION_V4/V5: many boxes, equal scores, corners in any order, soft suppression', () => {
    const n = 24;
    const boxes: number[] = [];
    for (let i = 0; i < n; i++) {
      const y = (i % 5) * 0.3;
      const x = Math.floor(i / 5) * 0.25;
      const h = 0.5 + (i % 3) * 0.2;
      boxes.push(...(i % 2 ? [y + h, x + 0.6, y, x] : [y, x, y + h, x + 0.6]));
    }
    const scores = Array.from({ length: n }, (_, i) => [0.9, 0.75, 0.9, 0.3, 0.05, 0.6, 0.75, 0.45][i % 8]!);
    for (const [max, iouT, scoreT, sigma] of [
      [10, 0.5, 0.1, 0],
      [24, 0.3, 0, 0],
      [6, 0.7, 0.4, 0],
      [10, 0.5, 0.1, 0.5],
      [24, 0.9, 0.05, 0.2],
    ] as const)
      for (const v5 of [false, true]) {
        if (sigma > 0 && !v5) continue;
        const inputs = [
          { type: 'float32' as const, shape: [n, 4], values: boxes, constant: true },
          { type: 'float32' as const, shape: [n], values: scores },
          { type: 'int32' as const, shape: [], values: [max], constant: true },
          { type: 'float32' as const, shape: [], values: [iouT], constant: true },
          { type: 'float32' as const, shape: [], values: [scoreT], constant: true },
          ...(v5 ? [{ type: 'float32' as const, shape: [], values: [sigma], constant: true }] : []),
        ];
        const outputs = [
          { type: 'int32' as const, shape: [max] },
          ...(v5 ? [{ type: 'float32' as const, shape: [max] }] : []),
          { type: 'int32' as const, shape: [] },
        ];
        expectSame(
          v5 ? 'NON_MAX_SUPPRESSION_V5' : 'NON_MAX_SUPPRESSION_V4',
          compareSingleOp(singleOpModel({ op: v5 ? Op.NON_MAX_SUPPRESSION_V5 : Op.NON_MAX_SUPPRESSION_V4 }, inputs, outputs)),
        );
      }
  });

  it('EMBEDDING_LOOKUP_SPARSE: SUM, MEAN and SQRTN, 2-D and 3-D sparse indices, empty buckets', () => {
    for (const combiner of [0, 1, 2])
      for (const [ids, indices, dense, value] of [
        [
          [1, 3, 0, 2],
          [0, 0, 0, 1, 2, 0, 2, 1],
          [3, 2],
          [4, 3],
        ],
        [
          [0, 2, 2, 1, 3],
          [0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 2],
          [2, 2, 3],
          [4, 2, 2],
        ],
      ] as const) {
        const r = dense.length;
        expectSame(
          'EMBEDDING_LOOKUP_SPARSE',
          compareSingleOp(
            singleOpModel(
              { op: Op.EMBEDDING_LOOKUP_SPARSE, rawOptions: [{ id: 0, type: 'int8', value: combiner }] },
              [
                { type: 'int32', shape: [ids.length], values: [...ids], constant: true },
                { type: 'int32', shape: [ids.length, r], values: [...indices], constant: true },
                { type: 'int32', shape: [r], values: [...dense], constant: true },
                { type: 'float32', shape: [ids.length], range: [0.2, 2] },
                { type: 'float32', shape: [...value] },
              ],
              [{ type: 'float32', shape: [...dense.slice(0, -1), ...value.slice(1)] }],
            ),
          ),
        );
      }
  });

  it('CONV_3D and CONV_3D_TRANSPOSE: strides, dilations, SAME/VALID, activations, no bias', () => {
    for (const [padding, stride, dilation, act, bias] of [
      [Padding.SAME, [1, 1, 1], [1, 1, 1], 0, true],
      [Padding.VALID, [2, 1, 2], [1, 1, 1], 1, true],
      [Padding.SAME, [1, 2, 1], [2, 1, 2], 3, false],
      [Padding.VALID, [1, 1, 1], [1, 2, 1], 2, true],
    ] as const) {
      const raw = [
        { id: 0, type: 'int8' as const, value: padding },
        { id: 1, type: 'int32' as const, value: stride[0] },
        { id: 2, type: 'int32' as const, value: stride[2] },
        { id: 3, type: 'int32' as const, value: stride[1] },
        { id: 4, type: 'int8' as const, value: act },
        { id: 5, type: 'int32' as const, value: dilation[0] },
        { id: 6, type: 'int32' as const, value: dilation[2] },
        { id: 7, type: 'int32' as const, value: dilation[1] },
      ];
      const inSize = [5, 6, 7];
      const k = [2, 3, 2];
      const out = inSize.map((s, i) => {
        const eff = (k[i]! - 1) * dilation[i]! + 1;
        return padding === Padding.SAME ? Math.ceil(s / stride[i]!) : Math.ceil((s - eff + 1) / stride[i]!);
      });
      expectSame(
        'CONV_3D',
        compareSingleOp(
          singleOpModel(
            { op: Op.CONV_3D, rawOptions: raw },
            [
              { type: 'float32', shape: [2, ...inSize, 3] },
              { type: 'float32', shape: [...k, 3, 4], constant: true },
              bias ? { type: 'float32', shape: [4], constant: true } : null,
            ],
            [{ type: 'float32', shape: [2, ...out, 4] }],
          ),
        ),
      );
      // TFLite's default (optimized) CONV_3D_TRANSPOSE leaves out the trailing depth padding (where SAME
      // pads the depth, its last planes lack the last input plane), and with dilations on these
      // multi-channel shapes it returned other numbers or crashed the process. Those cases are checked
      // against the convolution's definition (transposeConv3DDefinition) instead.
      const depthPadded = padding === Padding.SAME && (out[0]! - 1) * stride[0] + (k[0]! - 1) * dilation[0] + 1 > inSize[0]!;
      const dilated = dilation.some((v) => v > 1);
      const model = singleOpModel(
        { op: Op.CONV_3D_TRANSPOSE, rawOptions: raw },
        [
          { type: 'int32', shape: [5], values: [2, ...inSize, 3], constant: true },
          { type: 'float32', shape: [...k, 3, 4], constant: true },
          { type: 'float32', shape: [2, ...out, 4] },
          // TFLite wants as many bias values as the filter's input channels (4), and adds the first 3
          bias ? { type: 'float32', shape: [4], constant: true } : null,
        ],
        [{ type: 'float32', shape: [2, ...inSize, 3] }],
      );
      if (!depthPadded && !dilated) expectSame('CONV_3D_TRANSPOSE', compareSingleOp(model));
      else {
        const got = new Float32Array(runMicrort(model.bytes, model.inputs)[0]!.bytes.slice().buffer);
        const want = transposeConv3DDefinition(model, [2, ...inSize, 3], [...k], [...stride], [...dilation], act);
        expectSame('CONV_3D_TRANSPOSE', [
          compareOutput({ dtype: 'float32', bytes: new Uint8Array(got.buffer) }, { dtype: 'float32', bytes: new Uint8Array(want.buffer) }),
        ]);
      }
    }
  });

  it('RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL, MULTINOMIAL: TFLite numbers over three invokes, odd sizes, 64-bit seeds', () => {
    const seeds = (a: number | bigint, b: number | bigint) => [
      { id: 0, type: 'int64' as const, value: Number(a) },
      { id: 1, type: 'int64' as const, value: Number(b) },
    ];
    const cases = [
      [Op.RANDOM_UNIFORM, [3, 7], seeds(7, 11)],
      [Op.RANDOM_STANDARD_NORMAL, [5, 3], seeds(123456789, 0)],
      [Op.RANDOM_STANDARD_NORMAL, [4, 4], seeds(0, 99)],
      [Op.RANDOM_UNIFORM, [1, 9], seeds(2 ** 40 + 3, 2 ** 33)],
    ] as const;
    for (const [op, shape, raw] of cases) {
      const m = singleOpModel(
        { op, rawOptions: raw },
        [{ type: 'int32', shape: [shape.length], values: [...shape], constant: true }],
        [{ type: 'float32', shape: [...shape] }],
      );
      expectSame(op === Op.RANDOM_UNIFORM ? 'RANDOM_UNIFORM' : 'RANDOM_STANDARD_NORMAL', compareInvokes(m.bytes, 3));
    }
    for (const [t, samples, raw] of [
      ['int64', 5, seeds(7, 11)],
      ['int32', 9, seeds(31, 4)],
    ] as const) {
      const m = singleOpModel(
        { op: Op.MULTINOMIAL, rawOptions: raw },
        [
          { type: 'float32', shape: [3, 6], values: [0, 1, 2, 3, 4, 5, -1, -1, -1, -1, -1, 3, 0.5, -20, 0.1, 9, 0, -3], constant: true },
          { type: 'int32', shape: [], values: [samples], constant: true },
        ],
        [{ type: t, shape: [3, samples] }],
      );
      expectSame('MULTINOMIAL', compareInvokes(m.bytes, 3));
    }
  });

  it('AudioSpectrogram and Mfcc: a 4000-sample signal, both magnitudes; Mfcc with float frequency limits', () => {
    // One channel with overlapping windows; two channels only with stride = window and no samples left
    // over: TFLite's kernel keeps one Spectrogram for all channels, so the samples a channel leaves in its
    // queue start the next channel's first window (TFLite then fails on the frame count, or mixes the
    // channels). micrort computes each channel alone (tflite-builtins-audio.test.ts checks two channels).
    const signal = Array.from({ length: 8000 }, (_, i) => Math.sin(i * 0.031) * 0.6 + Math.sin(i * 0.47) * 0.3 + ((i * 7919) % 97) / 970);
    for (const [n, channels, window, stride] of [
      [4000, 1, 400, 160],
      [4000, 1, 256, 100],
      [3840, 2, 320, 320],
    ] as const)
      for (const squared of [true, false]) {
        const frames = 1 + Math.floor((n - window) / stride);
        let fft = 1;
        while (fft < window) fft *= 2;
        const spec = singleOpModel(
          { op: { custom: 'AudioSpectrogram' }, customOptions: flexMap({ window_size: window, stride, magnitude_squared: squared }) },
          [{ type: 'float32', shape: [n, channels], values: signal.slice(0, n * channels) }],
          [{ type: 'float32', shape: [channels, frames, fft / 2 + 1] }],
        );
        expectSame('CUSTOM:AudioSpectrogram', compareSingleOp(spec));
      }
    const frames = 3;
    const spectrogram = Array.from({ length: 2 * frames * 257 }, (_, i) => Math.abs(Math.sin(i * 0.37)) * (1 + (i % 11)));
    for (const [upper, lower, bands, coefficients, rate] of [
      [4000, 20, 40, 13, 16000],
      [7600.7, 125.9, 26, 26, 16000],
      [3000, 0, 10, 4, 8000],
    ] as const)
      expectSame(
        'CUSTOM:Mfcc',
        compareSingleOp(
          singleOpModel(
            {
              op: { custom: 'Mfcc' },
              customOptions: flexMap({
                upper_frequency_limit: { float: upper },
                lower_frequency_limit: { float: lower },
                filterbank_channel_count: bands,
                dct_coefficient_count: coefficients,
              }),
            },
            [
              { type: 'float32', shape: [2, frames, 257], values: spectrogram },
              { type: 'int32', shape: [], values: [rate] },
            ],
            [{ type: 'float32', shape: [2, frames, coefficients] }],
          ),
        ),
      );
  });

  it('NumericVerify: int8, uint8, int16 inputs within tolerance; the differences as output', () => {
    for (const [t, q, lo, hi] of [
      ['int8', { scale: 0.02, zeroPoint: -4 }, -128, 127],
      ['uint8', { scale: 0.03, zeroPoint: 128 }, 0, 255],
      ['int16', { scale: 1 / 1000, zeroPoint: 0 }, -900, 900],
    ] as const) {
      const values = Array.from({ length: 24 }, (_, i) => lo + ((i * 37) % (hi - lo)));
      // references within a quarter of a step of the dequantized values: inside tolerance 5 · scale
      const reference = values.map((v, i) => q.scale * (v - q.zeroPoint) + (((i % 5) - 2) * q.scale) / 8);
      for (const log of [false, true])
        expectSame(
          'CUSTOM:NumericVerify',
          compareSingleOp(
            singleOpModel(
              { op: { custom: 'NumericVerify' }, customOptions: flexMap({ tolerance: { float: 5 }, log_if_failed: log }) },
              [
                { type: t, shape: [4, 6], q, values },
                { type: 'float32', shape: [4, 6], values: reference },
              ],
              [{ type: 'float32', shape: [4, 6] }],
            ),
          ),
        );
    }
  });

  it('prints the largest float difference per op', () => {
    console.log([...maxDiff].map(([k, v]) => `${k}: max |Δ| ${v.toExponential(2)}`).join('\n'));
  });
});

/** Runs a model without graph inputs `invokes` times in both runtimes (one interpreter each), comparing every invoke's outputs. */
function compareInvokes(model: Uint8Array, invokes: number): OutputDiff[] {
  const oracle = new TfliteOracle(model);
  const interp = new MicroInterpreter(loadModel(model), referenceResolver(), {
    planner: createPlanner('greedy'),
    arena: 'auto',
  }).allocateTensors();
  const diffs: OutputDiff[] = [];
  for (let k = 0; k < invokes; k++) {
    const want = oracle.run([]);
    interp.invoke();
    want.forEach((w, j) =>
      diffs.push(
        compareOutput(
          { dtype: tensorTypeName(interp.output(j).type), bytes: interp.output(j).bytes.slice() },
          { dtype: oracle.outputs[j]!.dtype, bytes: w },
        ),
      ),
    );
  }
  interp.dispose();
  return diffs;
}

/**
 * CONV_3D_TRANSPOSE by its definition, gathered per output element (the kernel scatters per input):
 * out[b, z, y, x, o] = act(bias[o] + Σ in[b, i, j, l, c] · w[fd, fh, fw, o, c]) over the taps with
 * z = i·s − pad + fd·dil (and likewise for y, x), the paddings TFLite computes for SAME.
 */
function transposeConv3DDefinition(
  model: SingleOpModel,
  outShape: number[],
  k: number[],
  stride: number[],
  dilation: number[],
  act: number,
): Float32Array {
  const m = loadModel(model.bytes);
  const tensors = m.subgraphs[0]!.tensors;
  const data = (i: number) => new Float32Array(m.buffers[tensors[i]!.buffer]!.data.slice().buffer);
  const w = data(1);
  const bias = tensors.length > 4 && tensors[3]!.buffer > 0 ? data(3) : null;
  const x = new Float32Array(model.inputs[0]!.slice().buffer);
  const [n, od, oh, ow, co] = outShape as [number, number, number, number, number];
  const inDims = tensors[2]!.shape;
  const [, id, ih, iw, ci] = Array.from(inDims) as [number, number, number, number, number];
  const pads = [od, oh, ow].map((size, a) => {
    const total = ([id, ih, iw][a]! - 1) * stride[a]! + (k[a]! - 1) * dilation[a]! + 1 - size;
    return total > 0 ? Math.floor(total / 2) : 0;
  });
  const out = new Float32Array(n * od * oh * ow * co);
  const [lo, hi] = act === 1 ? [0, Infinity] : act === 2 ? [-1, 1] : act === 3 ? [0, 6] : [-Infinity, Infinity];
  for (let b = 0; b < n; b++)
    for (let z = 0; z < od; z++)
      for (let y = 0; y < oh; y++)
        for (let xx = 0; xx < ow; xx++)
          for (let o = 0; o < co; o++) {
            let sum = 0;
            for (let fd = 0; fd < k[0]!; fd++)
              for (let fh = 0; fh < k[1]!; fh++)
                for (let fw = 0; fw < k[2]!; fw++) {
                  const iz = z + pads[0]! - fd * dilation[0]!;
                  const iy = y + pads[1]! - fh * dilation[1]!;
                  const ix = xx + pads[2]! - fw * dilation[2]!;
                  if (iz % stride[0]! || iy % stride[1]! || ix % stride[2]!) continue;
                  const i = iz / stride[0]!;
                  const j = iy / stride[1]!;
                  const l = ix / stride[2]!;
                  if (i < 0 || i >= id || j < 0 || j >= ih || l < 0 || l >= iw) continue;
                  for (let c = 0; c < ci; c++)
                    sum += x[(((b * id + i) * ih + j) * iw + l) * ci + c]! * w[(((fd * k[1]! + fh) * k[2]! + fw) * co + o) * ci + c]!;
                }
            const v = sum + (bias ? bias[o]! : 0);
            out[(((b * od + z) * oh + y) * ow + xx) * co + o] = Math.min(hi, Math.max(lo, v));
          }
  return out;
}
