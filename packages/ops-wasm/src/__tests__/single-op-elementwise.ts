/**
 * Test support: random quantized PRELU and SQUARED_DIFFERENCE models (int8, TFLite's uint8, int16) with
 * broadcasting, for runBoth (single-op.ts).
 */
import { BuiltinOperator, ModelBuilder, TensorType, type ModelDef } from '@micrort/core';
import { asUint8, int, int8s, pick, rng } from './single-op.js';

/** The element types of a case. */
export type QuantizedType = 'int8' | 'uint8' | 'int16';

/** `shape` with some dimensions set to 1 and, sometimes, leading ones dropped (a shape that broadcasts to it). */
function broadcastable(r: () => number, shape: number[]): number[] {
  const kind = r();
  if (kind < 0.3) return shape.slice();
  if (kind < 0.45) return [shape[shape.length - 1]!]; // per channel along the last axis
  if (kind < 0.55) return [1];
  const s = shape.map((d) => (r() < 0.5 ? 1 : d));
  return r() < 0.3 ? s.slice(int(r, 0, s.length - 1)) : s;
}

/** Random values of `type` as bytes: int8 / uint8 with the range ends mixed in, int16 across its range. */
function draw(r: () => number, type: QuantizedType, n: number): Int8Array {
  if (type === 'int16') {
    const v = Int16Array.from({ length: n }, () =>
      r() < 0.1 ? pick(r, [-32768, 32767]) : r() < 0.5 ? int(r, -300, 300) : int(r, -32768, 32767),
    );
    return new Int8Array(v.buffer);
  }
  return type === 'uint8' ? asUint8(int8s(r, n)) : int8s(r, n);
}

/**
 * A random PRELU (input, alpha) or SQUARED_DIFFERENCE of `type`: output shapes of rank 1-4 (runs of 1 to
 * 40 elements), either operand broadcast (per channel, scalar, random dimensions set to 1), a third of the
 * cases with a constant second operand; random zero points (int16: 0) and scales that make multipliers
 * below and above 1.
 */
export function buildQuantizedBinary(
  seed: number,
  op: BuiltinOperator.PRELU | BuiltinOperator.SQUARED_DIFFERENCE,
  type: QuantizedType,
): { def: ModelDef; inputs: Int8Array[]; desc: string } {
  const r = rng(seed);
  const rank = int(r, 1, 4);
  const shape = Array.from({ length: rank }, (_, i) => (i === rank - 1 ? pick(r, [1, 3, 8, 16, int(r, 1, 40)]) : int(r, 1, 6)));
  const small = broadcastable(r, shape);
  const swap = r() < 0.3;
  const [shapeA, shapeB] = swap ? [small, shape] : [shape, small];
  const t = type === 'int16' ? TensorType.INT16 : type === 'uint8' ? TensorType.UINT8 : TensorType.INT8;
  const zs = type === 'uint8' ? 128 : 0;
  const zp = () => (type === 'int16' ? 0 : pick(r, [-128, 127, 0, int(r, -128, 127)]) + zs);
  const s1 = pick(r, [0.02, 0.1, 0.0037, 0.5, 1 / 64]);
  const s2 = op === BuiltinOperator.PRELU ? pick(r, [1 / 128, 0.001, 0.02, 0.3]) : pick(r, [s1, s1 * 0.37, s1 * 2.9, 0.01]);
  const so =
    op === BuiltinOperator.PRELU
      ? s1 * pick(r, [1, 1, 0.5, 2.5, 0.05, 40])
      : (2 * Math.max(s1, s2)) ** 2 * pick(r, type === 'int16' ? [1e4, 3e5, 3e6, 1e3] : [40, 400, 2000, 4]);
  const q = (scale: number, zeroPoint: number) => ({ scale, zeroPoint });
  const b = new ModelBuilder();
  const nB = shapeB.reduce((x, d) => x * d, 1);
  const constant = r() < 0.33 ? draw(r, type, nB) : null;
  const x = b.addTensor({ name: 'x', type: t, shape: shapeA, quantization: q(s1, zp()) });
  const y = b.addTensor({
    name: op === BuiltinOperator.PRELU ? 'alpha' : 'y',
    type: t,
    shape: shapeB,
    quantization: q(s2, zp()),
    ...(constant ? { data: new Uint8Array(constant.buffer, constant.byteOffset, constant.byteLength) } : {}),
  });
  const o = b.addTensor({ name: 'o', type: t, shape, quantization: q(so, zp()) });
  b.addOperator({ op, inputs: [x, y], outputs: [o] });
  b.setInputs(constant ? [x] : [x, y]).setOutputs([o]);
  const nA = shapeA.reduce((x, d) => x * d, 1);
  return {
    def: b.buildDef(),
    inputs: constant ? [draw(r, type, nA)] : [draw(r, type, nA), draw(r, type, nB)],
    desc: JSON.stringify({ seed, op, type, shapeA, shapeB, s1, s2, so, constant: !!constant }),
  };
}
