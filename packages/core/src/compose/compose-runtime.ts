import { MicrortError } from '../errors.js';
import type { Delegate } from '../delegate/delegate.js';
import { MicroInterpreter, type InterpreterOptions } from '../interpreter/micro-interpreter.js';
import type { ModelDef } from '../model/model-def.js';
import { OpResolver, type RegisterOptions } from '../resolver/op-resolver.js';
import type {
  ComposeEntry,
  KernelContribution,
  KernelJoin,
  KernelPackage,
  KernelPackageChoice,
  KernelPackageProvides,
} from './kernel-package.js';

/** A package that cannot be composed: created only asynchronously in a sync composition, its creation failed, or two packages set the same interpreter option. */
export class CompositionError extends MicrortError {
  constructor(
    /** The package concerned. */
    readonly packageName: string,
    message: string,
  ) {
    super(message);
  }
}

/** A package as composed into a runtime. */
export interface ComposedPackage {
  readonly name: string;
  readonly provider: string;
  readonly provides: readonly KernelPackageProvides[];
  readonly join: KernelJoin;
  /** What its creation returned (a package's own fields, such as counters, ride along). */
  readonly contribution: KernelContribution;
}

/** Options of {@link composeRuntime}. */
export interface ComposeOptions {
  /** The resolver to register into (default: a new one); kernels registered by hand before stay behind the packages that fall back. */
  resolver?: OpResolver;
}

/**
 * What `new MicroInterpreter` needs, composed from kernel packages: the resolver, the interpreter
 * options the packages contribute (ops-wasm's `arenaBacking`, the delegates), and which packages were
 * composed (to tell which one served each node).
 */
export interface ComposedRuntime {
  readonly resolver: OpResolver;
  /** Spread into the interpreter's options: what the packages need, `delegates` included when there are any. */
  readonly interpreterOptions: Partial<InterpreterOptions>;
  /** The packages' delegates, in composition order. */
  readonly delegates: readonly Delegate[];
  /** The packages, in composition order. */
  readonly packages: readonly ComposedPackage[];
  /**
   * `new MicroInterpreter(model, resolver, { ...interpreterOptions, ...options })`; delegates of
   * `options` run after the packages'.
   */
  createInterpreter(model: ModelDef, options: InterpreterOptions): MicroInterpreter;
  /** Releases what the packages hold (GPU contexts), once; interpreters made from it must be disposed first. */
  dispose(): void;
}

function entryParts(entry: ComposeEntry): { pkg: KernelPackage; options: object | undefined; join: KernelJoin } {
  if ('package' in entry) {
    const choice = entry as KernelPackageChoice;
    return { pkg: choice.package, options: choice.options, join: choice.join ?? choice.package.join };
  }
  return { pkg: entry, options: undefined, join: entry.join };
}

const JOIN_OPTIONS: Record<KernelJoin, RegisterOptions> = { register: {}, fallback: { fallback: true }, override: { override: true } };

/** Registers the created contributions in order and gathers their options and delegates. */
function assemble(
  parts: readonly { pkg: KernelPackage; join: KernelJoin; contribution: KernelContribution }[],
  options: ComposeOptions,
): ComposedRuntime {
  const resolver = options.resolver ?? new OpResolver();
  const interpreterOptions: Record<string, unknown> = {};
  const setBy = new Map<string, string>();
  const delegates: Delegate[] = [];
  for (const { pkg, join, contribution } of parts) {
    contribution.register?.(resolver, { ...JOIN_OPTIONS[join] });
    for (const [key, value] of Object.entries(contribution.interpreterOptions ?? {})) {
      const other = setBy.get(key);
      if (other !== undefined)
        throw new CompositionError(pkg.name, `${pkg.name} and ${other} both set the interpreter option ${key}; compose one of them`);
      setBy.set(key, pkg.name);
      interpreterOptions[key] = value;
    }
    delegates.push(...(contribution.delegates ?? []));
  }
  if (delegates.length) interpreterOptions['delegates'] = delegates;
  const packages = parts.map(({ pkg, join, contribution }) => ({
    name: pkg.name,
    provider: pkg.provider,
    provides: pkg.provides,
    join,
    contribution,
  }));
  let disposed = false;
  return {
    resolver,
    interpreterOptions: interpreterOptions as Partial<InterpreterOptions>,
    delegates,
    packages,
    createInterpreter(model, opts) {
      const all = [...delegates, ...(opts.delegates ?? [])];
      return new MicroInterpreter(model, resolver, { ...interpreterOptions, ...opts, ...(all.length ? { delegates: all } : {}) });
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const p of parts) p.contribution.dispose?.();
    },
  };
}

/** Disposes what was created before a failure, then rethrows it (a package's own typed error stays as it is). */
function failed(created: readonly { contribution: KernelContribution }[], error: unknown): never {
  for (const c of created) c.contribution.dispose?.();
  throw error;
}

/**
 * Composes a runtime from kernel packages, synchronously: each entry is created (`create`, with its
 * options) and joins the resolver in list order as its {@link KernelJoin} says — complete packages
 * first, then the ones that fall back in front of them:
 *
 * ```ts
 * const rt = composeRuntime([referencePackage, signalPackage, withOptions(simdPackage, { mode: 'emulated', counters })]);
 * const interpreter = new MicroInterpreter(model, rt.resolver, { ...rt.interpreterOptions, planner: new GreedyPlanner() });
 * ```
 *
 * A package without a sync `create` is a CompositionError (use {@link composeRuntimeAsync}); an error
 * of a package's creation (WasmUnsupportedError, GpuModeError) propagates as it is, after what was
 * already created is disposed.
 */
export function composeRuntime(entries: readonly ComposeEntry[], options: ComposeOptions = {}): ComposedRuntime {
  const created: { pkg: KernelPackage; join: KernelJoin; contribution: KernelContribution }[] = [];
  try {
    for (const entry of entries) {
      const { pkg, options: o, join } = entryParts(entry);
      if (!pkg.create)
        throw new CompositionError(pkg.name, `${pkg.name} can only be created asynchronously here: compose it with composeRuntimeAsync()`);
      created.push({ pkg, join, contribution: pkg.create(o) });
    }
    return assemble(created, options);
  } catch (e) {
    return failed(created, e);
  }
}

/**
 * {@link composeRuntime}, creating each package with `createAsync` where it has one (ops-wasm compiles
 * its module asynchronously, as a browser's main thread requires), else with `create`.
 */
export async function composeRuntimeAsync(entries: readonly ComposeEntry[], options: ComposeOptions = {}): Promise<ComposedRuntime> {
  const created: { pkg: KernelPackage; join: KernelJoin; contribution: KernelContribution }[] = [];
  try {
    for (const entry of entries) {
      const { pkg, options: o, join } = entryParts(entry);
      const make = pkg.createAsync ? () => pkg.createAsync!(o) : pkg.create ? async () => pkg.create!(o) : null;
      if (!make) throw new CompositionError(pkg.name, `${pkg.name} has neither create() nor createAsync()`);
      created.push({ pkg, join, contribution: await make() });
    }
    return assemble(created, options);
  } catch (e) {
    return failed(created, e);
  }
}
