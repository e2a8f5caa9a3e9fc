import { describe, expect, it } from 'vitest';
import { reduceLoops, resolveReduceAxes } from './reduce-axes.js';

const node = { index: 0 } as never;

/** Folds every input index into its output as reduceLoops' loops run: outputs in order, each with its input offsets. */
function walk(dims: number[], axes: number[]): number[][] {
  const loops = reduceLoops(dims, resolveReduceAxes('T', node, dims.length, axes).reduced)!;
  const [ka, kb] = loops.kept;
  const [ra, rb, rc] = loops.reduced;
  const out: number[][] = [];
  for (let a = 0; a < ka!.n; a++)
    for (let b = 0; b < kb!.n; b++)
      for (let i = 0; i < loops.inner; i++) {
        const offsets: number[] = [];
        for (let x = 0; x < ra!.n; x++)
          for (let y = 0; y < rb!.n; y++)
            for (let z = 0; z < rc!.n; z++)
              offsets.push(a * ka!.stride + b * kb!.stride + x * ra!.stride + y * rb!.stride + z * rc!.stride + i);
        out.push(offsets);
      }
  return out;
}

/** The same from the definition: outputs in row-major order of the kept axes, each with its inputs in row-major order. */
function expected(dims: number[], axes: number[]): number[][] {
  const rank = dims.length;
  const reduced = resolveReduceAxes('T', node, rank, axes).reduced;
  const outs = new Map<string, number[]>();
  const n = dims.reduce((p, d) => p * d, 1);
  for (let flat = 0; flat < n; flat++) {
    const idx: number[] = [];
    for (let d = rank - 1, f = flat; d >= 0; d--) {
      idx[d] = f % dims[d]!;
      f = Math.floor(f / dims[d]!);
    }
    const key = idx.filter((_, d) => !reduced[d]).join(',');
    if (!outs.has(key)) outs.set(key, []);
    outs.get(key)!.push(flat);
  }
  return [...outs.values()];
}

describe('reduceLoops', () => {
  it('visits, output by output in row-major order, each output’s inputs in row-major order (every axis set of 1-5-D shapes)', () => {
    const shapes = [[7], [3, 4], [2, 1, 3], [2, 3, 4, 5], [2, 1, 3, 1, 4], [3, 2, 2, 3, 2], [1, 1, 1]];
    for (const dims of shapes) {
      const rank = dims.length;
      for (let mask = 0; mask < 1 << rank; mask++) {
        const axes = [...Array(rank).keys()].filter((d) => mask & (1 << d));
        if (axes.length === 0) continue;
        expect(walk(dims, axes), `${JSON.stringify(dims)} over ${JSON.stringify(axes)}`).toEqual(expected(dims, axes));
      }
    }
  });

  it('merges adjacent axes of one kind and sets size-1 axes aside', () => {
    expect(reduceLoops([1, 7, 7, 1280], [false, true, true, false])).toEqual({
      inner: 1280,
      kept: [
        { n: 1, stride: 0 },
        { n: 1, stride: 0 },
      ],
      reduced: [
        { n: 1, stride: 0 },
        { n: 1, stride: 0 },
        { n: 49, stride: 1280 },
      ],
      count: 49,
    });
    const alt = reduceLoops([4, 32, 1, 8, 96], [false, true, true, false, true])!;
    expect(alt.inner).toBe(1);
    expect(alt.kept).toEqual([
      { n: 4, stride: 32 * 8 * 96 },
      { n: 8, stride: 96 },
    ]);
    expect(alt.reduced.slice(1)).toEqual([
      { n: 32, stride: 8 * 96 },
      { n: 96, stride: 1 },
    ]);
  });

  it('is null beyond two kept groups before the inner run or three reduced groups (only inputs of more than 5 dimensions have them)', () => {
    expect(reduceLoops([2, 2, 2, 2, 2, 2, 2, 2], [true, false, true, false, true, false, true, false])).toBeNull();
    expect(reduceLoops([2, 2, 2, 2, 2, 2, 2], [false, true, false, true, false, true, false])).toBeNull();
  });
});
