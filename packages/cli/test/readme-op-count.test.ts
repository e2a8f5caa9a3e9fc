/**
 * The root README's op counts are computed: the text between its `<!-- op-count -->` markers must be what
 * scripts/readme-op-count.mjs makes of `micrort check --list-ops --json` (run `pnpm readme:ops` after
 * adding kernels).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { README, opCountText, readmeOpCount } from '../../../scripts/readme-op-count.mjs';
import { main } from '../src/main.js';

describe('README op count', () => {
  it('equals micrort check --list-ops', async () => {
    const out: string[] = [];
    expect(await main(['check', '--list-ops', '--json'], { log: (l) => out.push(l), err: () => {}, progress: () => {} })).toBe(0);
    const text = (opCountText as (j: unknown) => string)(JSON.parse(out.join('\n')));
    expect(text).toMatch(/^ops-reference \(\d+ builtin ops and \d+ custom ops?\), ops-signal \(\d+ custom ops\)/);
    expect(
      (readmeOpCount as (r: string) => string | null)(readFileSync(README as string, 'utf8')),
      'README.md op count (pnpm readme:ops rewrites it)',
    ).toBe(text);
  });
});
