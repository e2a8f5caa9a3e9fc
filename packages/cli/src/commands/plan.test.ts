import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, ModelBuilder, TensorType, loadModel, readOfflineMemoryAllocation } from '@micrort/core';
import { PLANNER_NAMES } from '@micrort/planners';
import { ssdPostProcessModel } from '@micrort/test-support/ssd-model';
import { main } from '../main.js';
import type { Out } from '../print.js';
import { chosenRow, type PlanRow, type ScheduleRow } from './plan.js';

/** An Out that records what a command printed. */
function capture() {
  const log: string[] = [];
  const err: string[] = [];
  const out: Out = { log: (l) => log.push(l), err: (l) => err.push(l) };
  return { out, log, err, text: () => log.join('\n') };
}

async function json(argv: string[]) {
  const c = capture();
  const code = await main(argv, c.out);
  expect(c.err, c.err.join('\n')).toEqual([]);
  expect(code).toBe(0);
  expect(c.log).toHaveLength(1);
  return JSON.parse(c.log[0]!);
}

const dir = mkdtempSync(join(tmpdir(), 'micrort-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('micrort plan (built-in demo model)', () => {
  it('--json: one object with a row per planner, totals = head + tail, ratio = head / lower bound', async () => {
    const r = await json(['plan', '--json']);
    expect(r.planners.map((p: PlanRow) => p.name)).toEqual([...PLANNER_NAMES]);
    for (const p of r.planners as PlanRow[]) {
      expect(Object.keys(p)).toEqual(expect.arrayContaining(['name', 'headBytes', 'totalBytes', 'lowerBoundBytes', 'ratio', 'planMs']));
      expect(p.totalBytes).toBe(p.headBytes + r.tailBytes);
      expect(p.lowerBoundBytes).toBe(r.lowerBoundBytes);
      expect(p.ratio).toBeCloseTo(p.headBytes / p.lowerBoundBytes, 12);
      expect(p.headBytes).toBeGreaterThanOrEqual(p.lowerBoundBytes);
    }
    expect(r.planners.find((p: PlanRow) => p.name === 'optimal').provenMinimal).toBe(true);
  });

  it('greedy total equals the arena `run` allocates with greedy and --arena auto', async () => {
    const plan = await json(['plan', '--planner', 'greedy', '--json']);
    const run = await json(['run', '--planner', 'greedy', '--json']);
    expect(plan.planners).toHaveLength(1);
    expect(plan.planners[0].headBytes).toBe(run.arena.head);
    expect(plan.planners[0].totalBytes).toBe(run.arena.total);
  });

  it('prints a table with the lower bound and where it is reached', async () => {
    const c = capture();
    expect(await main(['plan'], c.out)).toBe(0);
    const text = c.text();
    expect(text).toMatch(/^planner\s+head\s+total arena\s+lower bound\s+ratio\s+plan ms$/m);
    expect(text).toMatch(/^greedy\s+\d[\d,]* B\s+\d[\d,]* B\s+\d[\d,]* B\s+1\.000\s/m);
    expect(text).toMatch(/lower bound: [\d,]+ B, live at step \d+ \(\w+\)/);
    expect(text).toContain('optimal: reaches the lower bound (minimal)');
  });

  it('--svg draws the chosen plan with the lower-bound line and op names', async () => {
    const file = join(dir, 'demo.svg');
    const r = await json(['plan', '--planner', 'linear', '--svg', file, '--json']);
    expect(r.svg).toEqual({ file, planner: 'linear' });
    const svg = readFileSync(file, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/class="buffer tensor"/g)!.length).toBe(r.buffers.tensors);
    expect(svg).toContain('class="lower-bound"');
    expect(svg).toContain(`lower bound ${r.lowerBoundBytes} B`);
    expect(svg).toContain('FULLY_CONNECTED');
    expect(svg).toContain('linear plan');
  });

  it('--embed writes the model with its plan; run --planner offline reproduces the head', async () => {
    const file = join(dir, 'demo-planned.tflite');
    const r = await json(['plan', '--planner', 'optimal', '--embed', file, '--json']);
    expect(r.embed).toMatchObject({ file, planner: 'optimal', reproduced: true, headBytes: r.planners[0].headBytes });
    const offsets = readOfflineMemoryAllocation(loadModel(new Uint8Array(readFileSync(file))))!;
    expect(Array.from(offsets).filter((o) => o >= 0)).toHaveLength(r.buffers.tensors);
    const run = await json(['run', file, '--planner', 'offline', '--json']);
    expect(run.arena.head).toBe(r.planners[0].headBytes);
    const text = capture();
    expect(await main(['plan', file, '--planner', 'offline'], text.out)).toBe(0);
    expect(text.text()).not.toContain('no OfflineMemoryAllocation metadata');
  });

  it('--in-place reports the pairs and the head without them', async () => {
    const r = await json(['plan', '--in-place', '--json']);
    expect(r.inPlace).toBe(true);
    expect(r.inPlacePairs.length).toBeGreaterThan(0);
    for (const p of r.planners as PlanRow[]) expect(p.headBytes).toBeLessThanOrEqual(p.headBytesWithoutInPlace!);
    expect(r.lowerBoundBytes).toBeLessThanOrEqual(r.lowerBoundBytesWithoutInPlace);
    const run = await json(['run', '--in-place', '--json']);
    const plain = await json(['run', '--json']);
    expect(run.outputs.map((o: { values: number[] }) => o.values)).toEqual(plain.outputs.map((o: { values: number[] }) => o.values));
  });

  it('an embedded in-place plan runs with --in-place; without it the offline check names the overlap', async () => {
    // x → RELU → a → RELU6 → b → RELU → y: b and y may take a's bytes.
    const mb = new ModelBuilder();
    const t = ['x', 'a', 'b', 'y'].map((name) => mb.addTensor({ name, type: TensorType.FLOAT32, shape: [1, 64] }));
    mb.addOperator({ op: BuiltinOperator.RELU, inputs: [t[0]!], outputs: [t[1]!] });
    mb.addOperator({ op: BuiltinOperator.RELU6, inputs: [t[1]!], outputs: [t[2]!] });
    mb.addOperator({ op: BuiltinOperator.RELU, inputs: [t[2]!], outputs: [t[3]!] });
    const source = join(dir, 'chain.tflite');
    writeFileSync(source, mb.setInputs([t[0]!]).setOutputs([t[3]!]).build());
    const file = join(dir, 'chain-in-place.tflite');
    const r = await json(['plan', source, '--planner', 'greedy', '--in-place', '--embed', file, '--json']);
    expect(r.embed.reproduced).toBe(true);
    expect(r.inPlacePairs.map((p: { input: number; output: number }) => [p.input, p.output])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    const offsets = readOfflineMemoryAllocation(loadModel(new Uint8Array(readFileSync(file))))!;
    expect(offsets[1]).toBe(offsets[2]);
    const run = await json(['run', file, '--planner', 'offline', '--in-place', '--json']);
    expect(run.arena.head).toBe(r.planners[0].headBytes);
    const c = capture();
    expect(await main(['run', file, '--planner', 'offline'], c.out)).toBe(1);
    expect(c.err[0]).toMatch(/^PlanOverlapError: offline plan overlap: .*tensor \d+ "[ab]".*tensor \d+ "[by]"/);
  });

  it('--schedule all: a row per schedule beside the normal lower bound; the patch row recomputes nothing it does not report', async () => {
    const r = await json(['plan', 'demo:float-cnn', '--schedule', 'all', '--json']);
    expect(r.schedules.map((s: ScheduleRow) => s.name)).toEqual(['normal', 'inplace', 'patch', 'patch+inplace']);
    const normal = r.schedules[0] as ScheduleRow;
    expect(normal.lowerBoundBytes).toBe(r.normalLowerBoundBytes);
    for (const s of r.schedules as ScheduleRow[]) {
      expect(s.ratioToNormalBound).toBeCloseTo(s.headBytes / r.normalLowerBoundBytes, 12);
      expect(s.totalBytes).toBe(s.headBytes + s.tailBytes);
      expect(s.headBytes).toBeLessThanOrEqual(normal.headBytes);
    }
    const patch = (r.schedules as ScheduleRow[]).find((s) => s.name === 'patch')!;
    expect(patch.summary).toMatch(/^nodes \d+-\d+ \(.*\) in \d+x\d+ tiles of \d+x\d+ output pixels, \d+ tile buffers, \+[\d.]+ M MACs/);
  });

  it("--schedule patch --svg draws one tile's steps, the tile buffers and the normal lower bound", async () => {
    const file = join(dir, 'patch.svg');
    const r = await json(['plan', 'demo:float-cnn', '--schedule', 'patch', '--planner', 'greedy', '--svg', file, '--json']);
    expect(r.svg).toEqual({ file, planner: 'greedy', schedule: 'patch' });
    expect(r.scheduleReport.patch.grid).not.toBeNull();
    const svg = readFileSync(file, 'utf8');
    expect(svg).toContain('class="band"');
    expect(svg).toMatch(/one tile, × \d+ tiles/);
    expect(svg.match(/class="buffer tensor tile"/g)!.length).toBe(r.scheduleReport.patch.buffers.length);
    expect(svg).toMatch(/class="mark".*normal schedule lower bound /);
    const c = capture();
    expect(await main(['plan', 'demo:float-cnn', '--schedule', 'patch'], c.out)).toBe(0);
    expect(c.text()).toMatch(/^schedule patch: head [\d,]+ B \(\w+\) = [\d.]+x the normal schedule's lower bound [\d,]+ B$/m);
  });

  it('--embed refuses a patch plan (its tile buffers are not model tensors)', async () => {
    const c = capture();
    expect(await main(['plan', 'demo:float-cnn', '--schedule', 'patch', '--embed', join(dir, 'x.tflite')], c.out)).toBe(2);
    expect(c.err.join('\n')).toMatch(/--embed writes offsets of the model's tensors; the patch schedule plans tile buffers/);
  });

  it('rejects an unknown planner with the list of names, and a second model', async () => {
    const c = capture();
    expect(await main(['plan', '--planner', 'nope'], c.out)).not.toBe(0);
    expect(c.err.join('\n')).toMatch(/nope.*greedy.*linear.*bestfit.*offline.*optimal/);
    const d = capture();
    expect(await main(['plan', 'a.tflite', 'b.tflite'], d.out)).toBe(2);
  });

  it('chosenRow takes the smallest head, the first on ties', () => {
    const row = (name: string, headBytes: number) => ({ name, headBytes }) as PlanRow;
    expect(chosenRow([row('greedy', 64), row('linear', 96), row('optimal', 64)]).name).toBe('greedy');
    expect(chosenRow([row('greedy', 80), row('optimal', 64)]).name).toBe('optimal');
  });
});

describe('micrort plan: nodes micrort cannot prepare', () => {
  it('plans them with a stand-in, says which and why; --strict refuses', async () => {
    // TFLite_Detection_PostProcess with unshaped outputs: micrort's kernel refuses them in prepare.
    const file = join(dir, 'ssd.tflite');
    writeFileSync(file, ssdPostProcessModel());
    const r = await json(['plan', file, '--planner', 'greedy', '--json']);
    expect(r.standIns).toEqual([
      {
        subgraph: 0,
        node: 0,
        op: 'CUSTOM:TFLite_Detection_PostProcess',
        reason: expect.stringContaining('its prepare failed: detection_boxes (shape []) must hold at least 12 values'),
      },
    ]);
    const c = capture();
    expect(await main(['plan', file, '--planner', 'greedy'], c.out)).toBe(0);
    expect(c.text()).toContain(
      'note: node 0 CUSTOM:TFLite_Detection_PostProcess is planned with a stand-in (micrort cannot prepare it: its prepare failed',
    );
    const strict = capture();
    expect(await main(['plan', file, '--strict'], strict.out)).toBe(1);
    expect(strict.err.join('\n')).toMatch(/KernelError: TFLite_Detection_PostProcess \(node 0\): detection_boxes \(shape \[\]\)/);
  });
});

describe('micrort run --arena too small', () => {
  it('says in one line which arena size fits, and that size works', async () => {
    const c = capture();
    expect(await main(['run', '--arena', '64'], c.out)).toBe(1);
    expect(c.err).toHaveLength(1);
    const m = /^ArenaTooSmallError: .*an arena of (\d+) bytes would fit this model/.exec(c.err[0]!);
    expect(m, c.err[0]).not.toBeNull();
    const fits = Number(m![1]);
    const ok = await json(['run', '--arena', String(fits), '--json']);
    expect(ok.arena.arenaBytes).toBe(fits);
    expect(ok.arena.total).toBe(fits);
    const c2 = capture();
    expect(await main(['run', '--arena', String(fits - 16)], c2.out)).toBe(1);
    expect(c2.err[0]).toContain(`an arena of ${fits} bytes would fit`);
  });
});
