/**
 * What a user of this package does: `pnpm pack` it with core, kernel-support and planners, install the
 * tarballs with plain npm into a fresh project outside the workspace (ops-mediapipe's peer dependency on
 * core, and kernel-support's, are met by the app's own core), and run a model that uses its ops there.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@micrort/test-support/conformance';

const PACKAGES = ['core', 'kernel-support', 'planners', 'ops-mediapipe'];
const work = mkdtempSync(join(tmpdir(), 'micrort-pack-mediapipe-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

describe('@micrort/ops-mediapipe as published', () => {
  it('packs, installs from its tarball with plain npm next to core, and runs its ops', () => {
    sh(
      process.execPath,
      [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', ...PACKAGES.map((p) => `packages/${p}`)],
      REPO_ROOT,
    );
    const app = join(work, 'app');
    mkdirSync(app);
    const tarballs: Record<string, string> = {};
    for (const p of PACKAGES) {
      const out = sh('pnpm', ['pack', '--pack-destination', work], join(REPO_ROOT, 'packages', p))
        .trim()
        .split('\n')
        .pop()!;
      const file = readdirSync(work).find((f) => f.startsWith(`micrort-${p}-`) && f.endsWith('.tgz'));
      expect(file, `tarball for ${p} (pnpm pack said: ${out})`).toBeTruthy();
      copyFileSync(join(work, file!), join(app, file!));
      tarballs[`@micrort/${p}`] = `file:./${file}`;
    }
    // the published manifest: core as a peer (a range, not a workspace link), kernel-support as its one
    // dependency (TFLM's shared kernel math, itself a peer of the app's core)
    const manifest = JSON.parse(
      sh('tar', ['-xOzf', join(app, tarballs['@micrort/ops-mediapipe']!.slice(7)), 'package/package.json'], app),
    ) as Record<string, Record<string, string> | undefined>;
    expect(manifest.peerDependencies).toEqual({ '@micrort/core': '^0.1.0' });
    expect(manifest.dependencies).toEqual({ '@micrort/kernel-support': '^0.1.0' });

    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'mediapipe-user-app', private: true, type: 'module', dependencies: tarballs, overrides: tarballs }, null, 2),
    );
    writeFileSync(
      join(app, 'run.mjs'),
      `import { MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { GreedyPlanner } from '@micrort/planners';
import { registerMediapipeOps, transposeConvBiasOptions, poolOptions } from '@micrort/ops-mediapipe';

const F = TensorType.FLOAT32;
const b = new ModelBuilder();
const x = b.addTensor({ name: 'x', type: F, shape: [1, 2, 2, 1] });
const w = b.addTensor({ name: 'w', type: F, shape: [1, 2, 2, 1], data: Float32Array.of(1, 10, 100, 1000) });
const bias = b.addTensor({ name: 'bias', type: F, shape: [1], data: Float32Array.of(0.5) });
const up = b.addTensor({ name: 'up', type: F, shape: [1, 4, 4, 1] });
const pooled = b.addTensor({ name: 'pooled', type: F, shape: [1, 2, 2, 1] });
const argmax = b.addTensor({ name: 'argmax', type: F, shape: [1, 2, 2, 1] });
b.addOperator({ op: { custom: 'Convolution2DTransposeBias' }, inputs: [x, w, bias], outputs: [up], customOptions: transposeConvBiasOptions('VALID', 2, 2) });
b.addOperator({ op: { custom: 'MaxPoolingWithArgmax2D' }, inputs: [up], outputs: [pooled, argmax],
  customOptions: poolOptions({ padding: 'VALID', strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2 }) });
const model = loadModel(b.setInputs([x]).setOutputs([up, pooled, argmax]).build());
const it = new MicroInterpreter(model, registerMediapipeOps(new OpResolver()), { planner: new GreedyPlanner() }).allocateTensors();
it.setInput(0, [1, 2, 3, 4]);
it.invoke();
console.log(JSON.stringify({ up: Array.from(it.output(0).data), pooled: Array.from(it.output(1).data), argmax: Array.from(it.output(2).data, (v) => Math.trunc(v)),
  providers: it.nodes().map((n) => n.provider) }));
`,
    );
    sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
    const installed = join(app, 'node_modules', '@micrort', 'ops-mediapipe');
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(readFileSync(join(installed, 'README.md'), 'utf8')).toContain('@micrort/ops-mediapipe');
    const out = JSON.parse(sh(process.execPath, ['run.mjs'], app)) as {
      up: number[];
      pooled: number[];
      argmax: number[];
      providers: string[];
    };
    expect(out.up).toEqual([1.5, 10.5, 2.5, 20.5, 100.5, 1000.5, 200.5, 2000.5, 3.5, 30.5, 4.5, 40.5, 300.5, 3000.5, 400.5, 4000.5]);
    expect(out.pooled).toEqual([1000.5, 2000.5, 3000.5, 4000.5]);
    expect(out.argmax).toEqual([3, 3, 3, 3]);
    expect(out.providers).toEqual(['@micrort/ops-mediapipe', '@micrort/ops-mediapipe']);
  }, 600_000);
});
