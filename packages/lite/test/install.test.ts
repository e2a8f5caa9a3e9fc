/**
 * The README's ways of getting the packages into one's own project, done as a user does them, outside
 * the workspace: (1) `pnpm pack` the packages and install the tarballs with plain npm into a fresh
 * project; (2) link the workspace's package into a fresh project with pnpm (`link:`). Each project
 * then runs the labelled classifier with `@micrort/lite` and reads its labels. (The third way, an
 * import map in the browser, is test/browser.test.ts.) No network beyond npm's registry (flatbuffers,
 * from npm's cache when it is there).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@micrort/test-support/conformance';
import { FLOWER_LABELS, buildLabelledUint8Classifier } from '@micrort/test-support/tflite-metadata';
import { runtimeClosure } from '@micrort/test-support/workspace';

/** What @micrort/lite needs at run time, itself last. */
const PACKAGES = runtimeClosure('lite');
const work = mkdtempSync(join(tmpdir(), 'micrort-install-lite-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

/** The user's program: classify the model in model.tflite, print the result as JSON. */
const PROGRAM = `import { readFileSync } from 'node:fs';
import { loadModel } from '@micrort/lite';

const model = await loadModel(readFileSync('model.tflite'));
const data = new Uint8ClampedArray(16 * 16 * 4).map((_, i) => (i * 37) % 256);
const top = model.classify({ width: 16, height: 16, data });
console.log(JSON.stringify({ kernels: model.kernels, labels: model.outputs[0].labels, top }));
`;

function userProject(name: string, dependencies: Record<string, string>, extra: Record<string, unknown> = {}): string {
  const app = join(work, name);
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies, ...extra }, null, 2));
  writeFileSync(join(app, 'classify.mjs'), PROGRAM);
  writeFileSync(join(app, 'model.tflite'), buildLabelledUint8Classifier());
  return app;
}

function checkRun(app: string): void {
  const out = JSON.parse(sh(process.execPath, ['classify.mjs'], app)) as { kernels: string[]; labels: string[]; top: { label: string }[] };
  expect(out.labels).toEqual(FLOWER_LABELS);
  expect(out.top.map((t) => t.label).sort()).toEqual([...FLOWER_LABELS].sort());
  expect(out.kernels).toContain('ops-wasm');
}

describe('installing @micrort/lite into a project of ones own', () => {
  it("the README's install instructions name exactly the packages lite needs", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const loop = /for p in ([\w\s-]+); do \(cd packages\/\$p && pnpm pack/.exec(readme);
    expect(loop, 'the pnpm pack loop in the README').toBeTruthy();
    expect(loop![1]!.trim().split(/\s+/).sort()).toEqual([...PACKAGES].sort());
    const mapped = [...readme.matchAll(/"@micrort\/([\w-]+)": "\/micrort\/\1\/dist\/index\.js"/g)].map((m) => m[1]!);
    expect(mapped.sort()).toEqual([...PACKAGES].sort());
  });

  it('packed tarballs (pnpm pack), installed with plain npm', () => {
    sh(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/lite'], REPO_ROOT);
    const tarballs: Record<string, string> = {};
    for (const p of PACKAGES) {
      sh('pnpm', ['pack', '--pack-destination', work], join(REPO_ROOT, 'packages', p));
      const file = readdirSync(work).find((f) => f.startsWith(`micrort-${p}-`) && f.endsWith('.tgz'));
      expect(file, `tarball for ${p}`).toBeTruthy();
      tarballs[`@micrort/${p}`] = `file:../${file}`;
    }
    const lite = JSON.parse(sh('tar', ['-xOzf', join(work, tarballs['@micrort/lite']!.slice(8)), 'package/package.json'], work)) as {
      dependencies: Record<string, string>;
    };
    expect(lite.dependencies['@micrort/core']).toBe('^0.1.0'); // workspace:^ became a range
    const app = userProject('packed-app', { '@micrort/lite': tarballs['@micrort/lite']! }, { overrides: tarballs });
    sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
    const installed = join(app, 'node_modules', '@micrort', 'lite');
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(readFileSync(join(installed, 'README.md'), 'utf8')).toContain('@micrort/lite');
    checkRun(app);
  }, 600_000);

  it('a workspace link (pnpm add link:…/packages/lite): the built package and its dependencies from the checkout', () => {
    sh(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'packages/lite'], REPO_ROOT);
    const app = userProject('linked-app', { '@micrort/lite': `link:${join(REPO_ROOT, 'packages', 'lite')}` });
    sh('pnpm', ['install', '--offline', '--ignore-workspace', '--reporter=silent'], app);
    checkRun(app);
  }, 300_000);
});
