/**
 * ops-wasm's TFLite-uint8 kernels against TFLite 2.9 itself (the oracle: test-support's tflite-oracle.ts,
 * TFLite's optimized x86 build), beyond the byte-equality with ops-reference (TFLite's reference kernels)
 * that the kernel tests check: random single-op models of those tests, run by ops-wasm (every node
 * served) and by TFLite on the same input bytes.
 *
 * Byte for byte: AVERAGE_POOL_2D, MAX_POOL_2D, SOFTMAX, PAD, CONCATENATION (copies and float32
 * requantization), uint8 <-> int8 QUANTIZE and DEQUANTIZE. Within one step: MEAN (TFLite 2.9 rounds a
 * mean of its own; ops-reference and ops-wasm run TFLite's current reference QuantizedMeanOrSum), MUL and
 * float32 -> uint8 QUANTIZE (TFLite 2.9's optimized kernels round some ties and near-ties differently
 * from reference_ops, which ops-reference and ops-wasm follow); the cases that differ are printed.
 * Skipped, saying why, without the oracle.
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator, MicroInterpreter, OpResolver, writeModel, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { buildAdd, buildConcat, buildMean, buildPad, buildPool, buildQuantize, buildSoftmax, wasm } from '../src/__tests__/single-op.js';
import { PROVIDER } from '../src/index.js';

/** Runs `def` on ops-wasm (in front of ops-reference): its output bytes and how many nodes ops-wasm served. */
function runWasm(def: ModelDef, inputs: readonly Uint8Array[]): { outs: Uint8Array[]; served: number } {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    arenaBacking: wasm().arenaBacking,
  }).allocateTensors();
  inputs.forEach((x, i) => it_.input(i).bytes.set(x));
  it_.invoke();
  const outs = Array.from({ length: it_.outputsSize }, (_, j) => Uint8Array.from(it_.output(j).bytes));
  return { outs, served: it_.nodes().filter((n) => n.provider === PROVIDER).length };
}

const bytesOf = (x: Int8Array) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);

type Builder = (seed: number) => { def: ModelDef; inputs: Int8Array[]; desc: string };

/** [name, builder, largest difference allowed in quantized steps (0: byte for byte)]. */
const CASES: [string, Builder, number][] = [
  ['AVERAGE_POOL_2D', (s) => buildPool(s, BuiltinOperator.AVERAGE_POOL_2D, true), 0],
  ['MAX_POOL_2D', (s) => buildPool(s, BuiltinOperator.MAX_POOL_2D, true), 0],
  ['SOFTMAX', (s) => buildSoftmax(s, true), 0],
  ['PAD', (s) => buildPad(s, true), 0],
  ['CONCATENATION', (s) => buildConcat(s, true), 0],
  ['QUANTIZE uint8 to int8', (s) => buildQuantize(s, 'requantize', { input: true }), 0],
  ['QUANTIZE int8 to uint8', (s) => buildQuantize(s, 'requantize', { output: true }), 0],
  ['QUANTIZE uint8 to uint8', (s) => buildQuantize(s, 'requantize', { input: true, output: true }), 0],
  ['DEQUANTIZE uint8 to float32', (s) => buildQuantize(s, 'dequantize', { input: true }), 0],
  ['MEAN', (s) => buildMean(s, true), 1],
  ['MUL', (s) => buildAdd(s, BuiltinOperator.MUL, true), 1],
  ['QUANTIZE float32 to uint8', (s) => buildQuantize(s, 'from-float', { output: true }), 1],
];

if (!oracleAvailable) it.skip(`uint8 kernels on ops-wasm vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

describe.skipIf(!oracleAvailable)("ops-wasm's uint8 kernels vs TFLite 2.9", () => {
  for (const [name, build, steps] of CASES) {
    it(`${name}: 30 random uint8 cases, ${steps === 0 ? 'byte for byte' : `within ${steps} step`}`, () => {
      const differ: string[] = [];
      let worst = 0;
      for (let seed = 1; seed <= 30; seed++) {
        const m = build(seed);
        const inputs = m.inputs.map(bytesOf);
        const got = runWasm(m.def, inputs);
        expect(got.served, m.desc).toBe(1);
        const expected = new TfliteOracle(writeModel(m.def)).run(inputs);
        if (name.startsWith('DEQUANTIZE')) {
          expect(got.outs, m.desc).toEqual(expected);
          continue;
        }
        let d = 0;
        let n = 0;
        got.outs[0]!.forEach((v, k) => {
          const e = Math.abs(v - expected[0]![k]!);
          if (e > 0) n++;
          d = Math.max(d, e);
        });
        worst = Math.max(worst, d);
        if (d > 0) differ.push(`seed ${seed}: ${n} of ${got.outs[0]!.length} values differ by up to ${d}`);
      }
      if (differ.length > 0) console.log(`${name} vs TFLite 2.9: ${differ.length} of 30 cases differ\n  ${differ.join('\n  ')}`);
      expect(worst, differ.join('; ')).toBeLessThanOrEqual(steps);
    });
  }
});
