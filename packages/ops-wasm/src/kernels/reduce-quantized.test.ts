import { describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, OpResolver, TensorType, checkModel } from '@micrort/core';
import { asUint8, int, int8s, pick, rng, runBoth, wasm } from '../__tests__/single-op.js';
import { registerReferenceOps } from '@micrort/ops-reference';
import { reduceLoops, resolveReduceAxes } from '@micrort/kernel-support';
import { PROVIDER } from '../provider.js';

const OPS = [BuiltinOperator.MEAN, BuiltinOperator.SUM, BuiltinOperator.REDUCE_MAX, BuiltinOperator.REDUCE_MIN] as const;

interface Quant {
  scale: number;
  zeroPoint: number;
}

/** A reduction `op` of an int8 (or uint8) tensor of `shape` over the raw `axes`, with the given quantizations and input bytes. */
function buildReduce(
  op: BuiltinOperator,
  uint8: boolean,
  shape: number[],
  axes: number[],
  keepDims: boolean,
  inQ: Quant,
  outQ: Quant,
  input: Int8Array,
) {
  const rank = shape.length;
  const type = uint8 ? TensorType.UINT8 : TensorType.INT8;
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type, shape, quantization: inQ });
  const a = b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [axes.length], data: Int32Array.from(axes) });
  const reduced = new Set(axes.map((v) => (v < 0 ? v + rank : v)));
  const outShape = keepDims ? shape.map((d, i) => (reduced.has(i) ? 1 : d)) : shape.filter((_, i) => !reduced.has(i));
  const y = b.addTensor({ name: 'y', type, shape: outShape, quantization: outQ });
  b.addOperator({ op, inputs: [x, a], outputs: [y], options: { keepDims } });
  b.setInputs([x]).setOutputs([y]);
  return { def: b.buildDef(), inputs: [input], desc: JSON.stringify({ op: BuiltinOperator[op], uint8, shape, axes, keepDims, inQ, outQ }) };
}

/**
 * A random case: rank 1-5 (sizes 1-9, the last up to 37), 1-4 random axes (negative and repeated among
 * them, so kept and reduced axes alternate in many), extreme and random zero points; REDUCE_MAX /
 * REDUCE_MIN share the input's quantization (ops-reference requires it), MEAN and SUM rescale by ratios
 * below and above 1.
 */
function randomCase(seed: number, op: BuiltinOperator, uint8: boolean) {
  const r = rng(seed * 131 + op * 7 + (uint8 ? 1 : 0));
  const rank = int(r, 1, 5);
  const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 ? int(r, 1, 37) : int(r, 1, 9)));
  const axes = Array.from({ length: int(r, 1, Math.min(4, rank)) }, () => {
    const a = int(r, 0, rank - 1);
    return r() < 0.3 ? a - rank : a;
  });
  const zs = uint8 ? 128 : 0;
  const zp = () => pick(r, [-128, 127, 0, int(r, -128, 127)]) + zs;
  const inQ = { scale: 0.05, zeroPoint: zp() };
  const minMax = op === BuiltinOperator.REDUCE_MAX || op === BuiltinOperator.REDUCE_MIN;
  const outQ = minMax ? inQ : { scale: 0.05 * pick(r, [1, 0.3, 2.7, 0.01, 40, 300]), zeroPoint: zp() };
  const n = shape.reduce((p, d) => p * d, 1);
  const values = int8s(r, n);
  return buildReduce(op, uint8, shape, axes, r() < 0.5, inQ, outQ, uint8 ? asUint8(values) : values);
}

/** Which loops of kernel-support's reduceLoops a case's description runs. */
function loopForm(desc: string): string {
  const { shape, axes } = JSON.parse(desc) as { shape: number[]; axes: number[] };
  const loops = reduceLoops(shape, resolveReduceAxes('test', { index: 0 } as never, shape.length, axes).reduced)!;
  // reduced axes in more than one group: kept ones between them
  const alternating = loops.reduced.filter((g) => g.n > 1).length > 1;
  return `${loops.inner > 1 ? 'inner' : 'last reduced'}, ${alternating ? 'alternating' : 'one block'}`;
}

describe('MEAN, SUM, REDUCE_MAX, REDUCE_MIN int8 and uint8 (wasm qs8_reduce) equal ops-reference byte for byte', () => {
  for (const op of OPS)
    for (const uint8 of [false, true]) {
      const uint8Sum = uint8 && op === BuiltinOperator.SUM;
      it(`${BuiltinOperator[op]} ${uint8 ? 'uint8' : 'int8'}: 80 random tensors, axes (alternating with kept ones too), keep_dims and quantizations${uint8Sum ? ' (declined: TFLite rescales uint8 SUM in float32)' : ''}`, () => {
        const forms = new Set<string>();
        for (let seed = 1; seed <= 80; seed++) {
          const m = randomCase(seed, op, uint8);
          const r = runBoth(m.def, m.inputs);
          expect(r.served, m.desc).toBe(uint8Sum ? 0 : 1);
          expect(r.got[0], m.desc).toEqual(r.ref[0]);
          forms.add(loopForm(m.desc));
        }
        // both loop forms (the last axis kept or reduced), with reduced axes alternating with kept ones in each
        expect([...forms].sort()).toEqual([
          'inner, alternating',
          'inner, one block',
          'last reduced, alternating',
          'last reduced, one block',
        ]);
      });
    }

  it('long reductions of extreme values (int16 partial sums over runs of 256 values, then int32), both loop forms', () => {
    // 600 values per output along a middle axis (outputs along the inner axis) and along the last axis
    const cases: [number[], number[]][] = [
      [[2, 600, 20], [1]],
      [[3, 600], [-1]],
      [
        [2, 300, 3, 17],
        [1, 2],
      ],
    ];
    for (const [shape, axes] of cases)
      for (const op of OPS)
        for (const uint8 of [false, true]) {
          if (uint8 && op === BuiltinOperator.SUM) continue;
          for (const fill of uint8 ? [0, 255] : [-128, 127]) {
            const n = shape.reduce((p, d) => p * d, 1);
            const values = new Int8Array(n).fill((fill << 24) >> 24);
            const q = { scale: 0.05, zeroPoint: uint8 ? 128 : 0 };
            const outQ = op === BuiltinOperator.SUM ? { scale: 40, zeroPoint: 0 } : q;
            const m = buildReduce(op, uint8, shape, axes, false, q, outQ, values);
            const r = runBoth(m.def, m.inputs);
            expect(r.served, m.desc).toBe(1);
            expect(r.got[0], `${m.desc} fill ${fill}`).toEqual(r.ref[0]);
          }
        }
  });

  it('the last axis of a [1, 128, 768] activation (a layer norm’s mean) and the 7x7 pooling of [1, 7, 7, 1280]', () => {
    const r = rng(5);
    for (const op of OPS)
      for (const [shape, axes] of [
        [[1, 128, 768], [-1]],
        [
          [1, 7, 7, 1280],
          [1, 2],
        ],
      ] as [number[], number[]][]) {
        const q = { scale: 0.05, zeroPoint: -7 };
        const minMax = op === BuiltinOperator.REDUCE_MAX || op === BuiltinOperator.REDUCE_MIN;
        const outQ = minMax ? q : { scale: op === BuiltinOperator.SUM ? 9 : 0.03, zeroPoint: 11 };
        const m = buildReduce(
          op,
          false,
          shape,
          axes,
          true,
          q,
          outQ,
          int8s(
            r,
            shape.reduce((p, d) => p * d, 1),
          ),
        );
        const got = runBoth(m.def, m.inputs);
        expect(got.served, m.desc).toBe(1);
        expect(got.got[0], m.desc).toEqual(got.ref[0]);
      }
  });

  it('declines with reasons what it does not take: REDUCE_MAX with another output quantization, uint8 SUM, int16, a MEAN whose rescaled sums could leave int32', () => {
    const q = { scale: 0.05, zeroPoint: 0 };
    const values = new Int8Array(12);
    const cases: [ReturnType<typeof buildReduce>, RegExp][] = [
      [buildReduce(BuiltinOperator.REDUCE_MAX, false, [3, 4], [1], false, q, { scale: 0.1, zeroPoint: 0 }, values), /quantization differ/],
      [
        buildReduce(BuiltinOperator.SUM, true, [3, 4], [1], false, { scale: 0.05, zeroPoint: 128 }, { scale: 0.5, zeroPoint: 128 }, values),
        /uint8 SUM/,
      ],
      [
        buildReduce(BuiltinOperator.MEAN, false, [3, 4], [1], false, { scale: 1e8, zeroPoint: 0 }, { scale: 1, zeroPoint: 0 }, values),
        /could leave int32/,
      ],
    ];
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.INT16, shape: [3, 4], quantization: q });
    const a = b.addTensor({ name: 'axes', type: TensorType.INT32, shape: [1], data: Int32Array.of(1) });
    const y = b.addTensor({ name: 'y', type: TensorType.INT16, shape: [3], quantization: q });
    b.addOperator({ op: BuiltinOperator.SUM, inputs: [x, a], outputs: [y], options: { keepDims: false } });
    b.setInputs([x]).setOutputs([y]);
    cases.push([{ def: b.buildDef(), inputs: [], desc: 'int16 SUM' }, /int16 to int16/]);
    for (const [m, reason] of cases) {
      const report = checkModel(m.def, registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true }));
      const declined = report.nodes[0]!.declined ?? [];
      expect(
        declined.some((d) => d.provider === PROVIDER && reason.test(d.reason ?? '')),
        `${m.desc}: ${JSON.stringify(declined)}`,
      ).toBe(true);
    }
  });
});
