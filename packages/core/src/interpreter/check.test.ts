import { describe, expect, it } from 'vitest';
import { KernelError } from '../errors.js';
import type { Registration } from '../kernel/api.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { TensorType } from '../types.js';
import { checkModel } from './check.js';
import { mergeReasons, reasonShape } from './check-report.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { TestLinearPlanner, addConstKernel, tinyModel } from './__fixtures__/tiny-models.js';

/** in → ADD_CONST → t1 → NEG_INT8 → t2 → MISSING → out */
function mixedModel() {
  return tinyModel(
    [{ shape: [4] }, { shape: [4] }, { shape: [4], type: TensorType.INT8 }, { shape: [4] }],
    [
      { custom: 'ADD_CONST', inputs: [0], outputs: [1] },
      { custom: 'PICKY', inputs: [1], outputs: [2] },
      { custom: 'MISSING', inputs: [2], outputs: [3] },
      { custom: 'FAILS', inputs: [3], outputs: [3], version: 2 },
    ],
    [0],
    [3],
  );
}

const picky = (provider: string, reason: string): Registration => ({
  builtinCode: 32,
  customName: 'PICKY',
  provider,
  supports: () => reason,
  invoke: () => {},
});
const fails: Registration = {
  builtinCode: 32,
  customName: 'FAILS',
  provider: 'core-test',
  prepare(_ctx, node) {
    throw new KernelError('FAILS', node.index, 'input 0 must be int8');
  },
  invoke: () => {},
};

function resolver(): OpResolver {
  return new OpResolver()
    .register(addConstKernel(1) as Registration)
    .register(picky('first', 'float32 output (handles int8)'))
    .register(picky('second', 'never'), { fallback: true })
    .register(fails);
}

describe('checkModel: every node’s outcome in one report', () => {
  it('lists the taker, each provider’s decline reason, no-provider and prepare errors, grouped by op', () => {
    const r = checkModel(mixedModel(), resolver());
    expect(r.ok).toBe(false);
    expect([r.nodeCount, r.failingCount, r.subgraphs]).toEqual([4, 3, 1]);
    expect(r.nodes.map((n) => [n.index, n.op, n.status])).toEqual([
      [0, 'CUSTOM:ADD_CONST', 'ok'],
      [1, 'CUSTOM:PICKY', 'declined'],
      [2, 'CUSTOM:MISSING', 'no-provider'],
      [3, 'CUSTOM:FAILS', 'prepare-failed'],
    ]);
    expect(r.nodes[0]!.provider).toBe('core-test');
    expect(r.nodes[1]!.declined).toEqual([
      { provider: 'second', kernel: 'CUSTOM:PICKY', reason: 'never' },
      { provider: 'first', kernel: 'CUSTOM:PICKY', reason: 'float32 output (handles int8)' },
    ]);
    expect(r.nodes[1]!.inputs).toEqual([{ index: 1, type: 'float32', shape: [4] }]);
    expect(r.nodes[1]!.outputs).toEqual([{ index: 2, type: 'int8', shape: [4] }]);
    expect(r.nodes[3]!.error).toEqual({ phase: 'prepare', name: 'KernelError', message: 'input 0 must be int8' });
    expect(r.ops.map((o) => [o.op, o.count, o.failing])).toEqual([
      ['CUSTOM:ADD_CONST', 1, 0],
      ['CUSTOM:FAILS', 1, 1],
      ['CUSTOM:MISSING', 1, 1],
      ['CUSTOM:PICKY', 1, 1],
    ]);
    expect(r.ops[1]!.groups[0]).toMatchObject({
      version: 2,
      status: 'prepare-failed',
      provider: 'core-test',
      errors: ['input 0 must be int8'],
      nodes: [[0, 3]],
    });
  });

  it('allocateTensors throws one short line carrying the same report', () => {
    let err: unknown;
    try {
      new MicroInterpreter(mixedModel(), resolver(), { planner: new TestLinearPlanner() }).allocateTensors();
    } catch (e) {
      err = e;
    }
    const e = err as Error & { report?: { failingCount: number } };
    expect(e.name).toBe('UnsupportedOpError');
    expect(e.message).toBe(
      'unsupported model: 3 nodes cannot run: CUSTOM:PICKY ×1 (declined), CUSTOM:MISSING ×1 (no provider), CUSTOM:FAILS ×1 (prepare failed); ' +
        'first: node 1 CUSTOM:PICKY v1: second declined: never; first declined: float32 output (handles int8) — run micrort check for the full list',
    );
    expect(e.message).not.toContain('\n');
    expect(e.report!.failingCount).toBe(3);
  });

  it('several prepare failures: a KernelError naming the first and counting the others', () => {
    const model = tinyModel(
      [{ shape: [4] }, { shape: [4] }, { shape: [4] }],
      [
        { custom: 'FAILS', inputs: [0], outputs: [1] },
        { custom: 'FAILS', inputs: [1], outputs: [2] },
      ],
      [0],
      [2],
    );
    let err: unknown;
    try {
      new MicroInterpreter(model, new OpResolver().register(fails), { planner: new TestLinearPlanner() }).allocateTensors();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(KernelError);
    expect((err as KernelError).message).toBe(
      'FAILS (node 0): input 0 must be int8 (and 1 more node cannot run: CUSTOM:FAILS ×1 — run micrort check for the full list)',
    );
    expect((err as KernelError).report!.failingCount).toBe(2);
  });

  it('a model whose every node is fine: ok, with arena figures when a planner is given', () => {
    const model = tinyModel([{ shape: [4] }, { shape: [4] }], [{ custom: 'ADD_CONST', inputs: [0], outputs: [1] }], [0], [1]);
    const r = checkModel(model, new OpResolver().register(addConstKernel(1) as Registration), { planner: new TestLinearPlanner() });
    expect(r.ok).toBe(true);
    expect(r.arena).toEqual({ usedBytes: 48, headBytes: 32, tailBytes: 16 });
    expect(checkModel(model, new OpResolver().register(addConstKernel(1) as Registration)).arena).toBeUndefined();
  });
});

describe('grouping reasons that differ only in numbers', () => {
  it('mergeReasons keeps shared numbers and lists the ones that differ, at most four', () => {
    expect(mergeReasons(['int8 tensor 97 (handles float32)'])).toBe('int8 tensor 97 (handles float32)');
    expect(mergeReasons(['int8 tensor 97 (handles float32)', 'int8 tensor 1 (handles float32)', 'int8 tensor 97 (handles float32)'])).toBe(
      'int8 tensor {97,1} (handles float32)',
    );
    expect(mergeReasons(['a 1 b 2.5', 'a 1 b 3', 'a 1 b 4', 'a 1 b 5', 'a 1 b 6'])).toBe('a 1 b {2.5,3,4,5,…}');
    expect(reasonShape('stride 2 of tensor 14')).toBe('stride # of tensor #');
  });
});
