import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import { KernelError } from '../errors.js';
import type { AbsorbedPad, Registration } from '../kernel/api.js';
import { ModelBuilder, type TensorSpec } from '../model/model-builder.js';
import type { ModelDef } from '../model/model-def.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { TensorType } from '../types.js';
import { checkModel } from './check.js';
import { MicroInterpreter } from './micro-interpreter.js';
import { MicroProfiler } from './profiler.js';
import { TestLinearPlanner } from './__fixtures__/tiny-models.js';

const planner = new TestLinearPlanner();

/** A PAD / PADV2 of any rank: out[i] = in[i − before] inside, else the constant value (default: the zero point). */
const padKernel = (code: number): Registration => ({
  builtinCode: code,
  provider: 'test',
  name: 'pad',
  prepare(ctx, node) {
    const input = ctx.getTensor(node.inputs[0]!);
    const paddings = ctx.getTensor(node.inputs[1]!);
    if (!paddings.isConstant) return; // the file's shape (this test feeds the same paddings)
    const p = paddings.data as Int32Array;
    ctx.resizeTensor(
      node.outputs[0]!,
      Array.from(input.dims, (d, k) => d + p[2 * k]! + p[2 * k + 1]!),
    );
  },
  invoke(ctx, node) {
    const input = ctx.getEvalTensor(node.inputs[0]!);
    const out = ctx.getEvalTensor(node.outputs[0]!);
    const p = ctx.getEvalTensor(node.inputs[1]!).data as Int32Array;
    const v = node.inputs.length > 2 ? Number(ctx.getEvalTensor(node.inputs[2]!).data[0]) : (node.userData as number);
    const rank = out.dims.length;
    const idx = new Array<number>(rank).fill(0);
    for (let o = 0; o < out.data.length; o++) {
      let rest = o;
      for (let k = rank - 1; k >= 0; k--) {
        idx[k] = rest % out.dims[k]!;
        rest = Math.floor(rest / out.dims[k]!);
      }
      let src = 0;
      let inside = true;
      for (let k = 0; k < rank; k++) {
        const i = idx[k]! - p[2 * k]!;
        if (i < 0 || i >= input.dims[k]!) inside = false;
        src = src * input.dims[k]! + i;
      }
      out.data[o] = inside ? input.data[src]! : v;
    }
  },
  init: () => 0,
});

/** Sets the implicit pad value to the output's zero point (as TFLM's int8 PAD). */
const zpPad = (code: number): Registration => {
  const base = padKernel(code);
  return {
    ...base,
    prepare(ctx, node) {
      base.prepare!(ctx, node);
      node.userData = ctx.getTensor(node.outputs[0]!).params.zeroPoint;
    },
  };
};

/**
 * A CONV_2D stand-in that implements explicit padding: its output is its (padded) input, each pixel
 * outside the source the zero point. `absorb`: it asks for the PAD (else it reads the padded copy).
 */
function windowKernel(absorb: boolean, log: (AbsorbedPad | null)[] = [], fail = false): Registration {
  return {
    builtinCode: BuiltinOperator.CONV_2D,
    provider: 'test',
    name: absorb ? 'window-absorbing' : 'window',
    init: () => ({ top: 0, left: 0, zp: 0 }),
    prepare(ctx, node) {
      const input = ctx.getTensor(node.inputs[0]!);
      ctx.resizeTensor(node.outputs[0]!, input.dims);
      const zp = input.type === TensorType.FLOAT32 ? 0 : input.params.zeroPoint;
      const pad = absorb ? ctx.absorbPad(node, 0) : null;
      log.push(pad);
      node.userData = { top: pad?.top ?? 0, left: pad?.left ?? 0, zp };
      if (fail) throw new KernelError('CONV_2D', node.index, 'fails after absorbing');
    },
    invoke(ctx, node) {
      const { top, left, zp } = node.userData as { top: number; left: number; zp: number };
      const input = ctx.getEvalTensor(node.inputs[0]!);
      const out = ctx.getEvalTensor(node.outputs[0]!);
      const [n, h, w, c] = Array.from(out.dims);
      const [, ih, iw] = Array.from(input.dims);
      for (let b = 0; b < n!; b++)
        for (let y = 0; y < h!; y++)
          for (let x = 0; x < w!; x++)
            for (let k = 0; k < c!; k++) {
              const sy = y - top;
              const sx = x - left;
              const inside = sy >= 0 && sy < ih! && sx >= 0 && sx < iw!;
              out.data[((b * h! + y) * w! + x) * c! + k] = inside ? input.data[((b * ih! + sy) * iw! + sx) * c! + k]! : zp;
            }
    },
  };
}

interface Variant {
  type?: TensorType;
  paddings?: number[];
  /** The paddings are a graph input (not constant). */
  dynamicPaddings?: boolean;
  /** PADV2 with this constant value. */
  value?: number;
  /** The padded tensor is also a graph output. */
  paddedIsOutput?: boolean;
  /** A second node reads the padded tensor. */
  sharedReader?: boolean;
  /** Padded tensor quantized differently from its source. */
  otherZp?: boolean;
}

const ZP = -3;

/** input [1,3,4,2] → PAD(V2) → padded → CONV_2D stand-in → out (and the variants). */
function padModel(v: Variant = {}): ModelDef {
  const type = v.type ?? TensorType.INT8;
  const q = type === TensorType.FLOAT32 ? {} : { quantization: { scale: 0.5, zeroPoint: ZP } };
  const pads = v.paddings ?? [0, 0, 1, 2, 0, 3, 0, 0];
  const paddedDims = [1, 3, 4, 2].map((d, k) => d + pads[2 * k]! + pads[2 * k + 1]!);
  const b = new ModelBuilder();
  const t = (spec: TensorSpec) => b.addTensor(spec);
  const x = t({ name: 'x', type, shape: [1, 3, 4, 2], ...q });
  const p = t({ name: 'paddings', type: TensorType.INT32, shape: [4, 2], ...(v.dynamicPaddings ? {} : { data: Int32Array.from(pads) }) });
  const padded = t({
    name: 'padded',
    type,
    shape: paddedDims,
    ...(v.otherZp ? { quantization: { scale: 0.5, zeroPoint: ZP + 1 } } : q),
  });
  const w = t({ name: 'w', type: TensorType.INT8, shape: [1, 1, 1, 1], data: Int8Array.of(1) });
  const y = t({ name: 'y', type, shape: paddedDims, ...q });
  const padInputs = [x, p];
  if (v.value !== undefined) {
    const data = type === TensorType.FLOAT32 ? Float32Array.of(v.value) : Int8Array.of(v.value);
    padInputs.push(t({ name: 'value', type, shape: [], data, ...q }));
  }
  b.addOperator({ op: v.value !== undefined ? BuiltinOperator.PADV2 : BuiltinOperator.PAD, inputs: padInputs, outputs: [padded] });
  b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [padded, w], outputs: [y] });
  const outputs = [y];
  if (v.sharedReader) {
    const z = t({ name: 'z', type, shape: paddedDims, ...q });
    b.addOperator({ op: BuiltinOperator.CONV_2D, inputs: [padded, w], outputs: [z] });
    outputs.push(z);
  }
  if (v.paddedIsOutput) outputs.push(padded);
  b.setInputs(v.dynamicPaddings ? [x, p] : [x]).setOutputs(outputs);
  return b.buildDef();
}

function resolver(consumer: Registration): OpResolver {
  return new OpResolver().register(zpPad(BuiltinOperator.PAD)).register(zpPad(BuiltinOperator.PADV2)).register(consumer);
}

function runModel(model: ModelDef, consumer: Registration, options: { offlineOffsets?: Int32Array | null } = {}) {
  const it_ = new MicroInterpreter(model, resolver(consumer), { planner, ...options }).allocateTensors();
  const x = it_.input(0);
  for (let i = 0; i < x.data.length; i++) x.data[i] = ((i * 7) % 11) - 5;
  if (it_.inputsSize > 1) (it_.input(1).data as Int32Array).set([0, 0, 1, 2, 0, 3, 0, 0]);
  it_.invoke();
  return it_;
}

const outBytes = (it_: MicroInterpreter, j = 0) => Array.from(it_.output(j).bytes);

describe('PAD absorption (context.absorbPad)', () => {
  it('succeeds for a PAD of H and W before a kernel that asks: rewires the consumer, skips the PAD, plans less, same bytes', () => {
    for (const type of [TensorType.INT8, TensorType.FLOAT32]) {
      const model = padModel({ type });
      const log: (AbsorbedPad | null)[] = [];
      const absorbed = runModel(model, windowKernel(true, log));
      const copied = runModel(model, windowKernel(false));
      expect(log).toEqual([{ source: 0, padded: 2, padNode: 0, top: 1, bottom: 2, left: 0, right: 3 }]);
      const [pad, conv] = absorbed.nodes();
      expect(pad!.absorbedInto).toBe(1);
      expect(conv!.inputs[0]).toBe(0);
      expect(copied.nodes()[0]!.absorbedInto).toBeUndefined();
      // the model is not changed: a new interpreter sees the PAD's output as the consumer's input
      expect(Array.from(model.subgraphs[0]!.operators[1]!.inputs)).toEqual([2, 3]);
      const planned = (i: MicroInterpreter) => i.memoryPlan().requirements.map((r) => r.id);
      expect(planned(absorbed)).not.toContain(2);
      expect(planned(copied)).toContain(2);
      expect(absorbed.arenaUsage().headBytes).toBeLessThan(copied.arenaUsage().headBytes);
      expect(outBytes(absorbed)).toEqual(outBytes(copied));
    }
  });

  it('declines (null, nothing changed, the PAD runs) for every condition that does not hold', () => {
    const cases: [string, Variant][] = [
      ['a second reader of the padded tensor', { sharedReader: true }],
      ['the padded tensor is a graph output', { paddedIsOutput: true }],
      ['PADV2 with a value other than the zero point', { value: ZP + 2 }],
      ['paddings that are not constant', { dynamicPaddings: true }],
      ['batch padding', { paddings: [1, 0, 1, 0, 0, 0, 0, 0] }],
      ['channel padding', { paddings: [0, 0, 1, 0, 0, 0, 0, 1] }],
      ['negative padding', { paddings: [0, 0, 1, 0, -1, 0, 0, 0] }],
      ['a padded tensor quantized unlike its source', { otherZp: true }],
      ['float32 PADV2 with -0.0', { type: TensorType.FLOAT32, value: -0 }],
    ];
    for (const [what, v] of cases) {
      const model = padModel(v);
      const log: (AbsorbedPad | null)[] = [];
      const it_ = runModel(model, windowKernel(true, log));
      expect(log[0], what).toBeNull();
      expect(it_.nodes()[0]!.absorbedInto, what).toBeUndefined();
      expect(it_.nodes()[1]!.inputs[0], what).toBe(2);
      expect(outBytes(it_), what).toEqual(outBytes(runModel(model, windowKernel(false))));
    }
  });

  it('PADV2 whose value is the zero point is absorbed', () => {
    const it_ = runModel(padModel({ value: ZP }), windowKernel(true));
    expect(it_.nodes()[0]!.absorbedInto).toBe(1);
    expect(outBytes(it_)).toEqual(outBytes(runModel(padModel({ value: ZP }), windowKernel(false))));
  });

  it('declines under an offline memory plan', () => {
    const model = padModel();
    const offline = new Int32Array(model.subgraphs[0]!.tensors.length).fill(-1);
    const it_ = runModel(model, windowKernel(true), { offlineOffsets: offline });
    expect(it_.nodes()[0]!.absorbedInto).toBeUndefined();
  });

  it('is undone when the consumer fails after absorbing; a second allocation absorbs again', () => {
    const model = padModel();
    const report = checkModel(model, resolver(windowKernel(true, [], true)));
    expect(report.nodes[1]!.status).toBe('prepare-failed');
    expect(report.nodes[0]!.absorbedInto).toBeUndefined();
    expect(report.nodes[1]!.inputs[0]!.index).toBe(2);
    const ok = checkModel(model, resolver(windowKernel(true)));
    expect(ok.nodes[0]).toMatchObject({ status: 'ok', absorbedInto: 1 });

    const log: (AbsorbedPad | null)[] = [];
    const it_ = runModel(model, windowKernel(true, log));
    const first = outBytes(it_);
    it_.resizeInputTensor(0, [2, 3, 4, 2]);
    it_.allocateTensors();
    expect(log.length).toBe(2);
    expect(log[1]).not.toBeNull();
    expect(it_.nodes()[0]!.absorbedInto).toBe(1);
    (it_.input(0).data as Int8Array).fill(1);
    it_.invoke();
    expect(Array.from(it_.output(0).dims)).toEqual([2, 6, 7, 2]);
    it_.reset();
    it_.dispose();
    expect(first.length).toBe(6 * 7 * 2);
  });

  it('the profiler records no event for the absorbed PAD', () => {
    const profiler = new MicroProfiler();
    const it_ = new MicroInterpreter(padModel(), resolver(windowKernel(true)), { planner, profiler }).allocateTensors();
    it_.invoke();
    expect(profiler.events().map((e) => e.nodeIndex)).toEqual([1]);
  });

  it('only the node being prepared may ask', () => {
    const other: Registration = {
      ...windowKernel(true),
      prepare(ctx, node) {
        ctx.resizeTensor(node.outputs[0]!, ctx.getTensor(node.inputs[0]!).dims);
        const fake = { ...node, index: 99 };
        ctx.absorbPad(fake, 0);
      },
    };
    expect(() => runModel(padModel(), other)).toThrow(/only the node being prepared/);
  });
});
