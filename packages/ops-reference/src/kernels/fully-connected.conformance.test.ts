/**
 * Conformance of the first kernel set (FULLY_CONNECTED, ADD, QUANTIZE, DEQUANTIZE, RESHAPE, SOFTMAX)
 * against TFLM's reference outputs in ../shared/conformance.
 *
 * Every node of these ops in every conformance model is checked on case 0: when all its non-constant
 * inputs equal TFLM's intermediates (so a bug elsewhere cannot be blamed on it), its output must equal
 * TFLM's (integers bit-exact, float32 within 1e-5 + 1e-4|b|). Models made only of these ops must also
 * reproduce all three cases end to end.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFORMANCE_DIR,
  SKIP_REASON,
  compareBytes,
  hasConformance,
  listModels,
  makeInterpreter,
  readBytes,
  readManifest,
  runCase,
  setCaseInputs,
  type IntermediateEntry,
} from '@micrort/test-support/conformance';
import { createPlanner } from '@micrort/planners';

const MY_OPS = new Set(['FULLY_CONNECTED', 'ADD', 'QUANTIZE', 'DEQUANTIZE', 'RESHAPE', 'SOFTMAX']);

/** Models whose every op is in MY_OPS. */
const OWN_MODELS = ['hello_world_float', 'hello_world_int8', 'simple_add_model'];

interface NodeCheck {
  model: string;
  node: number;
  op: string;
  status: 'match' | 'mismatch' | 'inputs differ' | 'not run';
  detail?: string;
}

function checkModel(name: string): NodeCheck[] {
  const dir = join(CONFORMANCE_DIR!, name, 'intermediates_case0');
  const entries = JSON.parse(readFileSync(join(dir, 'tensors.json'), 'utf8')) as IntermediateEntry[];
  const byIndex = new Map(entries.map((e) => [e.index, e]));
  let interp;
  try {
    interp = makeInterpreter(name, { planner: createPlanner('linear') });
  } catch (e) {
    // another kernel group cannot prepare this model yet
    return [{ model: name, node: -1, op: '*', status: 'not run', detail: String(e) }];
  }
  setCaseInputs(interp, name, 0);
  try {
    interp.invoke();
  } catch (e) {
    return [{ model: name, node: -1, op: '*', status: 'not run', detail: String(e) }];
  }
  const same = (t: number): boolean => {
    const e = byIndex.get(t);
    if (!e) return true; // constant (not recorded by TFLM)
    return compareBytes(e.dtype, interp.tensor(t).bytes, readBytes(join(dir, e.file)), t).pass;
  };
  const out: NodeCheck[] = [];
  for (const n of interp.nodes()) {
    if (!MY_OPS.has(n.op)) continue;
    if (!n.inputs.filter((t) => t >= 0).every(same)) {
      out.push({ model: name, node: n.index, op: n.op, status: 'inputs differ' });
      continue;
    }
    for (const t of n.outputs) {
      const e = byIndex.get(t)!;
      const cmp = compareBytes(e.dtype, interp.tensor(t).bytes, readBytes(join(dir, e.file)), t);
      out.push({
        model: name,
        node: n.index,
        op: n.op,
        status: cmp.pass ? 'match' : 'mismatch',
        detail: cmp.pass
          ? undefined
          : `tensor ${t}: ${cmp.mismatches}/${cmp.elements} differ, first at ${cmp.firstMismatchAt}, max |diff| ${cmp.maxAbsDiff}`,
      });
    }
  }
  return out;
}

describe.skipIf(!hasConformance)(`first kernel set vs TFLM (${hasConformance ? 'conformance data present' : SKIP_REASON})`, () => {
  for (const model of hasConformance ? listModels() : []) {
    const ops = readManifest(model).ops;
    if (!ops.some((o) => MY_OPS.has(o))) continue;
    it(`${model}: every FULLY_CONNECTED/ADD/QUANTIZE/DEQUANTIZE/RESHAPE/SOFTMAX node with TFLM's inputs gives TFLM's output`, () => {
      const checks = checkModel(model);
      const bad = checks.filter((c) => c.status === 'mismatch');
      expect(bad, JSON.stringify(bad)).toEqual([]);
      if (checks.every((c) => c.status !== 'not run')) expect(checks.some((c) => c.status === 'match')).toBe(true);
      const skipped = checks.filter((c) => c.status !== 'match');
      if (skipped.length) console.log(`${model}: not checked: ${JSON.stringify(skipped)}`);
    });
  }
  for (const model of OWN_MODELS) {
    it(`${model}: all cases end to end`, () => {
      for (const c of [0, 1, 2]) {
        const r = runCase(model, c);
        expect(r.pass, `${model} case ${c}: ${JSON.stringify(r.outputs)}`).toBe(true);
      }
    });
  }
});
