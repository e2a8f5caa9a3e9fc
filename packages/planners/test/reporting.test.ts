/** Report helpers added for `micrort plan`: where the lower bound is reached, and op names on the SVG axis. */
import { describe, expect, it } from 'vitest';
import type { BufferRequirement } from '@micrort/core';
import { greedy, lowerBound, lowerBoundAt, renderPlanSvg } from '@micrort/planners';

const buf = (id: number, size: number, firstUsed: number, lastUsed: number, extra: Partial<BufferRequirement> = {}): BufferRequirement => ({
  kind: 'tensor',
  id,
  size,
  firstUsed,
  lastUsed,
  ...extra,
});

describe('lowerBoundAt', () => {
  it('gives the bound and the first step where it is reached', () => {
    const buffers = [buf(0, 10, 0, 1), buf(1, 20, 1, 2), buf(2, 30, 2, 3), buf(3, 40, 3, 4), buf(4, 50, 0, 1)];
    expect(lowerBoundAt(buffers)).toEqual({ bytes: 80, step: 1 });
    expect(lowerBoundAt([buf(0, 16, 0, 3), buf(1, 16, 2, 2), buf(2, 16, 3, 3)])).toEqual({ bytes: 32, step: 2 });
    expect(lowerBoundAt(buffers).bytes).toBe(lowerBound(buffers));
  });

  it('is -1 with nothing to place, and counts an in-place pair once at its hand-over step', () => {
    expect(lowerBoundAt([])).toEqual({ bytes: 0, step: -1 });
    expect(lowerBoundAt([buf(0, 0, 0, 4)])).toEqual({ bytes: 0, step: -1 });
    const pair = [buf(1, 64, 0, 1), buf(2, 64, 1, 2, { inPlaceOf: 1 })];
    expect(lowerBoundAt(pair)).toEqual({ bytes: 64, step: 0 });
    expect(lowerBoundAt(pair.map(({ inPlaceOf: _x, ...b }) => b))).toEqual({ bytes: 128, step: 1 });
  });
});

describe('renderPlanSvg with step labels', () => {
  const buffers = [buf(0, 64, 0, 1, { label: 'in' }), buf(1, 32, 1, 2, { label: 'mid' }), buf(2, 16, 2, 2, { label: 'out' })];
  const plan = greedy.plan(buffers, { alignment: 16 });

  it('labels each step with its op and names the ops in hover texts', () => {
    const svg = renderPlanSvg(buffers, plan, { stepLabels: ['CONV_2D', 'RELU', 'SOFTMAX'], lowerBound: lowerBound(buffers) });
    expect(svg).toMatch(/<text [^>]*transform="rotate\(-45 [^"]+\)">0 CONV_2D<\/text>/);
    expect(svg).toContain('>2 SOFTMAX</text>');
    expect(svg).toContain('execution step (node op)');
    expect(svg).toContain('<title>mid (tensor 1): 32 bytes at offset 64, steps 1..2 (RELU → SOFTMAX)</title>');
    expect(svg).toContain('<title>out (tensor 2): 16 bytes at offset 0, steps 2..2 (SOFTMAX)</title>');
  });

  it('grows the picture to fit the rotated labels and escapes them', () => {
    const plain = renderPlanSvg(buffers, plan);
    const labelled = renderPlanSvg(buffers, plan, { stepLabels: ['A<B', 'DEPTHWISE_CONV_2D', 'X'] });
    const height = (svg: string) => Number(/height="(\d+)"/.exec(svg)![1]);
    expect(height(labelled)).toBeGreaterThan(height(plain));
    expect(labelled).toContain('>0 A&lt;B</text>');
    expect(plain).not.toContain('rotate(-45');
  });

  it('labels every k-th step when the cells are narrow', () => {
    const many = Array.from({ length: 200 }, (_, i) => buf(i, 16, i, i));
    const svg = renderPlanSvg(many, greedy.plan(many, { alignment: 16 }), { stepLabels: many.map(() => 'ADD') });
    const labels = svg.match(/rotate\(-45/g)!.length;
    expect(labels).toBeLessThan(200);
    expect(labels).toBeGreaterThan(20);
  });
});
