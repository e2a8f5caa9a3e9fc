#!/usr/bin/env node
// Rewrites the code blocks the docs embed from files (```ts example:<docs/examples file> and
// ```<lang> source:<path from the repository root>) with the files' current text; docs/docs.test.ts
// fails when they differ. Run after editing (or formatting) an embedded file: `pnpm docs:sync`.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const docs = join(root, 'docs');
let changed = 0;
for (const md of readdirSync(docs).filter((f) => f.endsWith('.md'))) {
  const path = join(docs, md);
  const text = readFileSync(path, 'utf8');
  const next = text
    .replace(
      /```ts example:(\S+)\n[\s\S]*?```\n/g,
      (_, file) => '```ts example:' + file + '\n' + readFileSync(join(docs, 'examples', file), 'utf8') + '```\n',
    )
    .replace(
      /```(\w+) source:(\S+)\n[\s\S]*?```\n/g,
      (_, lang, file) => '```' + lang + ' source:' + file + '\n' + readFileSync(join(root, file), 'utf8') + '```\n',
    );
  if (next !== text) {
    writeFileSync(path, next);
    changed++;
    console.log(`updated ${md}`);
  }
}
console.log(changed ? `${changed} file(s) updated` : 'every embedded block is current');
