/** docs/planners.md embeds guide-example.ts verbatim; this checks the embedding and runs the example. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BufferRequirement } from '@micrort/core';
import { lowerBound, validatePlan } from '@micrort/planners';
import { FirstUsePlanner, main } from './guide-example.js';

const here = dirname(fileURLToPath(import.meta.url));

describe('docs/planners.md', () => {
  it('embeds guide-example.ts verbatim', () => {
    const guide = readFileSync(join(here, '..', '..', '..', 'docs', 'planners.md'), 'utf8');
    const source = readFileSync(join(here, 'guide-example.ts'), 'utf8');
    expect(guide).toContain('```ts source:packages/planners/test/guide-example.ts\n' + source + '```\n');
  });

  it('the example planner runs a model and reaches the lower bound on it', () => {
    const r = main();
    expect(r.y).toEqual([-1, -1, 1]);
    expect(r.head).toBe(r.lowerBound);
    expect(r.lowerBound).toBe(2 * 256);
  });

  it('the example planner gives valid plans on random buffer sets, never below the bound', () => {
    let seed = 7;
    const rnd = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let k = 0; k < 20; k++) {
      const buffers: BufferRequirement[] = Array.from({ length: 2 + rnd(20) }, (_, id) => {
        const first = rnd(10);
        return { kind: 'tensor', id, size: 16 * (1 + rnd(8)), firstUsed: first, lastUsed: first + rnd(4) };
      });
      const plan = new FirstUsePlanner().plan(buffers, { alignment: 16 });
      validatePlan(buffers, plan, { alignment: 16 });
      expect(plan.headBytes).toBeGreaterThanOrEqual(lowerBound(buffers));
      expect(Array.from(new FirstUsePlanner().plan(buffers, { alignment: 16 }).offsets)).toEqual(Array.from(plan.offsets));
    }
  });
});
