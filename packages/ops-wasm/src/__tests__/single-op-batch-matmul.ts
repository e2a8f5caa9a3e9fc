/**
 * Test support for BATCH_MATMUL: random single-operator models (float32, int8 or int16) with ranks 2 to
 * 5, broadcast batch dims, adj_x / adj_y, and constant or runtime operands, built with ModelBuilder.
 */
import { BuiltinOperator, ModelBuilder, TensorType, type ModelDef } from '@micrort/core';
import { floats } from './single-op-float.js';
import { int, rng } from './single-op.js';

/** The shape and flags of a random BATCH_MATMUL case. */
export interface BatchMatMulCase {
  type: TensorType;
  /** Stored dims of LHS and RHS (adj_x / adj_y already applied). */
  lhs: number[];
  rhs: number[];
  out: number[];
  adjX: boolean;
  adjY: boolean;
  constLhs: boolean;
  constRhs: boolean;
  /** Quantization (integer types): scales and zero points of LHS, RHS, output. */
  q: { scale: number; zeroPoint: number }[];
  seed: number;
}

/**
 * A random case: up to three broadcast batch dims of 1 to 3 (each operand keeps a dim or broadcasts it,
 * and may drop leading dims), rows 1 to `maxRows`, columns 1 to 21, depth 1 to 45. Integer types get
 * nonzero LHS and output zero points (int8; int16's are 0), RHS zero points only when `rhsZeroPoint`.
 */
export function randomBatchMatMulCase(seed: number, type: TensorType, maxRows = 11): BatchMatMulCase {
  const r = rng(seed);
  const nb = int(r, 0, 3);
  const batch = Array.from({ length: nb }, () => int(r, 1, 3));
  const operandBatch = () => {
    const keep = int(r, 0, nb);
    return batch.slice(nb - keep).map((b) => (r() < 0.3 ? 1 : b));
  };
  let lb = operandBatch();
  let rb = operandBatch();
  // sometimes a plain matrix against batched RHS, or batched LHS against a plain matrix
  const plain = r();
  if (plain < 0.2) lb = [];
  else if (plain < 0.35) rb = [];
  // the output has the larger rank, each batch dim the larger of the two (one of them is 1 or both equal)
  const rank = Math.max(lb.length, rb.length);
  const pad = (x: number[]) =>
    Array<number>(rank - x.length)
      .fill(1)
      .concat(x);
  const outBatch = pad(lb).map((v, i) => Math.max(v, pad(rb)[i]!));
  const rows = int(r, 1, maxRows);
  const cols = int(r, 1, 21);
  const depth = int(r, 1, 45);
  const adjX = r() < 0.4;
  const adjY = r() < 0.5;
  const int8 = type === TensorType.INT8;
  const q: BatchMatMulCase['q'] = [];
  if (type !== TensorType.FLOAT32) {
    q.push({ scale: 0.02 + r() * 0.05, zeroPoint: int8 ? int(r, -30, 30) : 0 });
    q.push({ scale: 0.01 + r() * 0.05, zeroPoint: int8 && r() < 0.5 ? int(r, -20, 20) : 0 });
    // int16: full-range values sum to about sqrt(depth) * 2^30 / 3; an output scale that maps that to
    // about 12000 keeps most outputs inside int16 (a few saturate)
    const typical = int8 ? 1 : (q[0]!.scale * q[1]!.scale * 2 ** 30 * Math.sqrt(depth)) / 3 / 12000;
    q.push({ scale: int8 ? 0.05 + r() * 0.3 : typical * (0.5 + r()), zeroPoint: int8 ? int(r, -10, 10) : 0 });
  }
  return {
    type,
    lhs: [...lb, ...(adjX ? [depth, rows] : [rows, depth])],
    rhs: [...rb, ...(adjY ? [cols, depth] : [depth, cols])],
    out: [...outBatch, rows, cols],
    adjX,
    adjY,
    constLhs: r() < 0.15,
    constRhs: r() < 0.5,
    q,
    seed,
  };
}

const count = (dims: number[]) => dims.reduce((a, b) => a * b, 1);

function values(r: () => number, type: TensorType, n: number): Float32Array | Int8Array | Int16Array {
  if (type === TensorType.FLOAT32) return floats(r, n);
  if (type === TensorType.INT8) return Int8Array.from({ length: n }, () => int(r, -128, 127));
  return Int16Array.from({ length: n }, () => int(r, -32768, 32767));
}

/** The model of a case and its inputs' values (runtime operands, in graph input order). */
export function buildBatchMatMul(c: BatchMatMulCase): { def: ModelDef; inputs: (Float32Array | Int8Array | Int16Array)[] } {
  const r = rng(c.seed * 13 + 5);
  const b = new ModelBuilder();
  const quant = (i: number) => (c.type === TensorType.FLOAT32 ? {} : { quantization: c.q[i]! });
  const lhsData = values(r, c.type, count(c.lhs));
  const rhsData = values(r, c.type, count(c.rhs));
  const lhs = b.addTensor({ name: 'lhs', type: c.type, shape: c.lhs, ...quant(0), ...(c.constLhs ? { data: lhsData } : {}) });
  const rhs = b.addTensor({ name: 'rhs', type: c.type, shape: c.rhs, ...quant(1), ...(c.constRhs ? { data: rhsData } : {}) });
  const out = b.addTensor({ name: 'out', type: c.type, shape: c.out, ...quant(2) });
  b.addOperator({
    op: BuiltinOperator.BATCH_MATMUL,
    version: 1,
    inputs: [lhs, rhs],
    outputs: [out],
    options: { adjX: c.adjX, adjY: c.adjY, asymmetricQuantizeInputs: false },
  });
  const graphInputs: number[] = [];
  const inputs: (Float32Array | Int8Array | Int16Array)[] = [];
  if (!c.constLhs) {
    graphInputs.push(lhs);
    inputs.push(lhsData);
  }
  if (!c.constRhs) {
    graphInputs.push(rhs);
    inputs.push(rhsData);
  }
  b.setInputs(graphInputs).setOutputs([out]);
  return { def: b.buildDef(), inputs };
}
