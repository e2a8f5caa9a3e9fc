// Bad runtime input and interpreter misuse: each gives a clear typed error or the documented behaviour
// (docs/reliability.md), and the interpreter stays usable where it can.
import {
  InputError,
  InterpreterStateError,
  MicroInterpreter,
  OpResolver,
  UnsupportedOpError,
  loadModel,
  type ModelDef,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { describe, expect, it } from 'vitest';
import { buildDemoModel } from '@micrort/app-kit';
import { fillInputs } from '../../src/fuzz/execute.js';
import { zooModels } from '../../src/fuzz/zoo.js';

const zoo = new Map(zooModels().map((m) => [m.name, loadModel(m.bytes)] as const));
const demo = loadModel(buildDemoModel()); // x float32[1,16] → QUANTIZE → FC → FC → SOFTMAX → DEQUANTIZE → float32[1,4]

function make(model: ModelDef = demo): MicroInterpreter {
  return new MicroInterpreter(model, registerReferenceOps(new OpResolver()), { planner: createPlanner('greedy') });
}

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('bad runtime input', () => {
  it('wrong input byte length: InputError with the expected and given sizes; the interpreter stays usable', () => {
    const it_ = make().allocateTensors();
    const e = thrown(() => it_.setInput(0, new Uint8Array(63)));
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toBe('input 0 (x) needs 64 bytes (float32[1,16]), got 63');
    expect(thrown(() => it_.setInput(0, new ArrayBuffer(65))).message).toMatch(/needs 64 bytes .* got 65/);
    expect(thrown(() => it_.setInput(0, [1, 2, 3])).message).toBe('input 0 (x) has 16 elements (float32[1,16]), got 3');
    it_.setInput(0, new Float32Array(16).fill(0.25));
    it_.invoke();
    expect(it_.output(0).data.length).toBe(4);
  });

  it('wrong dtype: a typed array of another element type is an InputError naming both types', () => {
    const it_ = make().allocateTensors();
    const e = thrown(() => it_.setInput(0, new Int8Array(16)));
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toBe('input 0 (x) is float32 (Float32Array), got a Int8Array');
    expect(() => it_.setInput(0, new Int32Array(16))).toThrow(InputError);
  });

  it('input/output index out of range: InputError with the count', () => {
    const it_ = make().allocateTensors();
    expect(thrown(() => it_.input(1)).message).toBe('input index 1 out of range (model has 1 inputs)');
    expect(thrown(() => it_.output(-1)).message).toBe('output index -1 out of range (model has 1 outputs)');
    expect(thrown(() => it_.tensor(99)).message).toMatch(/tensor index 99 out of range \(subgraph has \d+ tensors\)/);
  });

  it('NaN and ±Infinity floats are accepted; integer conversions follow TFLM on x86 (NaN and overflow → INT32_MIN, then clamped)', () => {
    const x = new Float32Array(16).fill(0.5);
    x[0] = Number.NaN;
    x[1] = Number.POSITIVE_INFINITY;
    x[2] = Number.NEGATIVE_INFINITY;
    const a = make().allocateTensors();
    a.setInput(0, x);
    a.invoke();
    // QUANTIZE to int8 (scale 1/128): NaN, +Inf and -Inf all become -128; 0.5 becomes 64.
    expect(Array.from((a.tensor(1).data as Int8Array).subarray(0, 4))).toEqual([-128, -128, -128, 64]);
    const probs = Array.from(a.output(0).data as Float32Array);
    expect(probs.every((p) => Number.isFinite(p))).toBe(true);
    // Deterministic: another interpreter gives the same bytes.
    const b = make().allocateTensors();
    b.setInput(0, x);
    b.invoke();
    expect(Array.from(b.output(0).bytes)).toEqual(Array.from(a.output(0).bytes));
    // CAST float32 → int32 of NaN (float elementwise seed model: mul → CAST) gives INT32_MIN.
    const f = make(zoo.get('zoo:float_elementwise')!).allocateTensors();
    f.setInput(0, new Float32Array(6).fill(Number.NaN));
    f.setInput(1, new Float32Array(4).fill(1));
    f.invoke();
    expect(Array.from(f.output(1).data as Int32Array).every((v) => v === -2147483648)).toBe(true);
  });
});

describe('interpreter misuse', () => {
  it('invoke before allocateTensors allocates first, as TFLM', () => {
    const it_ = make();
    expect(it_.status).toBe('created');
    it_.invoke();
    expect(it_.status).toBe('allocated');
    // input() before allocateTensors allocates too
    expect(make().input(0).elementCount).toBe(16);
  });

  it('allocateTensors twice is a no-op: the same tensors, views and arena', () => {
    const it_ = make().allocateTensors();
    const view = it_.input(0).data;
    const usage = it_.arenaUsage();
    expect(it_.allocateTensors()).toBe(it_);
    expect(it_.input(0).data).toBe(view);
    expect(it_.arenaUsage()).toEqual(usage);
  });

  it('reset() and resetVariableTensors() restore the state: the first output repeats', () => {
    const it_ = make(zoo.get('zoo:svdf')!).allocateTensors();
    const run = () => {
      fillInputs(it_, 3);
      it_.invoke();
      return Array.from(it_.output(0).bytes);
    };
    const first = run();
    const second = run();
    expect(second).not.toEqual(first); // the SVDF state carried over
    it_.reset();
    expect(run()).toEqual(first);
    run();
    it_.resetVariableTensors();
    expect(run()).toEqual(first);
  });

  it('use after dispose is an InterpreterStateError; dispose twice is a no-op', () => {
    const it_ = make().allocateTensors();
    it_.dispose();
    expect(it_.status).toBe('disposed');
    for (const use of [
      () => it_.invoke(),
      () => it_.input(0),
      () => it_.output(0),
      () => it_.setInput(0, new Float32Array(16)),
      () => it_.arenaUsage(),
      () => it_.reset(),
      () => it_.allocateTensors(),
    ]) {
      expect(use).toThrow(InterpreterStateError);
    }
    expect(thrown(() => it_.invoke()).message).toBe('the interpreter was disposed');
    expect(() => it_.dispose()).not.toThrow();
  });

  it('after a failed allocateTensors every use names the original failure', () => {
    const model = loadModel(buildDemoModel());
    const it_ = new MicroInterpreter(model, new OpResolver(), { planner: createPlanner('greedy') }); // no kernels
    expect(() => it_.allocateTensors()).toThrow(UnsupportedOpError);
    expect(it_.status).toBe('failed');
    const e = thrown(() => it_.invoke());
    expect(e).toBeInstanceOf(InterpreterStateError);
    expect(e.message).toMatch(
      /allocateTensors\(\) failed \(unsupported model: \d+ nodes cannot run: QUANTIZE ×1 \(no provider\).*first: node 0 QUANTIZE v1: no provider registered.*create a new interpreter/,
    );
    expect(() => it_.allocateTensors()).toThrow(/failed earlier/);
  });
});
