/**
 * What a user of the published packages does: `pnpm pack` core, planners and ops-reference, install
 * the tarballs with plain npm into a fresh project outside the workspace, and run a model there.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, REPO_ROOT } from '@micrort/test-support/conformance';

const PACKAGES = ['core', 'kernel-support', 'planners', 'ops-reference'];
const work = mkdtempSync(join(tmpdir(), 'micrort-pack-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

describe('published packages', () => {
  it('pack, install with plain npm outside the workspace, and run a model', () => {
    // Build the packages' dist (tsc -b is incremental: fast when CI built already).
    sh(
      process.execPath,
      [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', ...PACKAGES.map((p) => `packages/${p}`)],
      REPO_ROOT,
    );
    const tarballs: Record<string, string> = {};
    for (const p of PACKAGES) {
      const out = sh('pnpm', ['pack', '--pack-destination', work], join(REPO_ROOT, 'packages', p))
        .trim()
        .split('\n')
        .pop()!;
      const file = readdirSync(work).find((f) => f.startsWith(`micrort-${p}-`) && f.endsWith('.tgz'));
      expect(file, `tarball for ${p} (pnpm pack said: ${out})`).toBeTruthy();
      tarballs[`@micrort/${p}`] = `file:./${file}`;
    }
    const app = join(work, 'app');
    sh('mkdir', ['-p', app], work);
    for (const f of readdirSync(work).filter((x) => x.endsWith('.tgz'))) copyFileSync(join(work, f), join(app, f));
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'micrort-user-app', private: true, type: 'module', dependencies: tarballs, overrides: tarballs }, null, 2),
    );
    const modelPath = CONFORMANCE_DIR ? join(CONFORMANCE_DIR, 'hello_world_int8', 'model.tflite') : '';
    writeFileSync(
      join(app, 'run.mjs'),
      `import { readFileSync } from 'node:fs';
import { MicroInterpreter, OpResolver, ModelBuilder, TensorType, BuiltinOperator, loadModel } from '@micrort/core';
import { GreedyPlanner } from '@micrort/planners';
import { registerReferenceOps } from '@micrort/ops-reference';

let bytes;
const path = ${JSON.stringify(modelPath)};
if (path) {
  const b = readFileSync(path);
  bytes = new Uint8Array(b.byteLength);
  bytes.set(b);
} else {
  const m = new ModelBuilder();
  const x = m.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 2] });
  const c = m.addTensor({ name: 'c', type: TensorType.FLOAT32, shape: [2], data: Float32Array.of(1, 2) });
  const y = m.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 2] });
  m.addOperator({ op: BuiltinOperator.ADD, inputs: [x, c], outputs: [y] });
  bytes = m.setInputs([x]).setOutputs([y]).build();
}
const model = loadModel(bytes);
const it = new MicroInterpreter(model, registerReferenceOps(new OpResolver()), { planner: new GreedyPlanner() });
it.allocateTensors();
const input = it.input(0);
if (path) input.bytes.set(readFileSync(path.replace('model.tflite', 'case0/input_0.bin')));
else input.data.set([1, 2]);
it.invoke();
console.log(JSON.stringify({ output: Array.from(it.output(0).data), bytes: Array.from(it.output(0).bytes), arena: it.arenaUsage().usedBytes }));
`,
    );
    sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
    expect(existsSync(join(app, 'node_modules', '@micrort', 'core', 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', '@micrort', 'core', 'src'))).toBe(false);
    const out = JSON.parse(sh(process.execPath, ['run.mjs'], app)) as { output: number[]; bytes: number[]; arena: number };
    if (modelPath) {
      // hello_world_int8 case 0: byte-equal to TFLM's output
      const expected = readFileSync(join(CONFORMANCE_DIR!, 'hello_world_int8', 'case0', 'output_0.bin'));
      expect(out.bytes).toEqual(Array.from(expected));
    } else {
      expect(out.output).toEqual([2, 4]);
    }
    expect(out.arena).toBeGreaterThan(0);
  }, 600_000);
});
