import type { DependencyContainer } from 'tsyringe';
import { MicrortError } from '../errors.js';
import type { Delegate } from '../delegate/delegate.js';
import { MicroInterpreter, type InterpreterOptions } from '../interpreter/micro-interpreter.js';
import type { ModelDef } from '../model/model-def.js';
import type { MemoryPlanner } from '../planner/memory-planner.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { TOKENS, type OpProvider } from './tokens.js';

/** Builds an OpResolver from providers in order (plain composition, no container). */
export function resolverFromProviders(providers: Iterable<OpProvider>): OpResolver {
  const resolver = new OpResolver();
  for (const p of providers) {
    const mode = p.mode ?? 'register';
    resolver.registerAll(p.kernels, mode === 'fallback' ? { fallback: true } : mode === 'override' ? { override: true } : {});
  }
  return resolver;
}

/** The OpResolver made of every `TOKENS.OpProvider` registered in `container` (and its parents). */
export function resolverFromContainer(container: DependencyContainer): OpResolver {
  if (!container.isRegistered(TOKENS.OpProvider, true))
    throw new MicrortError('no OpProvider registered in the container under TOKENS.OpProvider; register at least one kernel package');
  return resolverFromProviders(container.resolveAll<OpProvider>(TOKENS.OpProvider));
}

/**
 * A MicroInterpreter composed from a container: kernels from `TOKENS.OpProvider`, the planner from
 * `TOKENS.MemoryPlanner`, delegates from `TOKENS.Delegate` and option defaults from
 * `TOKENS.InterpreterOptions`; `overrides` win. Use a child container per deployment to swap parts.
 */
export function createInterpreterFromContainer(
  container: DependencyContainer,
  model: ModelDef,
  overrides: Partial<InterpreterOptions> = {},
): MicroInterpreter {
  const base = container.isRegistered(TOKENS.InterpreterOptions, true)
    ? container.resolve<Partial<InterpreterOptions>>(TOKENS.InterpreterOptions)
    : {};
  if (!overrides.planner && !container.isRegistered(TOKENS.MemoryPlanner, true))
    throw new MicrortError('no MemoryPlanner registered in the container under TOKENS.MemoryPlanner');
  const planner = overrides.planner ?? container.resolve<MemoryPlanner>(TOKENS.MemoryPlanner);
  const delegates = container.isRegistered(TOKENS.Delegate, true) ? container.resolveAll<Delegate>(TOKENS.Delegate) : [];
  return new MicroInterpreter(model, resolverFromContainer(container), {
    ...base,
    ...(delegates.length ? { delegates } : {}),
    ...overrides,
    planner,
  });
}
