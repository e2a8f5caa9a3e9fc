/**
 * TFLite's hybrid kernels (float32 activations × int8/uint8 weights) against TFLite 2.9 itself (the
 * tfjs-tflite-node oracle, whose XNNPACK delegate does not take hybrid nodes, so TFLite's own kernels
 * run): writer-made single-op models of test-support's hybrid-models.ts. Float outputs within the
 * README rule; the largest difference is printed.
 */
import { describe, expect, it } from 'vitest';
import { compareBytes } from '@micrort/test-support/conformance';
import { compareWithTflite, ORACLE_SKIP_REASON, oracleAvailable } from '@micrort/test-support/tflite-oracle';
import {
  batchMatmulCases,
  dequantizeCases,
  embeddingCases,
  hybridConvCases,
  hybridFullyConnectedCases,
  svdfCases,
  type HybridCase,
} from '@micrort/test-support/hybrid-models';

if (!oracleAvailable) it.skip(`hybrid kernels vs TFLite: ${ORACLE_SKIP_REASON}`, () => {});

/** Every n-th float32 of `bytes`, as bytes. */
function every(bytes: Uint8Array, n: number): Uint8Array {
  const v = new Float32Array(bytes.slice().buffer);
  const out = Float32Array.from({ length: Math.ceil(v.length / n) }, (_, i) => v[i * n]!);
  return new Uint8Array(out.buffer);
}

function check(c: HybridCase): void {
  const cmp = compareWithTflite(c.bytes, c.inputs);
  const o = c.only ? compareBytes('float32', every(cmp.got[0]!, c.only.every), every(cmp.expected[0]!, c.only.every)) : cmp.outputs[0]!;
  if (c.only) console.log(`${c.name}: every ${c.only.every}th output only: ${c.only.why}`);
  console.log(`${c.name}: max |Δ| ${o.maxAbsDiff.toExponential(2)} over ${o.elements} outputs`);
  expect(o.pass, JSON.stringify(o)).toBe(true);
  expect(new Float32Array(cmp.expected[0]!.slice().buffer).some((v) => v !== 0)).toBe(true);
}

describe.skipIf(!oracleAvailable)('hybrid kernels vs TFLite 2.9', () => {
  const cases = [
    ...hybridFullyConnectedCases(),
    ...hybridConvCases(),
    ...batchMatmulCases(),
    ...svdfCases(),
    ...embeddingCases(),
    ...dequantizeCases(),
  ];
  for (const c of cases.filter((c) => c.reference === 'tflite29')) it(c.name, () => check(c));
});
