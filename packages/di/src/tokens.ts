/**
 * Injection tokens for DI-composed runtimes (tsyringe or any container that resolves by token). The
 * values registered under them are core's plain types: `KernelPackage` (or `withOptions(…)` choices),
 * `MemoryPlanner`, `Delegate`, partial `InterpreterOptions`.
 */
export const TOKENS = {
  /**
   * Multi-registration: the kernel packages of the runtime (`referencePackage`, `withOptions(simdPackage, …)`,
   * `gpuPackage`, …), composed in registration order by `composeRuntime`. With tsyringe, a child
   * container that registers any replaces its parent's list.
   */
  KernelPackage: Symbol.for('micrort.KernelPackage'),
  /** The `MemoryPlanner` of the deployment. */
  MemoryPlanner: Symbol.for('micrort.MemoryPlanner'),
  /** Multi-registration (optional): delegates applied after the packages' own, in order. */
  Delegate: Symbol.for('micrort.Delegate'),
  /** Optional partial `InterpreterOptions` (arena size, delegate options, ...). */
  InterpreterOptions: Symbol.for('micrort.InterpreterOptions'),
} as const;
