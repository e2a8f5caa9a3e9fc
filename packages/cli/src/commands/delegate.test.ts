/**
 * The delegate flags of run, inspect and bench with the gpu.js GPU delegate, on the float CNN made by
 * the model writer (in gpu.js's cpu mode, available everywhere) and on the int8 demo model (nothing
 * to delegate).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFloatCnn } from '@micrort/ops-gpu';
import { main } from '../main.js';
import type { Out } from '../print.js';

function capture() {
  const log: string[] = [];
  const err: string[] = [];
  const out: Out = { log: (l) => log.push(l), err: (l) => err.push(l) };
  return { out, log, err, text: () => log.join('\n') };
}

const dir = mkdtempSync(join(tmpdir(), 'micrort-delegate-'));
const cnn = join(dir, 'float-cnn.tflite');
writeFileSync(cnn, buildFloatCnn());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--delegate gpu', () => {
  it('run --json shows the partition, the delegate node and the mode; outputs equal the CPU run', async () => {
    const gpu = capture();
    expect(await main(['run', cnn, '--delegate', 'gpu', '--gpu-mode', 'cpu', '--json'], gpu.out)).toBe(0);
    const r = JSON.parse(gpu.log[0]!);
    expect(r.partitions).toHaveLength(1);
    expect(r.partitions[0]).toMatchObject({ delegate: 'gpu', nodes: Array.from({ length: 16 }, (_, i) => i), outputTensors: [26] });
    expect(r.ops).toEqual([
      expect.objectContaining({
        op: 'DELEGATE:gpu(cpu)',
        provider: '@micrort/ops-gpu',
        delegate: { name: 'gpu', nodes: r.partitions[0].nodes },
      }),
    ]);
    expect(r.delegates).toEqual([{ name: 'gpu', mode: 'cpu', notClaimed: [] }]);
    const cpu = capture();
    expect(await main(['run', cnn, '--json'], cpu.out)).toBe(0);
    const c = JSON.parse(cpu.log[0]!);
    expect(c.partitions).toEqual([]);
    r.outputs[0].values.forEach((v: number, i: number) =>
      expect(Math.abs(v - c.outputs[0].values[i])).toBeLessThanOrEqual(1e-5 + 1e-4 * Math.abs(c.outputs[0].values[i])),
    );
    // internal tensors take no arena space
    expect(r.arena.head).toBeLessThan(c.arena.head);
  });

  it('inspect prints the partitions; excluded nodes split them and keep their CPU provider', async () => {
    const c = capture();
    expect(await main(['inspect', cnn, '--delegate', 'gpu', '--gpu-mode', 'cpu', '--exclude-nodes', '3'], c.out)).toBe(0);
    expect(c.text()).toMatch(/delegate gpu: gpu.js mode cpu/);
    expect(c.text()).toMatch(/partition → node 16 \[gpu\]: nodes 0,1,2; inputs 0,1,3,4,6,7; outputs 8; internal 2,5/);
    expect(c.text()).toMatch(/partition → node 17 \[gpu\]: nodes 4,5,6,7,8,9,10,11,12,13,14,15;/);
    const j = capture();
    expect(await main(['inspect', cnn, '--delegate', 'gpu', '--gpu-mode', 'cpu', '--max-partitions', '1', '--json'], j.out)).toBe(0);
    const r = JSON.parse(j.log[0]!);
    expect(r.partitions).toHaveLength(1);
    expect(r.operators[0].provider).toBe('@micrort/ops-gpu');
  });

  it('the int8 demo model has nothing to delegate and says why', async () => {
    const c = capture();
    expect(await main(['run', '--delegate', 'gpu', '--gpu-mode', 'cpu'], c.out)).toBe(0);
    expect(c.text()).toMatch(/partitions: none/);
    expect(c.text()).toMatch(/on the CPU: node 0 QUANTIZE \(no GPU kernel for QUANTIZE\)/);
  });

  it('bench --delegate gpu times ops-reference and the GPU delegate side by side', async () => {
    const c = capture();
    expect(await main(['bench', cnn, '--delegate', 'gpu', '--gpu-mode', 'cpu', '--iters', '2', '--warmup', '1', '--json'], c.out)).toBe(0);
    const r = JSON.parse(c.log[0]!);
    expect(r.runs.map((x: { mode: string }) => x.mode)).toEqual(['reference', 'reference+gpu(cpu)']);
    expect(r.runs[1].providers).toEqual({ '@micrort/ops-gpu': 1 });
  });

  it('flag errors are usage errors', async () => {
    const c = capture();
    expect(await main(['run', '--gpu-mode', 'cpu'], c.out)).toBe(2);
    expect(c.err[0]).toMatch(/--gpu-mode applies to --delegate gpu only/);
    expect(await main(['run', '--delegate', 'npu'], c.out)).toBe(2);
    expect(c.err[1]).toMatch(/--delegate must be one of none, gpu/);
    expect(await main(['run', '--delegate', 'gpu', '--gpu-mode', 'vulkan'], c.out)).toBe(2);
    expect(await main(['run', '--delegate', 'gpu', '--gpu-mode', 'all'], c.out)).toBe(2);
    expect(c.err[3]).toMatch(/--gpu-mode all is for bench/);
  });
});
