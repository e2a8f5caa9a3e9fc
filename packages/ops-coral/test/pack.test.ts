/**
 * What a user of this package does: `pnpm pack` it with core, kernel-support and planners, install the tarballs with
 * plain npm into a fresh project outside the workspace (ops-coral's peer dependency on core is met by the
 * app's own core), and decode a pose there with a model that uses PosenetDecoderOp.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@micrort/test-support/conformance';
import { runtimeClosure } from '@micrort/test-support/workspace';
import { decoderOptions } from './posenet-harness.js';
import { BODY, LOGITS } from './scenes.js';

/** What the app installs: planners (it plans the arena) and ops-coral, with what each needs at run time. */
const PACKAGES = [...new Set([...runtimeClosure('planners'), ...runtimeClosure('ops-coral')])];
const work = mkdtempSync(join(tmpdir(), 'micrort-pack-coral-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

describe('@micrort/ops-coral as published', () => {
  it('packs, installs from its tarball with plain npm next to core, and decodes a pose', () => {
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
    // the published manifest: core as a peer (a range, not a workspace link), kernel-support its one dependency
    const manifest = JSON.parse(
      sh('tar', ['-xOzf', join(app, tarballs['@micrort/ops-coral']!.slice(7)), 'package/package.json'], app),
    ) as Record<string, Record<string, string> | undefined>;
    expect(manifest.peerDependencies).toEqual({ '@micrort/core': '^0.1.0' });
    expect(manifest.dependencies).toEqual({ '@micrort/kernel-support': '^0.1.0' });

    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'coral-user-app', private: true, type: 'module', dependencies: tarballs, overrides: tarballs }, null, 2),
    );
    // one person standing at rows 1.., columns 2.. of a 14x11 grid: logit peaks on its keypoints' cells, mid
    // offsets from every keypoint to its skeleton neighbours (forward y, forward x, backward y, backward x blocks)
    const options = JSON.stringify(Array.from(decoderOptions({ maxDetections: 2, scoreThreshold: 0.5, stride: 16, nmsRadius: 20 })));
    writeFileSync(
      join(app, 'run.mjs'),
      `import { MicroInterpreter, ModelBuilder, OpResolver, TensorType, loadModel } from '@micrort/core';
import { GreedyPlanner } from '@micrort/planners';
import { POSENET_EDGES, POSENET_KEYPOINTS, registerCoralOps } from '@micrort/ops-coral';

const F = TensorType.FLOAT32, H = 14, W = 11, K = 17, S = 16;
const body = ${JSON.stringify(BODY)}.map(([y, x]) => [y + 1, x + 2]);
const logits = ${JSON.stringify(LOGITS)};
const heat = new Float32Array(H * W * K).fill(-10), shorts = new Float32Array(H * W * 2 * K), mids = new Float32Array(H * W * 64);
body.forEach(([y, x], k) => (heat[(y * W + x) * K + k] = logits[k]));
POSENET_EDGES.forEach(([p, c], e) => {
  const ch = e < 16 ? e : 32 + e - 16;
  mids[(body[p][0] * W + body[p][1]) * 64 + ch] = (body[c][0] - body[p][0]) * S;
  mids[(body[p][0] * W + body[p][1]) * 64 + ch + 16] = (body[c][1] - body[p][1]) * S;
});
const b = new ModelBuilder();
const inputs = [b.addTensor({ name: 'heatmaps', type: F, shape: [1, H, W, K] }), b.addTensor({ name: 'short_offsets', type: F, shape: [1, H, W, 2 * K] }),
  b.addTensor({ name: 'mid_offsets', type: F, shape: [1, H, W, 64] })];
const outputs = [[1, 2, K, 2], [1, 2, K], [1, 2], [1]].map((shape, i) => b.addTensor({ name: 'out' + i, type: F, shape }));
b.addOperator({ op: { custom: 'PosenetDecoderOp' }, inputs, outputs, customOptions: Uint8Array.from(${options}) });
const it = new MicroInterpreter(loadModel(b.setInputs(inputs).setOutputs(outputs).build()), registerCoralOps(new OpResolver()), { planner: new GreedyPlanner() }).allocateTensors();
it.setInput(0, heat); it.setInput(1, shorts); it.setInput(2, mids);
it.invoke();
const kp = it.output(0).data;
console.log(JSON.stringify({ count: it.output(3).data[0], nose: [kp[0], kp[1]], rightAnkle: [kp[32], kp[33]], keypoints: POSENET_KEYPOINTS.length,
  providers: it.nodes().map((n) => n.provider) }));
`,
    );
    sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
    const installed = join(app, 'node_modules', '@micrort', 'ops-coral');
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(readFileSync(join(installed, 'README.md'), 'utf8')).toContain('@micrort/ops-coral');
    const out = JSON.parse(sh(process.execPath, ['run.mjs'], app)) as {
      count: number;
      nose: number[];
      rightAnkle: number[];
      keypoints: number;
      providers: string[];
    };
    expect(out).toEqual({
      count: 1,
      nose: [(BODY[0]![0] + 1) * 16, (BODY[0]![1] + 2) * 16],
      rightAnkle: [(BODY[16]![0] + 1) * 16, (BODY[16]![1] + 2) * 16],
      keypoints: 17,
      providers: ['@micrort/ops-coral'],
    });
  }, 600_000);
});
