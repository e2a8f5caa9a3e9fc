import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BuiltinOperator,
  KernelError,
  ModelBuilder,
  OpResolver,
  TensorType,
  loadModel,
  writeModel,
  type Node,
  type Registration,
  type TfLiteContext,
} from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE_DIR, hasConformance } from '@micrort/test-support/conformance';
import { main } from '../main.js';
import type { Out } from '../print.js';
import { InProcessExecutor, runCampaign } from './campaign.js';
import { buildCorpus } from './corpus.js';
import { GUARD_SKIPPED, executeCase } from './execute.js';
import { generateCase } from './generate.js';
import { DEF_MUTATORS, cloneDef } from './mutate-def.js';
import { BYTE_MUTATORS } from './mutate-bytes.js';
import { DirectorySink, readReproducer } from './reproducer.js';
import { Rng } from './rng.js';
import { zooModels } from './zoo.js';

const tmp = mkdtempSync(join(tmpdir(), 'micrort-fuzz-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** x float32[1,4] → CUSTOM(name) → y float32[1,4]. */
function customModel(name: string): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [1, 4] });
  b.addOperator({ op: { custom: name }, inputs: [x], outputs: [y] });
  return b.setInputs([x]).setOutputs([y]).build();
}

/** A custom kernel whose invoke is `body(x, y)`. */
function customKernel(name: string, body: (x: Float32Array, y: Float32Array) => void, extra: Partial<Registration> = {}): Registration {
  return {
    builtinCode: BuiltinOperator.CUSTOM,
    customName: name,
    version: 1,
    invoke(ctx: TfLiteContext, node: Node) {
      body(ctx.getEvalTensor(node.inputs[0]!).data as Float32Array, ctx.getEvalTensor(node.outputs[0]!).data as Float32Array);
    },
    ...extra,
  };
}

function runWith(reg: Registration) {
  const resolver = () => registerReferenceOps(new OpResolver()).register(reg);
  return executeCase(customModel(reg.customName!), { maxArenaBytes: 1 << 20, inputSeed: 7, resolver });
}

describe('fuzz rng and generation', () => {
  it('the same (seed, stream) gives the same sequence; other streams differ', () => {
    const seq = (seed: number, stream: number) =>
      Array.from(
        { length: 8 },
        (
          (r) => () =>
            r.uint32()
        )(new Rng(seed, stream)),
      );
    expect(seq(1, 5)).toEqual(seq(1, 5));
    expect(seq(1, 5)).not.toEqual(seq(1, 6));
    expect(seq(2, 5)).not.toEqual(seq(1, 5));
  });

  it('case i of a seed is the same whenever it is generated, and cases differ from their seed model', () => {
    const corpus = buildCorpus({ conformanceDir: null });
    const a = generateCase(corpus, 42, 17);
    generateCase(corpus, 42, 3); // generating other cases in between changes nothing
    const b = generateCase(corpus, 42, 17);
    expect(b.bytes).toEqual(a.bytes);
    expect(b.mutations).toEqual(a.mutations);
    expect(b.model).toBe(a.model);
    const seedBytes = corpus.find((c) => c.name === a.model)!.bytes;
    expect(Buffer.from(a.bytes).equals(Buffer.from(seedBytes))).toBe(false);
  });

  it('every structure-aware and byte mutator applies to some seed model', () => {
    const zoo = zooModels().map((m) => loadModel(m.bytes));
    const rng = new Rng(9, 9);
    for (const [mutator, , label] of DEF_MUTATORS) {
      let applied = false;
      for (let k = 0; k < 200 && !applied; k++) applied = mutator(cloneDef(zoo[k % zoo.length]!), rng) !== null;
      expect(applied, label).toBe(true);
    }
    const bytes = zooModels()[0]!.bytes;
    for (const [mutator] of BYTE_MUTATORS) {
      const [out, what] = mutator(bytes, rng);
      expect(what.length).toBeGreaterThan(0);
      expect(out).not.toBe(bytes);
    }
  });

  it('cloneDef copies what mutations change, so the seed def stays intact', () => {
    const def = loadModel(zooModels()[2]!.bytes);
    const before = JSON.stringify(def, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v));
    const rng = new Rng(3, 3);
    for (let k = 0; k < 50; k++) for (const [m] of DEF_MUTATORS) m(cloneDef(def), rng);
    expect(JSON.stringify(def, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v))).toBe(before);
  });
});

describe('executeCase checks', () => {
  it('an unmutated seed runs and passes the determinism and guard checks', () => {
    for (const m of zooModels())
      expect(executeCase(m.bytes, { maxArenaBytes: 1 << 20, inputSeed: 1, resizeInputs: false }), m.name).toMatchObject({ result: 'ok' });
  });

  it('a model claiming a 2 GB tensor fails with ArenaLimitError before anything is allocated', () => {
    const b = new ModelBuilder();
    const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [1, 4] });
    const big = b.addTensor({ name: 'big', type: TensorType.FLOAT32, shape: [1, 0x1ffffffc] }); // 2^31 - 16 bytes
    b.addOperator({ op: BuiltinOperator.RELU, inputs: [x], outputs: [big] });
    const before = process.memoryUsage().arrayBuffers;
    const o = executeCase(b.setInputs([x]).setOutputs([big]).build(), { maxArenaBytes: 1 << 20, inputSeed: 1 });
    expect(o).toMatchObject({ result: 'rejected', stage: 'allocate', errorName: 'ArenaLimitError' });
    expect(o.message).toMatch(/tensor 1 \(big\) requested 2147483632 bytes.*limit of 1048576 bytes/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it('a kernel reading past its input is an out-of-bounds-read', () => {
    const o = runWith(
      customKernel('ReadPast', (x, y) => {
        for (let i = 0; i < 4; i++) y[i] = x[i]! + x[i + 1]!;
      }),
    );
    expect(o).toMatchObject({ result: 'failure', failure: 'out-of-bounds-read', stage: 'sanitizer' });
  });

  it('whole-view fill, set, subarray and byteLength see the tensor, not its guard', () => {
    const o = runWith(
      customKernel('WholeView', (x, y) => {
        y.fill(0);
        y.set(x.subarray(0, 2), 2);
        if (y.byteLength !== 16 || x.slice().length !== 4) throw new Error(`sizes ${y.byteLength}, ${x.slice().length}`);
        y.set(x.subarray(2));
      }),
    );
    expect(o).toMatchObject({ result: 'ok' });
    expect(o.detail).toBeUndefined();
  });

  it('a kernel writing past its output is an out-of-bounds-write naming the tensor', () => {
    const o = runWith(
      customKernel('WritePast', (x, y) => {
        for (let i = 0; i <= 4; i++) y[i] = x[0]!;
      }),
    );
    expect(o).toMatchObject({ result: 'failure', failure: 'out-of-bounds-write' });
    expect(o.detail).toMatch(/tensor 1 \(y, FLOAT32\[1,4\]\) written 0 bytes past its end/);
  });

  it('a kernel that leaves part of its output unwritten is nondeterministic', () => {
    const o = runWith(
      customKernel('Partial', (x, y) => {
        for (let i = 0; i < 3; i++) y[i] = x[i]!;
      }),
    );
    expect(o).toMatchObject({ result: 'failure', failure: 'nondeterministic', stage: 'determinism' });
  });

  it('a kernel that sizes its loop by .length still passes the guard check', () => {
    const o = runWith(
      customKernel('ByLength', (x, y) => {
        for (let i = 0; i < y.length; i++) y[i] = x[i]! * 2;
      }),
    );
    expect(o).toMatchObject({ result: 'ok' });
  });

  it('a native error in prepare is a kernel-crash; a typed refusal is a rejection', () => {
    const crash = runWith(customKernel('Crash', () => {}, { prepare: () => (null as unknown as { x: number }).x }));
    expect(crash).toMatchObject({ result: 'failure', failure: 'kernel-crash', errorName: 'TypeError' });
    const refuse = runWith(
      customKernel('Refuse', () => {}, {
        prepare: (_ctx, node) => {
          throw new KernelError('Refuse', node.index, 'input 0 must be int8');
        },
      }),
    );
    expect(refuse).toMatchObject({ result: 'rejected', errorName: 'KernelError', message: 'Refuse (node 0): input 0 must be int8' });
  });

  it('a native error from init is attributed to its node (KernelError) and is a kernel-crash', () => {
    const o = runWith(
      customKernel('InitThrows', () => {}, {
        init: () => {
          throw new RangeError('boom');
        },
      }),
    );
    expect(o).toMatchObject({ result: 'failure', failure: 'kernel-crash', errorName: 'RangeError', stage: 'allocate' });
    expect(o.message).toMatch(/\(node 0\): init failed: RangeError: boom/);
  });

  it('with --ops wasm the determinism re-run plans in WebAssembly memory with its read slack (a variable activation at the arena end)', () => {
    // Before: a plain ArrayBuffer (false `inconsistent`), then the backing's whole buffer as the arena,
    // which put persistent tensors at its very end where SIMD loads read past (false `kernel-crash`).
    const def = loadModel(zooModels().find((m) => m.name === 'zoo:float_conv')!.bytes);
    def.subgraphs[0]!.tensors[5]!.isVariable = true;
    const o = executeCase(writeModel(def), { maxArenaBytes: 1 << 20, inputSeed: 21761, ops: 'wasm' });
    expect(o).toMatchObject({ result: 'ok', detail: GUARD_SKIPPED });
  });

  it('malformed bytes are a ModelError at load', () => {
    expect(executeCase(new Uint8Array([1, 2, 3]), { maxArenaBytes: 1 << 20, inputSeed: 1 })).toMatchObject({
      result: 'rejected',
      stage: 'load',
      errorName: 'ModelError',
    });
  });
});

describe('short fuzz campaign (in-process)', () => {
  it('1200 cases over the writer-made seeds and the small conformance models: no failures', async () => {
    // Without ../shared/conformance the campaign runs on the writer-made seeds alone.
    const corpus = buildCorpus({ conformanceDir: CONFORMANCE_DIR }).filter((c) => !c.heavy);
    const zoo = zooModels().length;
    expect(corpus.length).toBe(hasConformance ? zoo + 12 : zoo);
    const sinkDir = join(tmp, 'repro');
    const summary = await runCampaign({
      seed: 2024,
      cases: 1200,
      corpus,
      executor: new InProcessExecutor(),
      sink: new DirectorySink(sinkDir),
    });
    const failures = summary.failures.map(
      (f) => `${f.kind} ${f.errorName ?? ''} ${f.message ?? ''} ${f.detail ?? ''} case ${f.index} ${f.model}: ${f.mutations.join('; ')}`,
    );
    expect(failures).toEqual([]);
    expect(summary.cases).toBe(1200);
    expect(summary.outcomes.ok).toBeGreaterThan(100);
    expect(summary.outcomes.ModelError).toBeGreaterThan(100);
    expect(summary.outcomes.KernelError).toBeGreaterThan(50);
    expect(Object.keys(summary.models).length).toBe(corpus.length);
  });
});

describe('reproducers and the fuzz command', () => {
  it('a saved reproducer replays to the same outcome', async () => {
    const reg = customKernel('WritePast2', (x, y) => {
      for (let i = 0; i < 4; i++) y[i] = x[i]!;
      y[4] = x[0]!;
    });
    const bytes = customModel('WritePast2');
    const options = { maxArenaBytes: 1 << 20, inputSeed: 3 };
    const outcome = executeCase(bytes, { ...options, resolver: () => registerReferenceOps(new OpResolver()).register(reg) });
    const file = new DirectorySink(join(tmp, 'sink')).save(
      {
        seed: 1,
        index: 5,
        model: 'test',
        strategy: 'def',
        mutations: ['none'],
        bytes,
        inputSeed: 3,
        maxArenaBytes: 1 << 20,
        checks: true,
        inPlace: false,
      },
      outcome,
      options,
    );
    expect(file).toMatch(/out-of-bounds-write-s1-c5\.tflite$/);
    const back = readReproducer(file.replace(/\.tflite$/, '.json'));
    expect(back.bytes).toEqual(bytes);
    expect(back.meta?.outcome.failure).toBe('out-of-bounds-write');
    expect(JSON.parse(readFileSync(file.replace(/\.tflite$/, '.json'), 'utf8')).replay).toMatch(/micrort fuzz --replay/);
  });

  it('micrort fuzz --cases N --in-process --json prints the summary and exits 0 without failures', async () => {
    const lines: string[] = [];
    const out: Out = { log: (l) => lines.push(l), err: (l) => lines.push(l) };
    const code = await main(
      [
        'fuzz',
        '--cases',
        '60',
        '--seed',
        '7',
        '--in-process',
        '--json',
        '--conformance',
        CONFORMANCE_DIR ?? tmp,
        '--models',
        'zoo:int8_conv,zoo:float_elementwise',
        '--out',
        join(tmp, 'cmd'),
      ],
      out,
    );
    const summary = JSON.parse(lines.join('\n'));
    expect(code).toBe(0);
    expect(summary).toMatchObject({ seed: 7, cases: 60, failures: [] });
    expect(Object.keys(summary.models).sort()).toEqual(['zoo:float_elementwise', 'zoo:int8_conv']);
  });

  it('micrort fuzz rejects unknown flags with a usage error', async () => {
    const lines: string[] = [];
    const code = await main(['fuzz', '--bogus'], { log: (l) => lines.push(l), err: (l) => lines.push(l) });
    expect(code).toBe(2);
    expect(lines.join('\n')).toMatch(/unknown option --bogus/);
  });
});
