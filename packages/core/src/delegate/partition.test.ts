import { describe, expect, it } from 'vitest';
import { partitionGraphIntoIndependentNodeSubsets, type PartitionNode } from './partition.js';

function nodes(list: [number[], number[]][]): PartitionNode[] {
  return list.map(([inputs, outputs]) => ({ inputs, outputs }));
}

describe('partitionGraphIntoIndependentNodeSubsets', () => {
  // Seed 002: f(x) = sin(x) + x + sin(2x). Tensors: 0 x, 1 const 2, 2 sin1, 3 add1, 4 mul, 5 sin2, 6 y.
  // Operators in file order: SIN1, ADD1, MUL, SIN2, ADD2.
  const g = nodes([
    [[0], [2]], // 0 SIN1
    [[2, 0], [3]], // 1 ADD1
    [[0, 1], [4]], // 2 MUL
    [[4], [5]], // 3 SIN2
    [[3, 5], [6]], // 4 ADD2
  ]);
  const plan = [0, 1, 2, 3, 4];

  it('gives the four subsets of the seed, in order, with SIN delegated', () => {
    const subsets = partitionGraphIntoIndependentNodeSubsets(plan, (i) => g[i]!, new Set([0, 3]), 7, [6]);
    expect(subsets.map((s) => [s.delegated, s.nodes])).toEqual([
      [true, [0]],
      [false, [1, 2]],
      [true, [3]],
      [false, [4]],
    ]);
    expect(subsets[0]).toMatchObject({ inputTensors: [0], outputTensors: [2] });
    expect(subsets[1]).toMatchObject({ inputTensors: [0, 1, 2], outputTensors: [3, 4] });
    expect(subsets[2]).toMatchObject({ inputTensors: [4], outputTensors: [5] });
    expect(subsets[3]).toMatchObject({ inputTensors: [3, 5], outputTensors: [6] });
  });

  it('a delegate that claims nothing leaves one CPU subset; one that claims everything gives one delegated subset', () => {
    const none = partitionGraphIntoIndependentNodeSubsets(plan, (i) => g[i]!, new Set(), 7, [6]);
    expect(none.map((s) => [s.delegated, s.nodes])).toEqual([[false, [0, 1, 2, 3, 4]]]);
    const all = partitionGraphIntoIndependentNodeSubsets(plan, (i) => g[i]!, new Set(plan), 7, [6]);
    expect(all.map((s) => [s.delegated, s.nodes])).toEqual([[true, [0, 1, 2, 3, 4]]]);
    expect(all[0]).toMatchObject({ inputTensors: [0, 1], outputTensors: [6] });
  });

  it('branches and several outputs: independent branches of the same type merge, outputs are exported', () => {
    // x(0) → A(cpu) → 1 → C(gpu) → 3 (output)
    // x(0) → B(gpu) → 2 → D(cpu) → 4 (output); 2 is also a graph output
    const h = nodes([
      [[0], [1]], // 0 A cpu
      [[0], [2]], // 1 B gpu
      [[1], [3]], // 2 C gpu
      [[2], [4]], // 3 D cpu
    ]);
    const s = partitionGraphIntoIndependentNodeSubsets([0, 1, 2, 3], (i) => h[i]!, new Set([1, 2]), 5, [3, 4, 2]);
    expect(s.map((x) => [x.delegated, x.nodes])).toEqual([
      [false, [0]],
      [true, [1, 2]],
      [false, [3]],
    ]);
    expect(s[1]).toMatchObject({ inputTensors: [0, 1], outputTensors: [2, 3] });
    expect(s[2]).toMatchObject({ inputTensors: [2], outputTensors: [4] });
  });
  it('omitted optional inputs (-1) are ignored; a tensor read by several later subsets is exported once', () => {
    // 0 A gpu: x(0), w(1), -1 → a(2);  1 B cpu: a → b(3);  2 C gpu: a, b → c(4);  3 D cpu: a, c → y(5)
    const h = nodes([
      [[0, 1, -1], [2]],
      [[2], [3]],
      [[2, 3, -1], [4]],
      [[2, 4], [5]],
    ]);
    const s = partitionGraphIntoIndependentNodeSubsets([0, 1, 2, 3], (i) => h[i]!, new Set([0, 2]), 6, [5]);
    expect(s.map((x) => [x.delegated, x.nodes])).toEqual([
      [true, [0]],
      [false, [1]],
      [true, [2]],
      [false, [3]],
    ]);
    expect(s[0]).toMatchObject({ inputTensors: [0, 1], outputTensors: [2] });
    expect(s[1]).toMatchObject({ inputTensors: [2], outputTensors: [3] });
    expect(s[2]).toMatchObject({ inputTensors: [2, 3], outputTensors: [4] });
    expect(s[3]).toMatchObject({ inputTensors: [2, 4], outputTensors: [5] });
  });

  it('every node lands in exactly one subset, in an order that respects every dependency', () => {
    // a small diamond with a side chain, delegating every other node
    const h = nodes([
      [[0], [1]],
      [[1], [2]],
      [[1], [3]],
      [[2, 3], [4]],
      [[0], [5]],
      [[5, 4], [6]],
    ]);
    const plan = [0, 1, 2, 3, 4, 5];
    const s = partitionGraphIntoIndependentNodeSubsets(plan, (i) => h[i]!, new Set([1, 3, 4]), 7, [6]);
    expect(s.flatMap((x) => x.nodes).sort()).toEqual(plan);
    const producedAt = new Map<number, number>();
    s.forEach((x, k) => x.nodes.forEach((n) => producedAt.set(h[n]!.outputs[0]!, k)));
    s.forEach((x, k) => {
      for (const n of x.nodes) for (const t of Array.from(h[n]!.inputs)) expect(producedAt.get(t) ?? -1).toBeLessThanOrEqual(k);
      expect(x.nodes.every((n) => [1, 3, 4].includes(n) === x.delegated)).toBe(true);
    });
  });
});
