/**
 * A runtime composed from a container: the kernel packages registered under `TOKENS.KernelPackage` go
 * through core's `composeRuntime`, so a DI-composed runtime is the same runtime the plain API builds.
 * This package imports no container at runtime (tsyringe's `DependencyContainer` is a type here).
 */
import type { DependencyContainer } from 'tsyringe';
import {
  MicrortError,
  composeRuntime,
  type ComposeEntry,
  type ComposedRuntime,
  type Delegate,
  type InterpreterOptions,
  type MemoryPlanner,
  type MicroInterpreter,
  type ModelDef,
} from '@micrort/core';
import { TOKENS } from './tokens.js';

/** `composeRuntime()` over the `TOKENS.KernelPackage` registrations `container` resolves (its own, else its nearest parent's). */
export function runtimeFromContainer(container: DependencyContainer): ComposedRuntime {
  if (!container.isRegistered(TOKENS.KernelPackage, true))
    throw new MicrortError(
      'no KernelPackage registered in the container under TOKENS.KernelPackage; register at least one (referencePackage)',
    );
  return composeRuntime(container.resolveAll<ComposeEntry>(TOKENS.KernelPackage));
}

/**
 * A MicroInterpreter composed from a container: kernels from the `TOKENS.KernelPackage` packages, the
 * planner from `TOKENS.MemoryPlanner`, delegates from the packages and then `TOKENS.Delegate`, option
 * defaults from `TOKENS.InterpreterOptions`; `overrides` win. Use a child container per deployment to
 * swap parts. The packages' resources (GPU contexts) are released by `runtimeFromContainer(c).dispose()`
 * when composing by hand; here they live as long as the interpreter's delegates.
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
  const runtime = runtimeFromContainer(container);
  return runtime.createInterpreter(model, {
    ...base,
    ...(delegates.length ? { delegates } : {}),
    ...overrides,
    planner,
  });
}
