import { describe, expect, it } from 'vitest';
import { ArenaTooSmallError, InputError, InterpreterStateError, KernelError, PhaseError, UnsupportedOpError } from '../errors.js';
import { Phase, type Registration, type TfLiteContext } from '../kernel/api.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { BuiltinOperator } from '../builtin-ops.js';
import { TensorType } from '../types.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { TestLinearPlanner, addConstKernel, chainModel, tinyModel } from './__fixtures__/tiny-models.js';

const planner = new TestLinearPlanner();

function interp(model = chainModel(), arena: number | 'auto' = 'auto', reg: Registration = addConstKernel(1) as Registration) {
  const resolver = new OpResolver().register(reg);
  return new MicroInterpreter(model, resolver, { planner, arena });
}

describe('MicroInterpreter', () => {
  it('runs a chain of custom kernels and sizes the arena exactly with auto', () => {
    const it_ = interp().allocateTensors();
    (it_.input(0).data as Float32Array).set([1, 2, 3, 4, 5, 6, 7, 8]);
    it_.invoke();
    expect(Array.from(it_.output(0).data as Float32Array)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    const u = it_.arenaUsage();
    // 4 tensors x 32 bytes planned linearly; 3 persistent buffers of 16 bytes
    expect(u.headBytes).toBe(128);
    expect(u.tailBytes).toBe(48);
    expect(u.persistentBufferBytes).toBe(48);
    expect(u.usedBytes).toBe(176);
    expect(u.arenaBytes).toBe(176);
  });

  it("'auto' prepares every kernel once, and the op-data views kept from prepare are the arena's memory", () => {
    type Op = { value: Float32Array | null; scratch: number };
    const calls = { init: 0, prepare: 0, free: 0 };
    const views: Float32Array[] = [];
    const base = addConstKernel(1, 64);
    const counting: Registration<Op> = {
      ...base,
      init: (ctx, data) => {
        calls.init++;
        return base.init!(ctx, data);
      },
      prepare: (ctx, node) => {
        calls.prepare++;
        base.prepare!(ctx, node);
        views.push((node.userData as Op).value!);
      },
      free: () => void calls.free++,
    };
    const auto = interp(chainModel(5), 'auto', counting as Registration).allocateTensors();
    expect(calls).toEqual({ init: 5, prepare: 5, free: 0 });
    for (const v of views) expect(v.buffer).toBe(auto.input(0).data.buffer);
    const u = auto.arenaUsage();
    // TestLinearPlanner places every buffer apart: 6 tensors of 32 bytes and 5 scratch buffers of 64.
    expect([u.headBytes, u.tailBytes, u.arenaBytes]).toEqual([6 * 32 + 5 * 64, 5 * 16, 6 * 32 + 5 * 64 + 5 * 16]);
    // A fixed arena of the measured size: one pass too, the same figures and outputs.
    calls.init = calls.prepare = 0;
    const fixed = interp(chainModel(5), u.arenaBytes, counting as Registration).allocateTensors();
    expect(calls).toEqual({ init: 5, prepare: 5, free: 0 });
    expect(fixed.arenaUsage()).toMatchObject({ headBytes: u.headBytes, tailBytes: u.tailBytes, arenaBytes: u.arenaBytes });
    for (const it_ of [auto, fixed]) {
      (it_.input(0).data as Float32Array).fill(0.5);
      it_.invoke();
      expect(Array.from(it_.output(0).data as Float32Array)).toEqual(new Array(8).fill(5.5));
      it_.dispose();
    }
    expect(calls.free).toBe(10);
  });

  it('a fixed arena of exactly usedBytes works; one 16-byte block less fails with the exact numbers', () => {
    const ok = interp(chainModel(), 176).allocateTensors();
    (ok.input(0).data as Uint8Array).fill(0);
    ok.invoke();
    const small = interp(chainModel(), 160);
    let err: unknown;
    try {
      small.allocateTensors();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ArenaTooSmallError);
    const e = err as ArenaTooSmallError;
    expect(e.requiredArenaBytes).toBe(176);
    expect(e.missingBytes).toBe(16);
    expect(e.message).toMatch(/requested 128 bytes, 112 available, 16 missing/);
    expect(e.message).toMatch(/176 bytes would fit/);
    expect(small.status).toBe('failed');
    expect(() => small.invoke()).toThrow(InterpreterStateError);
  });

  it('reports a tail overflow during prepare with the size that would fit', () => {
    const e = (() => {
      try {
        interp(chainModel(), 32).allocateTensors();
      } catch (x) {
        return x as ArenaTooSmallError;
      }
      throw new Error('expected failure');
    })();
    expect(e).toBeInstanceOf(ArenaTooSmallError);
    expect(e.what).toMatch(/persistent buffer for node 2 \(CUSTOM:ADD_CONST\)/);
    expect(e.requiredArenaBytes).toBe(176);
  });

  it('unsupported ops are listed with node index, name and version', () => {
    const resolver = new OpResolver();
    const m = interp(chainModel(2)).model;
    const i2 = new MicroInterpreter(m, resolver, { planner });
    expect(() => i2.allocateTensors()).toThrow(UnsupportedOpError);
    const e = (() => {
      try {
        new MicroInterpreter(m, resolver, { planner }).allocateTensors();
      } catch (x) {
        return x as UnsupportedOpError;
      }
      throw new Error('expected failure');
    })();
    expect(e.message).toBe(
      'unsupported model: 2 nodes cannot run: CUSTOM:ADD_CONST ×2 (no provider); first: node 0 CUSTOM:ADD_CONST v1: no provider registered — run micrort check for the full list',
    );
    expect([e.op, e.version, e.nodeIndex]).toEqual(['CUSTOM:ADD_CONST', 1, 0]);
    expect(e.failures.map((f) => [f.subgraph, f.index, f.op, f.version, f.status])).toEqual([
      [0, 0, 'CUSTOM:ADD_CONST', 1, 'no-provider'],
      [0, 1, 'CUSTOM:ADD_CONST', 1, 'no-provider'],
    ]);
    expect(e.report!.ops).toEqual([
      {
        op: 'CUSTOM:ADD_CONST',
        count: 2,
        failing: 2,
        groups: [
          expect.objectContaining({
            version: 1,
            status: 'no-provider',
            nodes: [
              [0, 0],
              [0, 1],
            ],
          }),
        ],
      },
    ]);
  });

  it('setInput checks dtype and length; input index errors are typed', () => {
    const it_ = interp().allocateTensors();
    expect(() => it_.setInput(0, new Int8Array(8))).toThrow(InputError);
    expect(() => it_.setInput(0, new Float32Array(7))).toThrow(/has 8 elements/);
    expect(() => it_.setInput(0, new Uint8Array(31))).toThrow(/needs 32 bytes/);
    expect(() => it_.input(1)).toThrow(/input index 1 out of range \(model has 1 inputs\)/);
    it_.setInput(0, new Float32Array(8).fill(2));
    it_.invoke();
    expect((it_.output(0).data as Float32Array)[0]).toBe(5);
  });

  it('invoke before allocateTensors allocates (as TFLM); allocate twice is a no-op; use after dispose throws', () => {
    const it_ = interp();
    it_.invoke();
    expect(it_.status).toBe('allocated');
    expect(it_.allocateTensors()).toBe(it_);
    it_.dispose();
    expect(() => it_.invoke()).toThrow(InterpreterStateError);
    expect(() => it_.input(0)).toThrow(/disposed/);
  });

  it('a kernel error in invoke is typed, names the node, and the interpreter stays usable', () => {
    let fail = true;
    const reg: Registration = {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'ADD_CONST',
      invoke(ctx, node) {
        if (fail) throw new RangeError('boom');
        (ctx.getEvalTensor(node.outputs[0]!).data as Float32Array).fill(7);
      },
    };
    const it_ = interp(chainModel(1), 'auto', reg).allocateTensors();
    expect(() => it_.invoke()).toThrow(KernelError);
    expect(() => it_.invoke()).toThrow(/CUSTOM:ADD_CONST \(node 0\): invoke failed: RangeError: boom/);
    fail = false;
    it_.invoke();
    expect((it_.output(0).data as Float32Array)[0]).toBe(7);
  });

  it('variable tensors live in the tail, survive invokes and reset to the int8 zero point', () => {
    const model = tinyModel(
      [
        { type: TensorType.INT8, shape: [4] },
        { type: TensorType.INT8, shape: [4], variable: true, scale: 1, zeroPoint: -5 },
        { type: TensorType.INT8, shape: [4] },
      ],
      [{ custom: 'ACC', inputs: [0, 1], outputs: [2] }],
      [0],
      [2],
    );
    const acc: Registration = {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'ACC',
      invoke(ctx, node) {
        const x = ctx.getEvalTensor(node.inputs[0]!).data as Int8Array;
        const s = ctx.getEvalTensor(node.inputs[1]!).data as Int8Array;
        const y = ctx.getEvalTensor(node.outputs[0]!).data as Int8Array;
        for (let i = 0; i < 4; i++) y[i] = s[i] = s[i]! + x[i]!;
      },
    };
    const it_ = new MicroInterpreter(model, new OpResolver().register(acc), { planner }).allocateTensors();
    expect(Array.from(it_.tensor(1).data as Int8Array)).toEqual([-5, -5, -5, -5]);
    (it_.input(0).data as Uint8Array).fill(1);
    it_.invoke();
    it_.invoke();
    expect(Array.from(it_.output(0).data as Int8Array)).toEqual([-3, -3, -3, -3]);
    expect(it_.arenaUsage().variableBufferBytes).toBe(16);
    it_.reset();
    expect(Array.from(it_.tensor(1).data as Int8Array)).toEqual([-5, -5, -5, -5]);
  });

  it('scratch buffers are planned in the head and reachable in invoke', () => {
    const it_ = interp(chainModel(2), 'auto', addConstKernel(1, 100) as Registration).allocateTensors();
    it_.invoke();
    const u = it_.arenaUsage();
    expect(u.scratchBufferBytes).toBe(2 * 112);
    expect(u.headBytes).toBe(3 * 32 + 2 * 112);
    expect(u.perNode.map((n) => n.scratchBytes)).toEqual([100, 100]);
  });
});

describe('phase guards', () => {
  type Probe = (ctx: TfLiteContext) => unknown;
  const calls: Record<string, Probe> = {
    allocatePersistentBuffer: (c) => c.allocatePersistentBuffer(4),
    requestScratchBufferInArena: (c) => c.requestScratchBufferInArena(4),
    getScratchBuffer: (c) => c.getScratchBuffer(0),
    getTensor: (c) => c.getTensor(0),
    getEvalTensor: (c) => c.getEvalTensor(0),
    getExecutionPlan: (c) => c.getExecutionPlan(),
    getNodeAndRegistration: (c) => c.getNodeAndRegistration(0),
    replaceNodeSubsetsWithDelegateKernels: (c) => c.replaceNodeSubsetsWithDelegateKernels({ builtinCode: 51, invoke() {} }, [0], null),
  };
  const allowed: Record<string, Phase[]> = {
    allocatePersistentBuffer: [Phase.Init, Phase.Prepare],
    requestScratchBufferInArena: [Phase.Prepare],
    getScratchBuffer: [Phase.Invoke],
    getTensor: [Phase.Init, Phase.Prepare],
    getEvalTensor: [Phase.Prepare, Phase.Invoke],
    getExecutionPlan: [],
    getNodeAndRegistration: [],
    replaceNodeSubsetsWithDelegateKernels: [],
  };

  for (const [name, probe] of Object.entries(calls)) {
    it(`${name} throws PhaseError outside ${allowed[name]!.join('/') || 'delegate prepare'}`, () => {
      const seen: Record<string, string> = {};
      const tryIt = (phase: string, ctx: TfLiteContext) => {
        try {
          probe(ctx);
          seen[phase] = 'ok';
        } catch (e) {
          seen[phase] = e instanceof PhaseError ? 'phase' : `other:${(e as Error).message}`;
        }
      };
      let scratch = -1;
      const reg: Registration = {
        builtinCode: BuiltinOperator.CUSTOM,
        customName: 'ADD_CONST',
        init: (ctx) => tryIt('init', ctx),
        prepare: (ctx) => {
          scratch = ctx.requestScratchBufferInArena(8);
          tryIt('prepare', ctx);
        },
        invoke: (ctx) => tryIt('invoke', ctx),
      };
      const it_ = interp(chainModel(1), 'auto', reg).allocateTensors();
      it_.invoke();
      expect(scratch).toBe(0);
      for (const phase of ['init', 'prepare', 'invoke'] as const) {
        const expected = allowed[name]!.includes(phase as Phase) ? 'ok' : 'phase';
        // scratch index 0 exists only once requested; a prepare-time requestScratch adds index 1: fine
        expect(`${phase}:${seen[phase]}`).toBe(`${phase}:${expected}`);
      }
    });
  }

  it('the PhaseError names the callback, the phase and the allowed phases', () => {
    const reg: Registration = {
      builtinCode: BuiltinOperator.CUSTOM,
      customName: 'ADD_CONST',
      invoke: (ctx) => ctx.allocatePersistentBuffer(16),
    };
    const it_ = interp(chainModel(1), 'auto', reg).allocateTensors();
    expect(() => it_.invoke()).toThrow(/allocatePersistentBuffer\(\) is not allowed in phase invoke; allowed in: init, prepare/);
  });
});
