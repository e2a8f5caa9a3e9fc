/**
 * The shape contract between the framework and kernels (interpreter/shapes.ts, kernel/api.ts), through
 * the interpreter with test kernels: shapes computed in prepare win over the file's, data-dependent
 * outputs planned at their bound with the actual dims set at invoke (allocation-free), consumers that
 * cannot read them refused before prepare, and resizeInputTensor + allocateTensors re-planning.
 */
import { describe, expect, it } from 'vitest';
import { measureAllocation } from '@micrort/test-support/alloc';
import { BuiltinOperator } from '../builtin-ops.js';
import { DataDependentShapeError, InputError, InterpreterStateError, TensorResizeError } from '../errors.js';
import type { Registration } from '../kernel/api.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { TestLinearPlanner, tinyModel } from './__fixtures__/tiny-models.js';

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

/** COPY: out = in, the output's shape computed from the input's (resizeTensor). */
const copyKernel: Registration = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: 'COPY',
  provider: 'core-test',
  prepare(ctx, node) {
    ctx.resizeTensor(node.outputs[0]!, ctx.getTensor(node.inputs[0]!).dims);
  },
  invoke(ctx, node) {
    (ctx.getEvalTensor(node.outputs[0]!).data as Float32Array).set(ctx.getEvalTensor(node.inputs[0]!).data as Float32Array);
  },
};

/** POSITIVE: the positive elements of a float vector, in order — [count], count known only at invoke. */
function positiveKernel(overBound = false): Registration<{ dims: Int32Array }> {
  return {
    builtinCode: BuiltinOperator.CUSTOM,
    customName: 'POSITIVE',
    provider: 'core-test',
    init: () => ({ dims: new Int32Array(1) }),
    prepare(ctx, node) {
      ctx.declareShapeBound(node.outputs[0]!, [ctx.getTensor(node.inputs[0]!).elementCount]);
    },
    invoke(ctx, node) {
      const d = node.userData as { dims: Int32Array };
      const x = ctx.getEvalTensor(node.inputs[0]!).data as Float32Array;
      const y = ctx.getEvalTensor(node.outputs[0]!).data as Float32Array;
      let n = 0;
      for (let i = 0; i < x.length; i++) if (x[i]! > 0) y[n++] = x[i]!;
      d.dims[0] = overBound ? x.length + 1 : n;
      ctx.setActualShape(node.outputs[0]!, d.dims);
    },
  };
}

/** SUM: out[0] = sum of the input's elements; `dynamic` reads the input's dims at invoke. */
function sumKernel(dynamic: boolean): Registration {
  return {
    builtinCode: BuiltinOperator.CUSTOM,
    customName: 'SUM',
    provider: 'core-test',
    dynamicInputShapes: dynamic,
    prepare(ctx, node) {
      ctx.resizeTensor(node.outputs[0]!, [1]);
    },
    invoke(ctx, node) {
      const x = ctx.getEvalTensor(node.inputs[0]!);
      let count = 1;
      for (let i = 0; i < x.dims.length; i++) count *= x.dims[i]!;
      const data = x.data as Float32Array;
      let s = 0;
      for (let i = 0; i < count; i++) s += data[i]!;
      (ctx.getEvalTensor(node.outputs[0]!).data as Float32Array)[0] = s;
    },
  };
}

/** in [6] → POSITIVE → positives (empty shape in the file, a graph output) → SUM → total [1]. */
function positivesModel() {
  return tinyModel(
    [
      { shape: [6], name: 'in' },
      { shape: [], name: 'positives' },
      { shape: [], name: 'total' },
    ],
    [
      { custom: 'POSITIVE', inputs: [0], outputs: [1] },
      { custom: 'SUM', inputs: [1], outputs: [2] },
    ],
    [0],
    [1, 2],
  );
}

function interpreter(model: ReturnType<typeof tinyModel>, ...kernels: Registration[]): MicroInterpreter {
  const resolver = new OpResolver();
  for (const k of kernels) resolver.register(k);
  return new MicroInterpreter(model, resolver, { planner: new TestLinearPlanner() });
}

describe('data-dependent output shapes (declareShapeBound / setActualShape)', () => {
  it('plans the bound, sets the actual dims at every invoke over the same bytes, and a dynamicInputShapes consumer reads them', () => {
    const interp = interpreter(positivesModel(), positiveKernel() as Registration, sumKernel(true)).allocateTensors();
    const out = interp.output(0);
    const data = out.data;
    expect(Array.from(out.upperBound ?? [])).toEqual([6]);
    expect(out.byteLength).toBe(24);
    for (const [input, positives] of [
      [
        [1, -2, 3, -4, 5, 0],
        [1, 3, 5],
      ],
      [[-1, -2, -3, -4, -5, -6], []],
      [
        [6, 5, 4, 3, 2, 1],
        [6, 5, 4, 3, 2, 1],
      ],
    ]) {
      interp.setInput(0, Float32Array.from(input!));
      interp.invoke();
      expect(Array.from(interp.output(0).dims)).toEqual([positives!.length]);
      expect(Array.from((interp.output(0).data as Float32Array).subarray(0, positives!.length))).toEqual(positives);
      expect(interp.output(0).data).toBe(data); // a view over the planned bound, never replaced
      expect((interp.output(1).data as Float32Array)[0]).toBe(positives!.reduce((a, b) => a + b, 0));
    }
    const bounded = (interp.check().shapes ?? []).filter((n) => n.kind === 'bounded');
    expect(bounded).toEqual([expect.objectContaining({ name: 'positives', fileShape: [], shape: [6], op: 'CUSTOM:POSITIVE' })]);
  });

  it('invoke with a data-dependent output allocates nothing', () => {
    const interp = interpreter(positivesModel(), positiveKernel() as Registration, sumKernel(true)).allocateTensors();
    interp.setInput(0, Float32Array.from([1, -2, 3, -4, 5, 0]));
    const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 5, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it('a consumer that sizes its work in prepare is refused before its prepare, naming the tensor and its bound', () => {
    const e = errorOf(() => interpreter(positivesModel(), positiveKernel() as Registration, sumKernel(false)).allocateTensors());
    expect(e).toBeInstanceOf(DataDependentShapeError);
    expect((e as DataDependentShapeError).tensor).toBe(1);
    expect((e as DataDependentShapeError).upperBound).toEqual([6]);
    expect(e.message).toMatch(/tensor 1, positives\) has a shape that depends on data \(at most \[6\]\)/);
    expect(e.message).toMatch(/dynamicInputShapes/);
  });

  it('check() reports the refused consumer with DataDependentShapeError, naming the tensor and its bound', () => {
    const report = interpreter(positivesModel(), positiveKernel() as Registration, sumKernel(false)).check();
    expect(report.ok).toBe(false);
    const failing = report.nodes.filter((n) => n.status !== 'ok');
    expect(failing.map((n) => n.op)).toEqual(['CUSTOM:SUM']);
    expect(JSON.stringify(failing[0])).toMatch(/DataDependentShapeError|depends on data \(at most \[6\]\)/);
  });

  it('a provider whose kernel sizes its work in prepare leaves a data-dependent input to the next one that reads actual dims', () => {
    // The front provider is chosen before POSITIVE prepares (its bound unknown then); core asks again.
    const calls: string[] = [];
    const front: Registration = {
      ...sumKernel(false),
      provider: 'front',
      name: 'SUM/front',
      init: () => (calls.push('front init'), { front: true }),
      free: (_ctx, data) => void calls.push(`front free ${JSON.stringify(data)}`),
    };
    const declining: Registration = { ...sumKernel(true), provider: 'picky', name: 'SUM/picky', supports: () => 'not this node' };
    const back: Registration = { ...sumKernel(true), provider: 'back', name: 'SUM/back', init: () => (calls.push('back init'), null) };
    const resolver = new OpResolver().register(positiveKernel() as Registration).register(back);
    resolver.register(declining, { fallback: true }).register(front, { fallback: true });
    const interp = new MicroInterpreter(positivesModel(), resolver, { planner: new TestLinearPlanner() }).allocateTensors();
    expect(calls).toEqual(['front init', 'front free {"front":true}', 'back init']);
    interp.setInput(0, Float32Array.from([1, -2, 3, -4, 5, 0]));
    interp.invoke();
    expect((interp.output(1).data as Float32Array)[0]).toBe(9);
    const sum = interp.check().nodes.find((n) => n.op === 'CUSTOM:SUM')!;
    expect(sum.status).toBe('ok');
    expect(sum.provider).toBe('back');
    expect(sum.declined).toEqual([
      {
        provider: 'front',
        kernel: 'SUM/front',
        reason: 'input 0 (tensor 1, positives) has a shape that depends on data (at most [6]); this kernel sizes its work in prepare',
      },
      { provider: 'picky', kernel: 'SUM/picky', reason: 'not this node' },
    ]);
    const info = interp.nodes().find((n) => n.op === 'CUSTOM:SUM')!;
    expect([info.provider, info.kernel, info.declinedBy]).toEqual(['back', 'SUM/back', ['front', 'picky']]);
  });

  it('no later provider that reads actual dims: still DataDependentShapeError, and the node keeps its kernel', () => {
    const resolver = new OpResolver().register(positiveKernel() as Registration).register(sumKernel(false));
    const declining: Registration = { ...sumKernel(true), provider: 'picky', supports: () => 'not this node' };
    resolver.register(declining, { fallback: true });
    // picky is in front and declines at resolution, the kernel without dynamicInputShapes is chosen; nobody after it.
    const e = errorOf(() => new MicroInterpreter(positivesModel(), resolver, { planner: new TestLinearPlanner() }).allocateTensors());
    expect(e).toBeInstanceOf(DataDependentShapeError);
    expect(e.message).toMatch(/kernel CUSTOM:SUM of core-test sizes its work in prepare/);
  });

  it('setActualShape over the bound throws TensorResizeError naming the tensor and the bound', () => {
    const interp = interpreter(positivesModel(), positiveKernel(true) as Registration, sumKernel(true)).allocateTensors();
    interp.setInput(0, Float32Array.from([1, 2, 3, 4, 5, 6]));
    const e = errorOf(() => interp.invoke());
    const inner = e instanceof TensorResizeError ? e : ((e as { cause?: unknown }).cause as Error | undefined);
    expect(`${e.message} ${inner?.message ?? ''}`).toMatch(/setActualShape\(1, \[7\]\): dimension 0 is 7 \(bound \[6\]\)/);
  });
});

describe('shapes computed in prepare (resizeTensor)', () => {
  const copyModel = () =>
    tinyModel(
      [
        { shape: [2, 3], name: 'x' },
        { shape: [], name: 'y' },
      ],
      [{ custom: 'COPY', inputs: [0], outputs: [1] }],
      [0],
      [1],
    );

  it("the computed shape wins over the file's (an empty shape), and check() lists the tensor as inferred", () => {
    const interp = interpreter(copyModel(), copyKernel).allocateTensors();
    expect(Array.from(interp.output(0).dims)).toEqual([2, 3]);
    expect(interp.output(0).byteLength).toBe(24);
    const notes = interp.check().shapes ?? [];
    expect(notes).toEqual([expect.objectContaining({ kind: 'inferred', name: 'y', fileShape: [], shape: [2, 3], op: 'CUSTOM:COPY' })]);
  });

  it("shapes: 'file' keeps TFLM's rule: a different computed shape is a TensorResizeError naming both shapes", () => {
    const interp = new MicroInterpreter(copyModel(), new OpResolver().register(copyKernel), {
      planner: new TestLinearPlanner(),
      shapes: 'file',
    });
    expect(() => interp.allocateTensors()).toThrow(/has shape \[\] in the file; the inputs give \[2, 3\]/);
  });

  it('a kernel cannot resize a tensor that is not its output', () => {
    const bad: Registration = {
      ...copyKernel,
      prepare(ctx, node) {
        ctx.resizeTensor(node.inputs[0]!, [4]);
      },
    };
    expect(() => interpreter(copyModel(), bad).allocateTensors()).toThrow(/resizeTensor: tensor 0 \(x\) is not an output of this node/);
  });
});

describe('resizeInputTensor + allocateTensors', () => {
  const model = () => {
    const m = tinyModel(
      [
        { shape: [1, 3], name: 'x' },
        { shape: [1, 3], name: 'y' },
        { shape: [1, 3], name: 'z' },
      ],
      [
        { custom: 'COPY', inputs: [0], outputs: [1] },
        { custom: 'COPY', inputs: [1], outputs: [2] },
      ],
      [0],
      [2],
    );
    m.subgraphs[0]!.tensors[0]!.shapeSignature = Int32Array.of(-1, 3);
    return m;
  };

  it('re-plans every shape for the new input shape; invoke stays allocation-free', () => {
    const interp = interpreter(model(), copyKernel).allocateTensors();
    const before = interp.arenaUsage().headBytes;
    interp.resizeInputTensor(0, [4, 3], { strict: true });
    expect(interp.status).toBe('resized');
    expect(() => interp.invoke()).toThrow(InterpreterStateError);
    interp.allocateTensors();
    expect(interp.status).toBe('allocated');
    expect(Array.from(interp.input(0).dims)).toEqual([4, 3]);
    expect(Array.from(interp.output(0).dims)).toEqual([4, 3]);
    expect(interp.arenaUsage().headBytes).toBeGreaterThan(before);
    const x = Float32Array.from({ length: 12 }, (_, i) => i - 5);
    interp.setInput(0, x);
    interp.invoke();
    expect(Array.from(interp.output(0).data as Float32Array)).toEqual(Array.from(x));
    expect((interp.check().shapes ?? []).map((n) => `${n.kind} ${n.name}`)).toEqual(['resized x', 'inferred y', 'inferred z']);
    const m = measureAllocation(() => interp.invoke(), { warmup: 500, trials: 5, iterations: 1000 });
    expect(m.medianTrialBytes, `heap deltas per trial: ${m.deltas.join(', ')}`).toBeLessThan(4096);
    // Back to the file's shape: nothing is listed as resized any more.
    interp.resizeInputTensor(0, [1, 3]);
    interp.allocateTensors();
    expect(Array.from(interp.output(0).dims)).toEqual([1, 3]);
    expect(interp.check().shapes ?? []).toEqual([]);
  });

  it('the current shape changes nothing; strict allows only the -1 dimensions; bad dims and indices are InputErrors', () => {
    const interp = interpreter(model(), copyKernel).allocateTensors();
    interp.resizeInputTensor(0, [1, 3]);
    expect(interp.status).toBe('allocated');
    expect(() => interp.resizeInputTensor(0, [4, 5], { strict: true })).toThrow(/dimension 1 of input 0 \(tensor 0, x\) is fixed at 3/);
    expect(() => interp.resizeInputTensor(0, [4], { strict: true })).toThrow(/has rank 2/);
    expect(() => interp.resizeInputTensor(0, [-1, 3])).toThrow(InputError);
    expect(() => interp.resizeInputTensor(1, [1, 3])).toThrow(/input index 1 out of range/);
    // Non-strict: any shape (as TFLite's ResizeInputTensor).
    interp.resizeInputTensor(0, [2, 2, 3]);
    interp.allocateTensors();
    expect(Array.from(interp.output(0).dims)).toEqual([2, 2, 3]);
  });
});
