import type { BufferRequirement } from '@micrort/core';
import { describe, expect, it } from 'vitest';
import { buf, randomBuffers } from './__tests__/fixtures.js';
import { PlanShapeError } from './errors.js';
import { greedy } from './greedy.js';
import { lowerBound } from './lower-bound.js';
import { Prng } from './prng.js';
import { renderPlanSvg } from './render-svg.js';

/**
 * Minimal XML well-formedness check: one root element, every tag closed in order, attributes quoted,
 * `&` only in entities, no `<` inside text or attribute values. Returns the element names seen.
 */
function checkWellFormed(xml: string): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  let roots = 0;
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let pos = 0;
  while (pos < xml.length) {
    const lt = xml.indexOf('<', pos);
    const text = xml.slice(pos, lt < 0 ? xml.length : lt);
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`bare & in text near ${pos}`);
    if (lt < 0) break;
    if (stack.length === 0 && text.trim() !== '') throw new Error(`text outside the root near ${pos}`);
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) throw new Error(`malformed tag near ${lt}: ${xml.slice(lt, lt + 60)}`);
    const [, closing, name, attrs, selfClosing] = m;
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(attrs!)) throw new Error(`bare & in attributes of <${name}>`);
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> does not close the open element`);
    } else {
      if (stack.length === 0 && ++roots > 1) throw new Error('more than one root element');
      names.push(name!);
      if (!selfClosing) stack.push(name!);
    }
    pos = tag.lastIndex;
  }
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) throw new Error('no root element');
  return names;
}

const count = (s: string, needle: string): number => s.split(needle).length - 1;

describe('renderPlanSvg', () => {
  it('draws two labelled buffers, axes, legend and the lower-bound line', () => {
    const buffers: BufferRequirement[] = [
      buf(0, 64, 0, 1, { label: 'input' }),
      { kind: 'scratch', id: 0, size: 32, firstUsed: 1, lastUsed: 1, label: 'scratch #0 (node 1)' },
    ];
    const plan = greedy.plan(buffers, { alignment: 16 });
    const svg = renderPlanSvg(buffers, plan, { title: 'two buffers', lowerBound: lowerBound(buffers) });
    const names = checkWellFormed(svg);
    expect(names[0]).toBe('svg');
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(count(svg, 'class="buffer ')).toBe(2);
    expect(svg).toContain('class="buffer tensor"');
    expect(svg).toContain('class="buffer scratch"');
    expect(svg).toContain('fill="url(#mrt-scratch)"');
    expect(svg).toContain('<pattern id="mrt-scratch"');
    expect(svg).toMatch(/<text[^>]*>input<\/text>/);
    expect(svg).toContain('<title>input (tensor 0): 64 bytes at offset 0, steps 0..1</title>');
    expect(svg).toContain('<title>scratch #0 (node 1) (scratch 0): 32 bytes at offset 64, steps 1..1</title>');
    expect(svg).toMatch(/class="lower-bound"><line [^>]*stroke-dasharray="6 4"/);
    expect(svg).toContain('lower bound 96 B');
    expect(svg).toContain('>two buffers</text>');
    expect(svg).toContain('class="axis x-axis"');
    expect(svg).toContain('class="axis y-axis"');
    expect(svg).toContain('execution step');
    expect(svg).toContain('arena offset');
    expect(svg).toContain('class="legend"');
  });

  it('stays well-formed and readable for 200 buffers: hover titles on all, labels only where they fit', () => {
    const buffers = randomBuffers(new Prng(8), { count: 200, steps: 80, maxLifetime: 12, unit: 16, maxUnits: 512 });
    const plan = greedy.plan(buffers, { alignment: 16 });
    const svg = renderPlanSvg(buffers, plan, { lowerBound: lowerBound(buffers) });
    checkWellFormed(svg);
    expect(count(svg, 'class="buffer ')).toBe(200);
    expect(count(svg, '<title>')).toBe(200);
    const labels = count(svg, 'font-size="10"');
    expect(labels).toBeGreaterThan(0);
    expect(labels).toBeLessThan(200);
    const xTicks = count(svg.slice(svg.indexOf('class="axis x-axis"'), svg.indexOf('class="axis y-axis"')), '<text');
    expect(xTicks).toBeLessThanOrEqual(20);
    expect(svg).toMatch(/memory plan: 200 buffers, head [\d.]+ KiB, lower bound [\d.]+ KiB/);
  });

  it('escapes markup in labels and titles and leaves out the lower bound when not given', () => {
    const buffers = [buf(0, 4096, 0, 3, { label: 'a<b> & "c"' })];
    const plan = greedy.plan(buffers, { alignment: 16 });
    const svg = renderPlanSvg(buffers, plan, { title: 'x & y <z>', idPrefix: 'p1' });
    checkWellFormed(svg);
    expect(svg).toContain('a&lt;b&gt; &amp; &quot;c&quot;');
    expect(svg).toContain('x &amp; y &lt;z&gt;');
    expect(svg).not.toContain('class="lower-bound"');
    expect(svg).toContain('head 4 KiB');
  });

  it('renders an empty plan and rejects a plan of the wrong length', () => {
    checkWellFormed(renderPlanSvg([], { offsets: new Int32Array(0), headBytes: 0 }));
    expect(() => renderPlanSvg([buf(0, 16, 0, 0)], { offsets: new Int32Array(0), headBytes: 0 })).toThrow(PlanShapeError);
  });

  it('the checker itself rejects malformed markup', () => {
    expect(() => checkWellFormed('<svg><g></svg>')).toThrow();
    expect(() => checkWellFormed('<svg><text>a & b</text></svg>')).toThrow();
    expect(() => checkWellFormed('<svg x=1></svg>')).toThrow();
    expect(() => checkWellFormed('<svg/><svg/>')).toThrow();
  });
});
