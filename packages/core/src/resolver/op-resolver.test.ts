import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { ResolverError } from '../errors.js';
import type { Registration } from '../kernel/api.js';
import { OpResolver } from './op-resolver.js';
import { MicroInterpreter } from '../interpreter/micro-interpreter.js';
import { TestLinearPlanner, tinyModel } from '../interpreter/__fixtures__/tiny-models.js';
import { TensorType } from '../types.js';

const base = (provider: string, extra: Partial<Registration> = {}): Registration => ({
  builtinCode: BuiltinOperator.RELU,
  provider,
  invoke() {},
  ...extra,
});

describe('OpResolver', () => {
  it('rejects duplicates unless override or fallback is asked for', () => {
    const r = new OpResolver().register(base('a'));
    expect(() => r.register(base('b'))).toThrow(ResolverError);
    expect(() => r.register(base('b'))).toThrow(/duplicate registration for RELU versions 1..Infinity: already provided by a/);
    r.register(base('c'), { override: true });
    expect(r.listRegistrations()).toEqual([{ op: 'RELU', provider: 'c', versions: [1, Infinity] }]);
  });

  it('keys by version range and custom name', () => {
    const r = new OpResolver()
      .register(base('v1'), { versions: [1, 1] })
      .register(base('v2'), { versions: [2, 3] })
      .register({ builtinCode: BuiltinOperator.CUSTOM, customName: 'Foo', provider: 'f', invoke() {} });
    expect(r.candidates(BuiltinOperator.RELU, 1).map((x) => x.provider)).toEqual(['v1']);
    expect(r.candidates(BuiltinOperator.RELU, 3).map((x) => x.provider)).toEqual(['v2']);
    expect(r.has(BuiltinOperator.RELU, 4)).toBe(false);
    expect(r.has(BuiltinOperator.CUSTOM, 1, 'Foo')).toBe(true);
    expect(r.has(BuiltinOperator.CUSTOM, 1, 'Bar')).toBe(false);
    expect(() => r.register({ builtinCode: BuiltinOperator.CUSTOM, invoke() {} })).toThrow(/customName/);
  });

  it('falls back per node to the next provider when a plugin declines a variant', () => {
    // int8-only plugin in front of a generic one: the float node goes to the generic provider.
    const generic = base('generic', {
      invoke(ctx, node) {
        const x = ctx.getEvalTensor(node.inputs[0]!).data;
        const y = ctx.getEvalTensor(node.outputs[0]!).data;
        for (let i = 0; i < x.length; i++) (y as Float32Array)[i] = Math.max(0, Number(x[i]));
      },
    });
    const int8Only = base('int8-plugin', {
      supports: (ctx, node) => ctx.getTensor(node.inputs[0]!).type === TensorType.INT8,
      invoke(ctx, node) {
        const x = ctx.getEvalTensor(node.inputs[0]!).data as Int8Array;
        const y = ctx.getEvalTensor(node.outputs[0]!).data as Int8Array;
        for (let i = 0; i < x.length; i++) y[i] = x[i]! < 0 ? 0 : x[i]!;
      },
    });
    const r = new OpResolver().register(generic).register(int8Only, { fallback: true });
    const model = tinyModel(
      [
        { type: TensorType.FLOAT32, shape: [2] },
        { type: TensorType.FLOAT32, shape: [2] },
        { type: TensorType.INT8, shape: [2] },
        { type: TensorType.INT8, shape: [2] },
      ],
      [
        { builtin: BuiltinOperator.RELU, inputs: [0], outputs: [1] },
        { builtin: BuiltinOperator.RELU, inputs: [2], outputs: [3] },
      ],
      [0, 2],
      [1, 3],
    );
    const it_ = new MicroInterpreter(model, r, { planner: new TestLinearPlanner() }).allocateTensors();
    expect(it_.nodes().map((n) => [n.op, n.provider, n.declinedBy ?? []])).toEqual([
      ['RELU', 'generic', ['int8-plugin']],
      ['RELU', 'int8-plugin', []],
    ]);
    it_.setInput(0, Float32Array.of(-1, 2));
    it_.setInput(1, Int8Array.of(-3, 4));
    it_.invoke();
    expect(Array.from(it_.output(0).data as Float32Array)).toEqual([0, 2]);
    expect(Array.from(it_.output(1).data as Int8Array)).toEqual([0, 4]);
  });
});
