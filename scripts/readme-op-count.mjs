#!/usr/bin/env node
// The README's op counts are computed, not typed: this prints (or writes) the text between the
// `<!-- op-count -->` and `<!-- /op-count -->` markers of README.md from `micrort check --list-ops --json`
// (the registered builtin and custom ops of the CLI's default runtime, per providing package).
//
//   node scripts/readme-op-count.mjs           print the text
//   node scripts/readme-op-count.mjs --write   write it into README.md
//   node scripts/readme-op-count.mjs --check   exit 1 when README.md says something else
// (`pnpm readme:ops` builds the CLI and writes; packages/cli/test/readme-op-count.test.ts checks.)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const README = join(root, 'README.md');
const START = '<!-- op-count -->';
const END = '<!-- /op-count -->';

/** Packages in the order the sentence names them. */
const ORDER = ['@micrort/ops-reference', '@micrort/ops-signal', '@micrort/ops-mediapipe'];

/**
 * The sentence for a `micrort check --list-ops --json` answer, e.g. `ops-reference (103 builtin ops and
 * 1 custom op), ops-signal (9 custom ops), ops-mediapipe (7 custom ops)`.
 */
export function opCountText(listOps) {
  const by = new Map();
  for (const o of [...listOps.builtin, ...listOps.custom]) {
    for (const p of o.providers) {
      const e = by.get(p) ?? { builtin: 0, custom: 0 };
      if (o.op.startsWith('CUSTOM:')) e.custom++;
      else e.builtin++;
      by.set(p, e);
    }
  }
  const names = [...by.keys()].sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
  const n = (k, what) => `${k} ${what}${k === 1 ? '' : 's'}`;
  return names
    .map((p) => {
      const e = by.get(p);
      const parts = [e.builtin ? n(e.builtin, 'builtin op') : '', e.custom ? n(e.custom, 'custom op') : ''].filter(Boolean);
      return `${p.replace(/^@micrort\//, '')} (${parts.join(' and ')})`;
    })
    .join(', ');
}

/** The README with `text` between the markers; throws when the markers are missing. */
export function withOpCount(readme, text) {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${START} … ${END} markers`);
  return readme.slice(0, a + START.length) + text + readme.slice(b);
}

/** The text currently between the markers, or null. */
export function readmeOpCount(readme) {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  return a < 0 || b < a ? null : readme.slice(a + START.length, b);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const json = execFileSync(process.execPath, [join(root, 'packages/cli/dist/bin.js'), 'check', '--list-ops', '--json'], {
    encoding: 'utf8',
  });
  const text = opCountText(JSON.parse(json));
  const readme = readFileSync(README, 'utf8');
  if (process.argv.includes('--write')) {
    writeFileSync(README, withOpCount(readme, text));
    console.log(`README.md: ${text}`);
  } else if (process.argv.includes('--check')) {
    const now = readmeOpCount(readme);
    if (now !== text) {
      console.error(`README.md says "${now}", micrort check --list-ops gives "${text}" (run pnpm readme:ops)`);
      process.exit(1);
    }
  } else console.log(text);
}
