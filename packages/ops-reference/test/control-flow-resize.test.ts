/**
 * IF and WHILE whose branch, cond or body subgraph stores other input shapes than the node passes
 * ([1, 4] or an empty shape where the node passes [2, 4]): TFLite resizes the subgraph's inputs to the
 * node's and prepares it again; micrort does the same through core's `resizeSubgraphInput` /
 * `prepareSubgraph`, so the subgraph is planned at the node's shapes. Checked against TFLite 2.9 (the
 * tfjs-tflite-node oracle) on the same models; invoke allocates nothing; a subgraph two callers need
 * at different shapes (or prepared before its caller at other shapes) and a WHILE body that changes a
 * loop value's shape are refused with typed errors; only a node that invokes a subgraph may resize it,
 * and only in prepare.
 */
import { describe, expect, it } from 'vitest';
import {
  BuiltinOperator,
  KernelError,
  MicroInterpreter,
  ModelBuilder,
  OpResolver,
  PhaseError,
  SubgraphShapeError,
  TensorType,
  loadModel,
  type Registration,
} from '@micrort/core';
import { createPlanner } from '@micrort/planners';
import { measureAllocation } from '@micrort/test-support/alloc';
import { ORACLE_SKIP_REASON, TfliteOracle, compareWithTflite, oracleAvailable, randomInputs } from '@micrort/test-support/tflite-oracle';
import { registerReferenceOps } from '../src/index.js';

const F32 = TensorType.FLOAT32;
const I32 = TensorType.INT32;
const BOOL = TensorType.BOOL;

function interpreter(bytes: Uint8Array): MicroInterpreter {
  return new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()), {
    planner: createPlanner('greedy'),
  }).allocateTensors();
}

function refused(bytes: Uint8Array): Error {
  try {
    interpreter(bytes);
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected allocateTensors to fail');
}

/** A subgraph computing `op(a, b)` of two float inputs stored as `shape`. */
function binary(b: ModelBuilder, name: string, op: BuiltinOperator, shape: number[]): number {
  const s = b.addSubgraph(name);
  const x = b.addTensor({ name: `${name}_a`, type: F32, shape });
  const y = b.addTensor({ name: `${name}_b`, type: F32, shape });
  const z = b.addTensor({ name: `${name}_out`, type: F32, shape });
  b.addOperator({ op, inputs: [x, y], outputs: [z] });
  b.setInputs([x, y]).setOutputs([z]);
  return s;
}

/** out = IF(cond, a, b) on [2, 4]: then = a + b stored [1, 4], else = a * b stored with empty shapes. */
function ifModel(thenShape: number[] = [1, 4], elseShape: number[] = []): Uint8Array {
  const b = new ModelBuilder();
  const cond = b.addTensor({ name: 'cond', type: BOOL, shape: [1] });
  const a = b.addTensor({ name: 'a', type: F32, shape: [2, 4] });
  const c = b.addTensor({ name: 'b', type: F32, shape: [2, 4] });
  const out = b.addTensor({ name: 'out', type: F32, shape: [2, 4] });
  b.setInputs([cond, a, c]).setOutputs([out]);
  const t = binary(b, 'then', BuiltinOperator.ADD, thenShape);
  const e = binary(b, 'else', BuiltinOperator.MUL, elseShape);
  b.selectSubgraph(0);
  b.addOperator({ op: BuiltinOperator.IF, inputs: [cond, a, c], outputs: [out], options: { thenSubgraphIndex: t, elseSubgraphIndex: e } });
  return b.build();
}

/**
 * main: (n_out, x_out) = WHILE(n int32 [1], x float [2, 4]); cond = CAST(n) to bool with x stored as
 * `condX`; the body is the subgraph `addBody` adds (called after cond, returning its index).
 */
function whileGraph(b: ModelBuilder, condX: number[], addBody: () => number): Uint8Array {
  const n = b.addTensor({ name: 'n', type: I32, shape: [1] });
  const x = b.addTensor({ name: 'x', type: F32, shape: [2, 4] });
  const nOut = b.addTensor({ name: 'n_out', type: I32, shape: [1] });
  const xOut = b.addTensor({ name: 'x_out', type: F32, shape: [2, 4] });
  b.setInputs([n, x]).setOutputs([nOut, xOut]);
  const cond = b.addSubgraph('cond');
  const cn = b.addTensor({ name: 'cn', type: I32, shape: [1] });
  const cx = b.addTensor({ name: 'cx', type: F32, shape: condX });
  const cb = b.addTensor({ name: 'cb', type: BOOL, shape: [1] });
  b.addOperator({ op: BuiltinOperator.CAST, inputs: [cn], outputs: [cb], options: { inDataType: I32, outDataType: BOOL } });
  b.setInputs([cn, cx]).setOutputs([cb]);
  const body = addBody();
  b.selectSubgraph(0);
  b.addOperator({
    op: BuiltinOperator.WHILE,
    inputs: [n, x],
    outputs: [nOut, xOut],
    options: { condSubgraphIndex: cond, bodySubgraphIndex: body },
  });
  return b.build();
}

/**
 * Loop values n (int32 [1]) and x (float [2, 4]); cond = CAST(n) to bool, with x stored as [1, 4];
 * body: n' = n - 1, x' = x * k with x and x' stored as `bodyX` and k a constant of shape `kShape`.
 */
function whileModel(bodyX: number[] = [1, 4], kShape: number[] = [4]): Uint8Array {
  const b = new ModelBuilder();
  return whileGraph(b, [1, 4], () => {
    const body = b.addSubgraph('body');
    const bn = b.addTensor({ name: 'bn', type: I32, shape: [1] });
    const bx = b.addTensor({ name: 'bx', type: F32, shape: bodyX });
    const one = b.addTensor({ name: 'one', type: I32, shape: [1], data: new Int32Array([1]) });
    const kCount = kShape.reduce((p, q) => p * q, 1);
    const k = b.addTensor({
      name: 'k',
      type: F32,
      shape: kShape,
      data: Float32Array.from({ length: kCount }, (_, i) => 1.5 - 0.25 * (i % 4)),
    });
    const bn1 = b.addTensor({ name: 'bn1', type: I32, shape: [1] });
    const bx1 = b.addTensor({ name: 'bx1', type: F32, shape: bodyX });
    b.addOperator({ op: BuiltinOperator.SUB, inputs: [bn, one], outputs: [bn1] });
    b.addOperator({ op: BuiltinOperator.MUL, inputs: [bx, k], outputs: [bx1] });
    b.setInputs([bn, bx]).setOutputs([bn1, bx1]);
    return body;
  });
}

const f32 = (v: number[]) => new Uint8Array(Float32Array.from(v).buffer);
const x8 = Array.from({ length: 8 }, (_, i) => i - 3.5);
const y8 = Array.from({ length: 8 }, (_, i) => 0.25 * i - 1);

describe("IF and WHILE resize their subgraphs to the node's shapes", () => {
  it('IF: a then-branch stored [1, 4] and an else-branch stored [] run at [2, 4]', () => {
    const interp = interpreter(ifModel());
    interp.setInput(1, f32(x8));
    interp.setInput(2, f32(y8));
    for (const c of [1, 0]) {
      interp.setInput(0, new Uint8Array([c]));
      interp.invoke();
      const got = Array.from(new Float32Array(interp.output(0).bytes.slice().buffer));
      expect(got).toEqual(x8.map((v, i) => Math.fround(c ? v + y8[i]! : v * y8[i]!)));
    }
  });

  it('WHILE: cond and body stored [1, 4] run at [2, 4]', () => {
    const interp = interpreter(whileModel());
    interp.setInput(0, new Int32Array([3]));
    interp.setInput(1, f32(x8));
    interp.invoke();
    const k = [1.5, 1.25, 1, 0.75];
    const want = x8.map((v, i) => Math.fround(Math.fround(Math.fround(v * k[i % 4]!) * k[i % 4]!) * k[i % 4]!));
    expect(Array.from(new Float32Array(interp.output(1).bytes.slice().buffer))).toEqual(want);
    expect(Array.from(new Int32Array(interp.output(0).bytes.slice().buffer))).toEqual([0]);
  });

  it("plans the resized subgraphs as ones stored at the node's shapes, and allocates nothing in invoke", () => {
    expect(interpreter(ifModel()).arenaUsage().headBytes).toBe(interpreter(ifModel([2, 4], [2, 4])).arenaUsage().headBytes);
    expect(interpreter(whileModel()).arenaUsage().headBytes).toBe(interpreter(whileModel([2, 4])).arenaUsage().headBytes);
    const i1 = interpreter(ifModel());
    i1.setInput(0, new Uint8Array([1]));
    i1.setInput(1, f32(x8));
    i1.setInput(2, f32(y8));
    const m1 = measureAllocation(() => i1.invoke(), { warmup: 300, trials: 5, iterations: 300 });
    expect(m1.medianTrialBytes, `heap deltas per trial: ${m1.deltas.join(', ')}`).toBeLessThan(4096);
    const i2 = interpreter(whileModel());
    i2.setInput(0, new Int32Array([2]));
    i2.setInput(1, f32(x8));
    const m2 = measureAllocation(() => i2.invoke(), { warmup: 300, trials: 5, iterations: 300 });
    expect(m2.medianTrialBytes, `heap deltas per trial: ${m2.deltas.join(', ')}`).toBeLessThan(4096);
  });

  it("refuses a WHILE body that changes a loop value's shape (TFLite's dynamic case)", () => {
    // x' = x * k with k [2, 1, 4]: MUL broadcasts the [2, 4] loop value to [2, 2, 4].
    const e = refused(whileModel([1, 4], [2, 1, 4]));
    expect(e).toBeInstanceOf(KernelError);
    expect(e.message).toMatch(/body subgraph 2 turns loop-carried value 1 of shape \[2, 4\] into \[2, 2, 4\]/);
  });

  it('refuses a branch two IF nodes need at different shapes with a SubgraphShapeError naming both', () => {
    const b = new ModelBuilder();
    const cond = b.addTensor({ name: 'cond', type: BOOL, shape: [1] });
    const a = b.addTensor({ name: 'a', type: F32, shape: [2, 4] });
    const c = b.addTensor({ name: 'c', type: F32, shape: [3, 4] });
    const o1 = b.addTensor({ name: 'o1', type: F32, shape: [2, 4] });
    const o2 = b.addTensor({ name: 'o2', type: F32, shape: [3, 4] });
    b.setInputs([cond, a, c]).setOutputs([o1, o2]);
    const t = binary(b, 'then', BuiltinOperator.ADD, [1, 4]);
    const e = binary(b, 'else', BuiltinOperator.MUL, [1, 4]);
    b.selectSubgraph(0);
    b.addOperator({ op: BuiltinOperator.IF, inputs: [cond, a, a], outputs: [o1], options: { thenSubgraphIndex: t, elseSubgraphIndex: e } });
    b.addOperator({ op: BuiltinOperator.IF, inputs: [cond, c, c], outputs: [o2], options: { thenSubgraphIndex: t, elseSubgraphIndex: e } });
    const err = refused(b.build());
    expect(err).toBeInstanceOf(SubgraphShapeError);
    expect(err.message).toMatch(
      /input 0 of subgraph 1 \(tensor 0, then_a\) is planned once per allocation: IF \(node 0 of subgraph 0\) needs \[2, 4\], this node \[3, 4\]/,
    );
  });
});

describe('the core contract (context.resizeSubgraphInput / prepareSubgraph)', () => {
  it('refuses a subgraph already prepared at other shapes before its caller asks (it precedes the caller)', () => {
    // main: WHILE(n, x [2, 4]) with cond 1 and body 3 stored at [2, 4]; body: x' = IF(flag, x, x) with
    // branches 2 stored [1, 4]. Branch subgraph 2 prepares (model order) before body 3 reaches its IF.
    const b = new ModelBuilder();
    const model = whileGraph(b, [2, 4], () => {
      const branch = binary(b, 'branch', BuiltinOperator.ADD, [1, 4]);
      const body = b.addSubgraph('body');
      const bn = b.addTensor({ name: 'bn', type: I32, shape: [1] });
      const bx = b.addTensor({ name: 'bx', type: F32, shape: [2, 4] });
      const one = b.addTensor({ name: 'one', type: I32, shape: [1], data: new Int32Array([1]) });
      const bn1 = b.addTensor({ name: 'bn1', type: I32, shape: [1] });
      const flag = b.addTensor({ name: 'flag', type: BOOL, shape: [1] });
      const bx1 = b.addTensor({ name: 'bx1', type: F32, shape: [2, 4] });
      b.addOperator({ op: BuiltinOperator.SUB, inputs: [bn, one], outputs: [bn1] });
      b.addOperator({ op: BuiltinOperator.CAST, inputs: [bn1], outputs: [flag], options: { inDataType: I32, outDataType: BOOL } });
      b.addOperator({
        op: BuiltinOperator.IF,
        inputs: [flag, bx, bx],
        outputs: [bx1],
        options: { thenSubgraphIndex: branch, elseSubgraphIndex: branch },
      });
      b.setInputs([bn, bx]).setOutputs([bn1, bx1]);
      return body;
    });
    const e = refused(model);
    expect(e).toBeInstanceOf(SubgraphShapeError);
    expect(e.message).toMatch(
      /input 0 of subgraph 2 \(tensor 0, branch_a\) already prepared at \[1, 4\], before this node asked for \[2, 4\]/,
    );
  });

  it('only a node that invokes the subgraph may resize or prepare it, and only in prepare', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: F32, shape: [2, 4] });
    const y = b.addTensor({ name: 'y', type: F32, shape: [2, 4] });
    b.addOperator({ op: BuiltinOperator.ABS, inputs: [x], outputs: [y] });
    b.setInputs([x]).setOutputs([y]);
    binary(b, 'other', BuiltinOperator.ADD, [1, 4]);
    const bytes = b.selectSubgraph(0).build();
    const probe = (call: 'resize' | 'prepare', phase: 'prepare' | 'invoke'): Registration => ({
      builtinCode: BuiltinOperator.ABS,
      provider: 'probe',
      name: 'ABS',
      prepare: (ctx, node) => {
        ctx.resizeTensor(node.outputs[0]!, ctx.getTensor(node.inputs[0]!).dims);
        if (phase !== 'prepare') return;
        if (call === 'resize') ctx.resizeSubgraphInput(1, 0, [2, 4]);
        else ctx.prepareSubgraph(1);
      },
      invoke: (ctx) => (call === 'resize' ? ctx.resizeSubgraphInput(1, 0, [2, 4]) : ctx.prepareSubgraph(1)),
    });
    const make = (r: Registration) =>
      new MicroInterpreter(loadModel(bytes), registerReferenceOps(new OpResolver()).register(r, { override: true }), {
        planner: createPlanner('greedy'),
      }).allocateTensors();
    expect(() => make(probe('resize', 'prepare'))).toThrow(
      /resizeSubgraphInput\(1\): ABS \(node 0 of subgraph 0\) does not invoke subgraph 1/,
    );
    expect(() => make(probe('prepare', 'prepare'))).toThrow(
      /prepareSubgraph\(1\): ABS \(node 0 of subgraph 0\) does not invoke subgraph 1/,
    );
    const interp = make(probe('resize', 'invoke'));
    expect(() => interp.invoke()).toThrow(PhaseError);
  });
});

describe.skipIf(!oracleAvailable)(`resized control flow vs TFLite 2.9 (${ORACLE_SKIP_REASON ?? 'oracle loaded'})`, () => {
  const cases: [string, Uint8Array, (inputs: Uint8Array[]) => void][] = [
    ['IF, then true', ifModel(), (i) => (i[0] = new Uint8Array([1]))],
    ['IF, then false', ifModel(), (i) => (i[0] = new Uint8Array([0]))],
    ['WHILE, 3 iterations', whileModel(), (i) => (i[0] = new Uint8Array(new Int32Array([3]).buffer))],
    ['WHILE, 0 iterations', whileModel(), (i) => (i[0] = new Uint8Array(new Int32Array([0]).buffer))],
  ];
  for (const [name, bytes, fix] of cases)
    it(`${name}: micrort equals TFLite`, () => {
      const inputs = randomInputs(new TfliteOracle(bytes).inputs, 0x5151, [-2, 2]);
      fix(inputs);
      const cmp = compareWithTflite(bytes, inputs);
      expect(cmp.pass, JSON.stringify(cmp.outputs)).toBe(true);
      // ADD, MUL and SUB round once per element, so TFLite's values are matched exactly (max |Δ| 0).
      cmp.got.forEach((g, j) => expect(Buffer.from(g).equals(Buffer.from(cmp.expected[j]!)), `output ${j}`).toBe(true));
      expect(cmp.got[cmp.got.length - 1]!.byteLength).toBe(32);
    });
});
