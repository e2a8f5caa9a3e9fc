/**
 * ops-wasm's RESIZE_BILINEAR (int8, uint8), RESIZE_NEAREST_NEIGHBOR (int8, uint8, float32) and uint8 →
 * int16 SOFTMAX against TFLite 2.9 itself (test-support's oracle: TFLite's optimized x86 build), beyond
 * the byte-equality with ops-reference the kernel tests check: the random single-op models of those
 * tests, run by ops-wasm (the node served) and by TFLite on the same input bytes. The differences found
 * (count of cases, largest step) are printed and bounded per op. Skipped, saying why, without the oracle.
 */
import { describe, expect, it } from 'vitest';
import { MicroInterpreter, OpResolver, TensorType, writeModel, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { ORACLE_SKIP_REASON, TfliteOracle, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import { wasm } from '../src/__tests__/single-op.js';
import { buildResize, buildSoftmaxUint8ToInt16 } from '../src/__tests__/single-op-resize.js';
import { PROVIDER } from '../src/index.js';

function runWasm(def: ModelDef, inputs: readonly Uint8Array[]): { out: Uint8Array; served: number } {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    arenaBacking: wasm().arenaBacking,
  }).allocateTensors();
  inputs.forEach((x, i) => it_.input(i).bytes.set(x));
  it_.invoke();
  return { out: Uint8Array.from(it_.output(0).bytes), served: it_.nodes().filter((n) => n.provider === PROVIDER).length };
}

const bytesOf = (x: Int8Array) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);

/** Element values of `bytes` as `type`. */
function values(bytes: Uint8Array, type: TensorType): ArrayLike<number> {
  const b = bytes.slice().buffer;
  if (type === TensorType.INT8) return new Int8Array(b);
  if (type === TensorType.INT16) return new Int16Array(b);
  if (type === TensorType.FLOAT32) return new Float32Array(b);
  return new Uint8Array(b);
}

type Build = (seed: number) => { def: ModelDef; inputs: Int8Array[]; desc: string };

/** [name, builder, output type, largest difference allowed (0: byte for byte)]. */
const CASES: [string, Build, TensorType, number][] = [
  ['RESIZE_BILINEAR int8', (s) => buildResize(s, 'RESIZE_BILINEAR', TensorType.INT8), TensorType.INT8, 0],
  ['RESIZE_BILINEAR uint8', (s) => buildResize(s, 'RESIZE_BILINEAR', TensorType.UINT8), TensorType.UINT8, 0],
  ['RESIZE_BILINEAR int16', (s) => buildResize(s, 'RESIZE_BILINEAR', TensorType.INT16), TensorType.INT16, 0],
  ['RESIZE_NEAREST_NEIGHBOR int8', (s) => buildResize(s, 'RESIZE_NEAREST_NEIGHBOR', TensorType.INT8), TensorType.INT8, 0],
  ['RESIZE_NEAREST_NEIGHBOR uint8', (s) => buildResize(s, 'RESIZE_NEAREST_NEIGHBOR', TensorType.UINT8), TensorType.UINT8, 0],
  ['RESIZE_NEAREST_NEIGHBOR float32', (s) => buildResize(s, 'RESIZE_NEAREST_NEIGHBOR', TensorType.FLOAT32), TensorType.FLOAT32, 0],
  ['SOFTMAX uint8 to int16', buildSoftmaxUint8ToInt16, TensorType.INT16, 0],
];

if (!oracleAvailable) it.skip(`resize and uint8 → int16 SOFTMAX on ops-wasm vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

describe.skipIf(!oracleAvailable)("ops-wasm's resize and uint8 → int16 SOFTMAX kernels vs TFLite 2.9", () => {
  for (const [name, build, type, steps] of CASES) {
    it(`${name}: 40 random cases, ${steps === 0 ? 'byte for byte' : `within ${steps}`}`, () => {
      const differ: string[] = [];
      let worst = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const m = build(seed);
        const inputs = m.inputs.map(bytesOf);
        const got = runWasm(m.def, inputs);
        expect(got.served, m.desc).toBe(1);
        const expected = new TfliteOracle(writeModel(m.def)).run(inputs)[0]!;
        const a = values(got.out, type);
        const e = values(expected, type);
        expect(a.length, m.desc).toBe(e.length);
        let d = 0;
        let n = 0;
        for (let k = 0; k < a.length; k++) {
          const diff = Math.abs(a[k]! - e[k]!);
          if (diff > 0 || Number.isNaN(diff)) n++;
          d = Math.max(d, Number.isNaN(diff) ? Infinity : diff);
        }
        worst = Math.max(worst, d);
        if (n > 0) differ.push(`${m.desc}: ${n} of ${a.length} values differ by up to ${d}`);
      }
      if (differ.length > 0) console.log(`${name} vs TFLite 2.9: ${differ.length} of 40 cases differ\n  ${differ.join('\n  ')}`);
      expect(worst, differ.slice(0, 3).join('; ')).toBeLessThanOrEqual(steps);
    });
  }
});
