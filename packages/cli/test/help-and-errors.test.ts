/**
 * The command line itself: help for the program and every command, typed option errors (UsageError,
 * one line, exit code 2), runtime errors (one line, exit code 1), and registering a new command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@micrort/test-support/conformance';
import { UsageError } from '../src/args.js';
import { buildProgram, defineCommand } from '../src/command.js';
import { COMMANDS } from '../src/commands/index.js';
import { PROGRAM, main } from '../src/main.js';
import { choice, int } from '../src/options.js';
import type { Out } from '../src/print.js';

function capture() {
  const log: string[] = [];
  const err: string[] = [];
  const out: Out = { log: (l) => log.push(...l.split('\n')), err: (l) => err.push(...l.split('\n')) };
  return { out, log, err, text: () => log.join('\n') };
}

async function cli(...argv: string[]) {
  const c = capture();
  const code = await main(argv, c.out);
  return { code, out: c.text(), err: c.err };
}

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string };

describe('micrort --help', () => {
  it('lists every command with its summary and exits 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out).toMatch(/^Usage: micrort <command> \[options\]/);
      for (const c of COMMANDS)
        expect(r.out).toMatch(new RegExp(`^  ${c.name} .*${c.summary.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
      expect(r.out).toContain('exit with code 2 for usage errors, 1 for others');
    }
  });

  it('with no command prints the help and exits 2', async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^Usage: micrort <command>/);
  });

  it('--version prints the package version', async () => {
    const r = await cli('--version');
    expect(r.code).toBe(0);
    expect(r.out).toBe(version);
  });
});

describe('micrort <command> --help', () => {
  for (const spec of COMMANDS) {
    it(`${spec.name}: documents every option with its accepted values and default, exit 0`, async () => {
      for (const argv of [
        [spec.name, '--help'],
        ['help', spec.name],
      ]) {
        const r = await cli(...argv);
        expect(r.code).toBe(0);
        expect(r.err).toEqual([]);
        // commander wraps long lines: compare with whitespace collapsed
        const text = r.out.replace(/\s+/g, ' ');
        expect(text).toMatch(new RegExp(`^Usage: micrort ${spec.name} \\[options\\]`));
        for (const o of [...spec.options, { name: 'debug', description: 'print stack traces on errors' }]) {
          expect(text, `--${o.name}`).toContain(`--${o.name}${'value' in o && o.value ? ` <${o.value}>` : ''}`);
          expect(text, `--${o.name}`).toContain(o.description);
          if ('accepts' in o && o.accepts) expect(text, `--${o.name} accepts`).toContain(o.accepts);
          if ('default' in o && o.default !== undefined) expect(text, `--${o.name} default`).toContain(`default: ${o.default}`);
        }
        for (const a of spec.arguments ?? []) expect(text).toContain(a.description);
      }
    });
  }

  it('run --help names the values of --ops and the default planner', async () => {
    const r = await cli('run', '--help');
    const text = r.out.replace(/\s+/g, ' ');
    expect(text).toMatch(/--ops <NAME> kernel package .*\[one of reference, simd, wasm; default: reference\]/);
    expect(text).toMatch(/--planner <NAME> .*\[one of greedy, linear, bestfit, offline, optimal; default: greedy\]/);
  });
});

describe('option errors are typed UsageErrors: one line naming the option, the value and what is accepted; exit 2', () => {
  it.each([
    [['run', '--ops', 'fancy'], /^UsageError: unknown --ops "fancy": --ops must be one of reference, simd, wasm$/],
    [['run', '--seed', '-3'], /^UsageError: --seed must be a non-negative integer, got -3$/],
    [['run', '--arena', '12kb'], /^UsageError: --arena must be a positive number of bytes or auto, got 12kb$/],
    [['bench', '--iters', '0'], /^UsageError: --iters must be an integer >= 1, got 0$/],
    [['bench', '--warmup', 'lots'], /^UsageError: --warmup must be a non-negative integer, got lots$/],
    [
      ['plan', '--planner', 'nope'],
      /^UsageError: unknown --planner "nope": --planner must be one of all, greedy, linear, bestfit, offline, optimal$/,
    ],
    [['soak', '--invokes', '0'], /^UsageError: --invokes must be an integer >= 1, got 0$/],
    [['fuzz', '--workers', 'two'], /^UsageError: --workers must be an integer >= 1, got two$/],
    [['run', '--delegate', 'gpu', '--gpu-mode', 'vulkan'], /^UsageError: --gpu-mode must be auto, .*; got vulkan$/],
    [['run', '--exclude-nodes', '3,x'], /^UsageError: --exclude-nodes takes node indices like 3,7; got 3,x$/],
    [['run', '--bogus'], /^UsageError: unknown option --bogus for micrort run \(known: --inputs, --outputs, --ops, .*--debug\)$/],
    [['run', '--jsn'], /^UsageError: unknown option --jsn for micrort run \(did you mean --json\?\) \(known: /],
    [['run', '--json=yes'], /^UsageError: --json takes no value, got --json=yes$/],
    [['bench', '--iters'], /^UsageError: --iters needs a value: timed invokes/],
    [['bench', 'a.tflite', 'b.tflite'], /^UsageError: micrort bench takes at most 1 argument \(\[model\]\), got 2: a.tflite b.tflite$/],
    [['fuzz', 'extra'], /^UsageError: micrort fuzz takes no arguments, got 1: extra$/],
    [['frobnicate'], /^UsageError: unknown command "frobnicate" \(commands: run, inspect, check, plan, deploy, bench, fuzz, soak\)$/],
  ])('%j', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(message);
    expect(r.out).toBe('');
  });

  it('the thrown error carries the option, the value and what is accepted', async () => {
    const c = capture();
    const program = buildProgram(PROGRAM, COMMANDS, c.out, { code: 0 });
    const e = await program.parseAsync(['bench', '--ops', 'fancy'], { from: 'user' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect(e).toMatchObject({ name: 'UsageError', option: '--ops', value: 'fancy', accepted: 'one of reference, simd, wasm' });
    const p2 = buildProgram(PROGRAM, COMMANDS, c.out, { code: 0 });
    const e2 = await p2.parseAsync(['run', '--wait-states', 'x', '--cycles'], { from: 'user' }).catch((x: unknown) => x);
    expect(e2).toMatchObject({ option: '--wait-states', value: 'x', accepted: 'a non-negative integer' });
  });

  it('options may come before or after the model, in --flag=value form, and --debug anywhere', async () => {
    const a = await cli('run', '--json', '--seed=2', 'demo');
    const b = await cli('--debug', 'run', 'demo', '--seed', '2', '--json');
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(JSON.parse(a.out).outputs).toEqual(JSON.parse(b.out).outputs);
  });
});

describe('a model argument that is not a file is a UsageError saying what to give, exit 2', () => {
  for (const command of ['run', 'inspect', 'plan', 'bench', 'check', 'deploy']) {
    it(`${command}: a missing file`, async () => {
      const r = await cli(command, '/nonexistent/model.tflite');
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toBe(
        'UsageError: model "/nonexistent/model.tflite" not found: give a .tflite file or a built-in model (demo, demo:float-cnn)',
      );
    });
  }
  it('a folder (outside check, which takes one)', async () => {
    const r = await cli('inspect', REPO_ROOT);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      `UsageError: model ${JSON.stringify(REPO_ROOT)} is a folder: give a .tflite file (micrort check also takes a folder)`,
    ]);
  });
});

describe('runtime errors keep one line `ErrorName: message` and exit 1', () => {
  it('an arena too small, and its stack with --debug', async () => {
    const r = await cli('run', '--arena', '64');
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^ArenaTooSmallError: /);
    const d = await cli('run', '--arena', '64', '--debug');
    expect(d.code).toBe(1);
    expect(d.err.length).toBeGreaterThan(1);
    expect(d.err.join('\n')).toMatch(/ArenaTooSmallError[\s\S]*\n\s+at /);
  });
});

describe('adding a command: one defineCommand and one registration', () => {
  const hello = defineCommand({
    name: 'hello',
    summary: 'greet someone',
    description: 'Prints a greeting.',
    arguments: [{ name: 'who', description: 'whom to greet' }],
    options: [choice('tone', 'how to greet', ['plain', 'loud'], 'plain', 'TONE'), int('times', 'greetings', 1, 1)],
    run(args, out) {
      const n = Number(args.flags.get('times') ?? 1);
      for (let i = 0; i < n; i++) out.log(`${args.flags.get('tone') === 'loud' ? 'HELLO' : 'hello'} ${args.positional[0] ?? 'world'}`);
      return 0;
    },
  });
  const commands = [...COMMANDS, hello];

  it('runs, is listed in the help, has its own help and typed option errors', async () => {
    const c = capture();
    expect(await main(['hello', 'you', '--tone', 'loud', '--times', '2'], c.out, commands)).toBe(0);
    expect(c.log).toEqual(['HELLO you', 'HELLO you']);
    const h = capture();
    expect(await main(['--help'], h.out, commands)).toBe(0);
    expect(h.text()).toMatch(/^ {2}hello \[options\] \[who\]\s+greet someone$/m);
    const hh = capture();
    expect(await main(['hello', '--help'], hh.out, commands)).toBe(0);
    expect(hh.text()).toMatch(/--tone <TONE>\s+how to greet \[one of plain, loud; default: plain\]/);
    const bad = capture();
    expect(await main(['hello', '--times', '0'], bad.out, commands)).toBe(2);
    expect(bad.err).toEqual(['UsageError: --times must be an integer >= 1, got 0']);
  });

  it('a name registered twice is refused', async () => {
    const c = capture();
    expect(await main(['run'], c.out, [...COMMANDS, { ...hello, name: 'run' }])).toBe(1);
    expect(c.err[0]).toMatch(/command "run" registered twice/);
  });
});
