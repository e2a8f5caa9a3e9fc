import { describe, expect, it } from 'vitest';
import type { Delegate } from '../delegate/delegate.js';
import type { Node, Registration, TfLiteContext } from '../kernel/api.js';
import { ResolverError } from '../errors.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { TestLinearPlanner, addConstKernel, chainModel } from '../interpreter/__fixtures__/tiny-models.js';
import { CompositionError, composeRuntime, composeRuntimeAsync } from './compose-runtime.js';
import { withOptions, type KernelContribution, type KernelPackage } from './kernel-package.js';

/** A package of ADD_CONST kernels adding `c`, optionally declining every node with a reason. */
function addPackage(
  name: string,
  c: number,
  join: KernelPackage['join'],
  log: string[] = [],
): KernelPackage<{ decline?: boolean; c?: number }> {
  const make = (options: { decline?: boolean; c?: number } = {}): KernelContribution => {
    log.push(`create ${name}`);
    const k: Registration = {
      ...(addConstKernel(options.c ?? c) as Registration),
      provider: name,
      ...(options.decline ? { supports: (_ctx: TfLiteContext, node: Node) => `declines node ${node.index}` } : {}),
    };
    return { register: (resolver, o) => void resolver.register(k, o), dispose: () => log.push(`dispose ${name}`) };
  };
  return { name, provider: name, summary: `adds ${c}`, provides: ['custom-ops'], join, create: make };
}

function run(rt: ReturnType<typeof composeRuntime>): number {
  const it = rt.createInterpreter(chainModel(), { planner: new TestLinearPlanner() }).allocateTensors();
  (it.input(0).data as Float32Array).fill(0);
  it.invoke();
  const y = (it.output(0).data as Float32Array)[0]!;
  it.dispose();
  return y;
}

describe('composeRuntime', () => {
  it('joins packages in list order: a fallback package goes in front, the ones before serve what it declines', () => {
    const base = addPackage('base', 1, 'register');
    const front = addPackage('front', 10, 'fallback');
    const rt = composeRuntime([base, front]);
    expect(run(rt)).toBe(30);
    expect(rt.packages.map((p) => [p.name, p.join])).toEqual([
      ['base', 'register'],
      ['front', 'fallback'],
    ]);
    // the front package declines every node: the base serves them, and the node says who declined and why
    const declining = composeRuntime([base, withOptions(front, { decline: true })]);
    const it = declining.createInterpreter(chainModel(), { planner: new TestLinearPlanner() }).allocateTensors();
    expect(it.nodes().map((n) => n.provider)).toEqual(['base', 'base', 'base']);
    expect(it.nodes()[1]!.declined).toEqual([{ provider: 'front', kernel: 'CUSTOM:ADD_CONST', reason: 'declines node 1' }]);
  });

  it('options reach create; a choice may change how the package joins', () => {
    const base = addPackage('base', 1, 'register');
    expect(run(composeRuntime([withOptions(base, { c: 5 })]))).toBe(15);
    expect(run(composeRuntime([base, withOptions(addPackage('other', 2, 'register'), {}, 'override')]))).toBe(6);
    // two complete packages for the same op: the resolver's duplicate error, and what was created is disposed
    const log: string[] = [];
    expect(() => composeRuntime([addPackage('a', 1, 'register', log), addPackage('b', 2, 'register', log)])).toThrow(ResolverError);
    expect(log).toEqual(['create a', 'create b', 'dispose a', 'dispose b']);
  });

  it('interpreter options and delegates: gathered in order, a clash is a CompositionError, dispose runs once', () => {
    const log: string[] = [];
    const delegate = { name: 'd', flags: {}, prepare: () => log.push('delegate prepare') } as unknown as Delegate;
    const withOpt = (name: string): KernelPackage => ({
      name,
      provider: name,
      summary: '',
      provides: ['delegate'],
      join: 'register',
      create: () => ({
        interpreterOptions: { externalContexts: { who: name } },
        delegates: [delegate],
        dispose: () => log.push(`dispose ${name}`),
      }),
    });
    const rt = composeRuntime([addPackage('base', 1, 'register'), withOpt('x')]);
    expect(rt.interpreterOptions).toEqual({ externalContexts: { who: 'x' }, delegates: [delegate] });
    expect(run(rt)).toBe(3);
    expect(log).toContain('delegate prepare');
    rt.dispose();
    rt.dispose();
    expect(log.filter((l) => l.startsWith('dispose'))).toEqual(['dispose x']);
    expect(() => composeRuntime([withOpt('x'), withOpt('y')])).toThrow(
      new CompositionError('y', 'y and x both set the interpreter option externalContexts; compose one of them'),
    );
  });

  it('an async-only package composes only asynchronously; composeRuntimeAsync prefers createAsync', async () => {
    const log: string[] = [];
    const asyncOnly: KernelPackage = {
      ...addPackage('async', 100, 'fallback'),
      create: undefined,
      createAsync: async () => {
        log.push('createAsync');
        return addPackage('async', 100, 'fallback').create!();
      },
    };
    expect(() => composeRuntime([asyncOnly])).toThrow(
      /async can only be created asynchronously here: compose it with composeRuntimeAsync\(\)/,
    );
    const rt = await composeRuntimeAsync([addPackage('base', 1, 'register'), asyncOnly]);
    expect(log).toEqual(['createAsync']);
    expect(run(rt)).toBe(300);
  });

  it('registers into a given resolver, behind kernels registered by hand', () => {
    const resolver = new OpResolver().register({ ...(addConstKernel(7) as Registration), provider: 'hand' });
    const rt = composeRuntime([addPackage('front', 10, 'fallback', [])], { resolver });
    expect(rt.resolver).toBe(resolver);
    expect(resolver.listRegistrations().map((r) => r.provider)).toEqual(['front', 'hand']);
  });
});
