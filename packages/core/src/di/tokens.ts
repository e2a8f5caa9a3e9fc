import type { Registration } from '../kernel/api.js';

/**
 * Injection tokens for DI-composed runtimes (tsyringe or any container that resolves by token).
 * Core only defines the tokens and the composition functions; it never imports a container at runtime.
 */
export const TOKENS = {
  /** Multi-registration: every `OpProvider` of the runtime, in registration order. */
  OpProvider: Symbol.for('micrort.OpProvider'),
  /** The `MemoryPlanner` of the deployment. */
  MemoryPlanner: Symbol.for('micrort.MemoryPlanner'),
  /** Multi-registration (optional): delegates applied in order. */
  Delegate: Symbol.for('micrort.Delegate'),
  /** Optional partial `InterpreterOptions` (arena size, delegate options, ...). */
  InterpreterOptions: Symbol.for('micrort.InterpreterOptions'),
} as const;

/**
 * A package of kernels as registered in a container. `mode` says how its kernels join the resolver:
 * `register` (default; duplicates are an error), `fallback` (in front of earlier providers, which serve
 * the variants this one declines) or `override` (replace earlier providers).
 */
export interface OpProvider {
  readonly name: string;
  readonly kernels: readonly Registration[];
  readonly mode?: 'register' | 'fallback' | 'override';
}
