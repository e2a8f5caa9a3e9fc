/**
 * Coverage you can prove: every op of TFLM's MicroMutableOpResolver (packages/test-support/src/tflm-op-set.ts, the
 * Add… methods at the commit ../shared/conformance-ops was recorded with) is registered by the micrort
 * package that should own it — builtins and TFLM's kernel-directory custom ops by ops-reference, the
 * signal library's ops by ops-signal — and the TFLite-only items real files need (uint8 in the ops
 * TFLite's reference kernels take it in, float16 DEQUANTIZE, DENSIFY, RFFT2D, COMPLEX_ABS) resolve AND
 * prepare in ops-reference. Every failure names the gaps.
 *
 * Builtins have no gap. TFLM's custom ops without a micrort kernel yet are listed in KNOWN_CUSTOM_GAPS
 * (each with why): the custom-op tests fail on any other gap, and on a listed one that got a kernel (so
 * the list stays true); the file prints the list.
 */
import { describe, expect, it } from 'vitest';
import {
  ActivationFunctionType,
  BuiltinOperator,
  ModelBuilder,
  OpResolver,
  Padding,
  TensorType,
  checkModel,
  failureReason,
  loadModel,
  type BuiltinOptionsSpec,
} from '@micrort/core';
import { CORPUS, corpusBytes } from '@micrort/corpus';
import { registerSignalOps } from '@micrort/ops-signal';
import { registerReferenceOps } from '../src/index.js';
import { TFLM_OPS, resolverKey } from '@micrort/test-support/tflm-op-set';

function providersByOp(resolver: OpResolver): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  for (const r of resolver.listRegistrations()) {
    const s = m.get(r.op) ?? new Set<string>();
    s.add(r.provider);
    m.set(r.op, s);
  }
  return m;
}

const reference = providersByOp(registerReferenceOps(new OpResolver()));
const signal = providersByOp(registerSignalOps(new OpResolver()));

/** TFLM ops of a group that the expected package does not register. */
function gaps(ops: typeof TFLM_OPS, registered: Map<string, Set<string>>): string[] {
  return ops
    .filter((o) => !o.notInDefaultBuild && !registered.get(resolverKey(o))?.has(o.home))
    .map((o) => `${resolverKey(o)} (${o.method})`);
}

/**
 * TFLM custom ops micrort has no kernel for yet, and why. Not hidden: printed, and the tests below fail
 * when this list and the registrations disagree either way.
 */
const KNOWN_CUSTOM_GAPS: Record<string, string> = {};

/** The gaps of a group, minus the known ones; and the known ones of the group that are registered now. */
function unexpected(ops: typeof TFLM_OPS, registered: Map<string, Set<string>>): { gaps: string[]; filled: string[] } {
  const all = gaps(ops, registered);
  const known = ops.map(resolverKey).filter((k) => k in KNOWN_CUSTOM_GAPS);
  return {
    gaps: all.filter((g) => !(g.split(' ')[0]! in KNOWN_CUSTOM_GAPS)),
    filled: known.filter((k) => !all.some((g) => g.startsWith(`${k} `))),
  };
}

console.log(
  [
    `TFLM custom ops without a micrort kernel (${Object.keys(KNOWN_CUSTOM_GAPS).length}):`,
    ...Object.entries(KNOWN_CUSTOM_GAPS).map(([op, why]) => `  ${op}: ${why}`),
  ].join('\n'),
);

describe("TFLM's MicroMutableOpResolver op set", () => {
  it('the data: builtin names are schema operators, no duplicates', () => {
    const keys = TFLM_OPS.map(resolverKey);
    expect(new Set(keys).size).toBe(keys.length);
    const unknown = TFLM_OPS.filter((o) => o.kind === 'builtin' && !(o.name in BuiltinOperator)).map((o) => o.name);
    expect(unknown).toEqual([]);
    // 100 builtins + 18 custom ops (one of them, AddEthosU, registers nothing in a reference build)
    expect(TFLM_OPS.filter((o) => o.kind === 'builtin').length).toBe(100);
    expect(TFLM_OPS.filter((o) => o.kind === 'custom').length).toBe(18);
  });

  it('ops-reference registers every TFLM builtin', () => {
    const builtins = TFLM_OPS.filter((o) => o.kind === 'builtin');
    expect(gaps(builtins, reference), 'TFLM builtins ops-reference does not register').toEqual([]);
  });

  it("ops-reference registers TFLM's kernel-directory custom ops (but the known gaps)", () => {
    const custom = TFLM_OPS.filter((o) => o.kind === 'custom' && o.home === '@micrort/ops-reference');
    expect(custom.map(resolverKey)).toContain('CUSTOM:TFLite_Detection_PostProcess');
    expect(
      unexpected(custom, reference),
      'gaps: TFLM custom ops ops-reference does not register; filled: remove them from KNOWN_CUSTOM_GAPS',
    ).toEqual({ gaps: [], filled: [] });
  });

  it("ops-signal registers every op of TFLM's signal library (but the known gaps)", () => {
    const sig = TFLM_OPS.filter((o) => o.home === '@micrort/ops-signal');
    expect(
      unexpected(sig, signal),
      'gaps: signal-library ops ops-signal does not register; filled: remove them from KNOWN_CUSTOM_GAPS',
    ).toEqual({ gaps: [], filled: [] });
  });
});

// ---------------------------------------------------------------------------------------------------
// TFLite-only items: small models built with ModelBuilder, each must resolve and prepare.

const Q = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });
const u8 = (b: ModelBuilder, name: string, shape: number[], q = Q(0.05, 128), data?: Uint8Array) =>
  b.addTensor({ name, type: TensorType.UINT8, shape, quantization: q, ...(data ? { data } : {}) });
const i32 = (b: ModelBuilder, name: string, values: number[], shape = [values.length]) =>
  b.addTensor({ name, type: TensorType.INT32, shape, data: Int32Array.from(values) });
const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + seed * 11) & 0xff);

/** A single-op uint8 model: `make` adds the op's tensors (constants through `konst`); the other inputs are graph inputs. */
function uint8Model(
  op: BuiltinOperator,
  make: (b: ModelBuilder) => { inputs: number[]; outputs: number[]; options?: BuiltinOptionsSpec },
): Uint8Array {
  const b = new ModelBuilder({ description: `uint8 ${BuiltinOperator[op]}` });
  const m = make(b);
  b.addOperator({ op, version: 1, inputs: m.inputs, outputs: m.outputs, ...(m.options ? { options: m.options } : {}) });
  return b
    .setInputs(m.inputs.filter((t) => t >= 0 && !isConst(b, t)))
    .setOutputs(m.outputs)
    .build();
}
const consts = new WeakMap<ModelBuilder, Set<number>>();
function isConst(b: ModelBuilder, t: number): boolean {
  return consts.get(b)?.has(t) ?? false;
}
function konst(b: ModelBuilder, t: number): number {
  const s = consts.get(b) ?? new Set<number>();
  s.add(t);
  consts.set(b, s);
  return t;
}

const unary = (op: BuiltinOperator, outQ = Q(0.05, 128), options?: BuiltinOptionsSpec) =>
  uint8Model(op, (b) => ({
    inputs: [u8(b, 'x', [1, 2, 3, 4])],
    outputs: [u8(b, 'y', [1, 2, 3, 4], outQ)],
    ...(options ? { options } : {}),
  }));
const binary = (op: BuiltinOperator, outQ = Q(0.1, 120)) =>
  uint8Model(op, (b) => ({ inputs: [u8(b, 'a', [1, 2, 3]), u8(b, 'b', [1, 2, 3], Q(0.07, 100))], outputs: [u8(b, 'y', [1, 2, 3], outQ)] }));

/** uint8 in each op whose TFLite reference kernel takes it (the tflite-only branch's list). */
const UINT8_MODELS: Record<string, () => Uint8Array> = {
  CONV_2D: () =>
    uint8Model(BuiltinOperator.CONV_2D, (b) => {
      const w = konst(b, u8(b, 'w', [3, 3, 3, 2], Q(0.02, 120), bytes(54, 1)));
      const bias = konst(
        b,
        b.addTensor({
          name: 'b',
          type: TensorType.INT32,
          shape: [3],
          data: Int32Array.from([10, -20, 30]),
          quantization: Q(0.05 * 0.02, 0),
        }),
      );
      return {
        inputs: [u8(b, 'x', [1, 4, 4, 2]), w, bias],
        outputs: [u8(b, 'y', [1, 4, 4, 3], Q(0.1, 110))],
        options: { padding: Padding.SAME, strideW: 1, strideH: 1, fusedActivationFunction: ActivationFunctionType.RELU6 },
      };
    }),
  DEPTHWISE_CONV_2D: () =>
    uint8Model(BuiltinOperator.DEPTHWISE_CONV_2D, (b) => {
      const w = konst(b, u8(b, 'w', [1, 3, 3, 2], Q(0.02, 130), bytes(18, 2)));
      const bias = konst(
        b,
        b.addTensor({ name: 'b', type: TensorType.INT32, shape: [2], data: Int32Array.from([5, -5]), quantization: Q(0.05 * 0.02, 0) }),
      );
      return {
        inputs: [u8(b, 'x', [1, 4, 4, 2]), w, bias],
        outputs: [u8(b, 'y', [1, 4, 4, 2], Q(0.1, 100))],
        options: { padding: Padding.SAME, strideW: 1, strideH: 1, depthMultiplier: 1 },
      };
    }),
  FULLY_CONNECTED: () =>
    uint8Model(BuiltinOperator.FULLY_CONNECTED, (b) => {
      const w = konst(b, u8(b, 'w', [3, 8], Q(0.02, 127), bytes(24, 3)));
      const bias = konst(
        b,
        b.addTensor({ name: 'b', type: TensorType.INT32, shape: [3], data: Int32Array.from([1, 2, 3]), quantization: Q(0.05 * 0.02, 0) }),
      );
      return { inputs: [u8(b, 'x', [1, 8]), w, bias], outputs: [u8(b, 'y', [1, 3], Q(0.2, 128))] };
    }),
  AVERAGE_POOL_2D: () =>
    uint8Model(BuiltinOperator.AVERAGE_POOL_2D, (b) => ({
      inputs: [u8(b, 'x', [1, 4, 4, 2])],
      outputs: [u8(b, 'y', [1, 2, 2, 2])],
      options: { padding: Padding.VALID, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2 },
    })),
  MAX_POOL_2D: () =>
    uint8Model(BuiltinOperator.MAX_POOL_2D, (b) => ({
      inputs: [u8(b, 'x', [1, 4, 4, 2])],
      outputs: [u8(b, 'y', [1, 2, 2, 2])],
      options: { padding: Padding.VALID, strideW: 2, strideH: 2, filterWidth: 2, filterHeight: 2 },
    })),
  ADD: () => binary(BuiltinOperator.ADD),
  SUB: () => binary(BuiltinOperator.SUB),
  MUL: () => binary(BuiltinOperator.MUL),
  MAXIMUM: () =>
    uint8Model(BuiltinOperator.MAXIMUM, (b) => ({ inputs: [u8(b, 'a', [2, 3]), u8(b, 'b', [2, 3])], outputs: [u8(b, 'y', [2, 3])] })),
  MINIMUM: () =>
    uint8Model(BuiltinOperator.MINIMUM, (b) => ({ inputs: [u8(b, 'a', [2, 3]), u8(b, 'b', [2, 3])], outputs: [u8(b, 'y', [2, 3])] })),
  SOFTMAX: () => unary(BuiltinOperator.SOFTMAX, Q(1 / 256, 0), { beta: 1 }),
  LOGISTIC: () => unary(BuiltinOperator.LOGISTIC, Q(1 / 256, 0)),
  TANH: () => unary(BuiltinOperator.TANH, Q(1 / 128, 128)),
  RELU: () => unary(BuiltinOperator.RELU),
  RELU6: () => unary(BuiltinOperator.RELU6),
  CONCATENATION: () =>
    uint8Model(BuiltinOperator.CONCATENATION, (b) => ({
      inputs: [u8(b, 'a', [1, 2]), u8(b, 'b', [1, 3])],
      outputs: [u8(b, 'y', [1, 5])],
      options: { axis: 1 },
    })),
  RESHAPE: () =>
    uint8Model(BuiltinOperator.RESHAPE, (b) => ({
      inputs: [u8(b, 'x', [1, 6]), konst(b, i32(b, 'shape', [2, 3]))],
      outputs: [u8(b, 'y', [2, 3])],
      options: { newShape: Int32Array.from([2, 3]) },
    })),
  QUANTIZE: () =>
    uint8Model(BuiltinOperator.QUANTIZE, (b) => ({
      inputs: [b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] })],
      outputs: [u8(b, 'y', [4])],
    })),
  DEQUANTIZE: () =>
    uint8Model(BuiltinOperator.DEQUANTIZE, (b) => ({
      inputs: [u8(b, 'x', [4])],
      outputs: [b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] })],
    })),
  PAD: () =>
    uint8Model(BuiltinOperator.PAD, (b) => ({
      inputs: [u8(b, 'x', [2, 2]), konst(b, i32(b, 'pads', [1, 1, 1, 1], [2, 2]))],
      outputs: [u8(b, 'y', [4, 4])],
    })),
  MEAN: () =>
    uint8Model(BuiltinOperator.MEAN, (b) => ({
      inputs: [u8(b, 'x', [1, 2, 2, 3]), konst(b, i32(b, 'axes', [1, 2]))],
      outputs: [u8(b, 'y', [1, 1, 1, 3])],
      options: { keepDims: true },
    })),
  STRIDED_SLICE: () =>
    uint8Model(BuiltinOperator.STRIDED_SLICE, (b) => ({
      inputs: [u8(b, 'x', [4]), konst(b, i32(b, 'begin', [1])), konst(b, i32(b, 'end', [3])), konst(b, i32(b, 'strides', [1]))],
      outputs: [u8(b, 'y', [2])],
    })),
  TRANSPOSE: () =>
    uint8Model(BuiltinOperator.TRANSPOSE, (b) => ({
      inputs: [u8(b, 'x', [2, 3]), konst(b, i32(b, 'perm', [1, 0]))],
      outputs: [u8(b, 'y', [3, 2])],
    })),
  RESIZE_BILINEAR: () =>
    uint8Model(BuiltinOperator.RESIZE_BILINEAR, (b) => ({
      inputs: [u8(b, 'x', [1, 2, 2, 1]), konst(b, i32(b, 'size', [4, 4]))],
      outputs: [u8(b, 'y', [1, 4, 4, 1])],
    })),
  RESIZE_NEAREST_NEIGHBOR: () =>
    uint8Model(BuiltinOperator.RESIZE_NEAREST_NEIGHBOR, (b) => ({
      inputs: [u8(b, 'x', [1, 2, 2, 1]), konst(b, i32(b, 'size', [4, 4]))],
      outputs: [u8(b, 'y', [1, 4, 4, 1])],
    })),
};

/** float16 constant → DEQUANTIZE (version 3, as the converter writes it) → ADD with the input. */
function float16DequantizeModel(): Uint8Array {
  const b = new ModelBuilder({ description: 'float16 DEQUANTIZE' });
  const half = b.addTensor({ name: 'w16', type: TensorType.FLOAT16, shape: [4], data: Uint16Array.from([0x3c00, 0xc000, 0x3800, 0x0001]) });
  const w = b.addTensor({ name: 'w', type: TensorType.FLOAT32, shape: [4] });
  b.addOperator({ op: BuiltinOperator.DEQUANTIZE, version: 3, inputs: [half], outputs: [w] });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
  b.addOperator({ op: BuiltinOperator.ADD, inputs: [x, w], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** float32 [4,8] → RFFT2D (fft_length [4,8]) → complex64 [4,5] → COMPLEX_ABS → float32 [4,5]. */
function rfftModel(): Uint8Array {
  const b = new ModelBuilder({ description: 'RFFT2D + COMPLEX_ABS' });
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4, 8] });
  const len = i32(b, 'fft_length', [4, 8]);
  const c = b.addTensor({ name: 'spectrum', type: TensorType.COMPLEX64, shape: [4, 5] });
  b.addOperator({ op: BuiltinOperator.RFFT2D, inputs: [x, len], outputs: [c] });
  const y = b.addTensor({ name: 'magnitude', type: TensorType.FLOAT32, shape: [4, 5] });
  b.addOperator({ op: BuiltinOperator.COMPLEX_ABS, inputs: [c], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

const referenceOnly = () => registerReferenceOps(new OpResolver());

/** Resolves and prepares every node with ops-reference; the failing nodes' reasons, or [] when it runs. */
function whyNot(bytes: Uint8Array): string[] {
  const report = checkModel(loadModel(bytes), referenceOnly());
  return report.nodes.filter((n) => n.status !== 'ok').map((n) => `${n.op}: ${failureReason(n)}`);
}

describe('TFLite-only items ops-reference must take', () => {
  it('uint8 in every op whose TFLite reference kernel takes uint8 (each resolves and prepares)', () => {
    const failing: string[] = [];
    for (const [op, build] of Object.entries(UINT8_MODELS)) {
      let reasons: string[];
      try {
        reasons = whyNot(build());
      } catch (e) {
        reasons = [`${(e as Error).name}: ${(e as Error).message}`];
      }
      if (reasons.length) failing.push(`uint8 ${op} — ${reasons.join('; ')}`);
    }
    expect(failing, 'uint8 ops ops-reference does not take').toEqual([]);
  });

  it('float16 DEQUANTIZE (a float16 constant, as the converter writes float16 weights)', () => {
    expect(whyNot(float16DequantizeModel())).toEqual([]);
  });

  it('RFFT2D (float32 → complex64) and COMPLEX_ABS (complex64 → float32)', () => {
    expect(whyNot(rfftModel())).toEqual([]);
  });

  it('DENSIFY: the sparse real model face_detection_full_range_sparse loads, and every node resolves and prepares', () => {
    expect(CORPUS.some((m) => m.name === 'face_detection_full_range_sparse')).toBe(true);
    let reasons: string[];
    try {
      const model = loadModel(corpusBytes('face_detection_full_range_sparse'));
      const ops = new Set(model.subgraphs[0]!.operators.map((op) => model.operatorCodes[op.opcodeIndex]!.builtinCode));
      expect(ops.has(BuiltinOperator.DENSIFY)).toBe(true);
      reasons = checkModel(model, referenceOnly())
        .nodes.filter((n) => n.status !== 'ok')
        .map((n) => `${n.op}: ${failureReason(n)}`);
    } catch (e) {
      reasons = [`${(e as Error).name}: ${(e as Error).message}`];
    }
    expect(reasons).toEqual([]);
  });
});
