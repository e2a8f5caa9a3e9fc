import type { Delegate } from '../delegate/delegate.js';
import type { InterpreterOptions } from '../interpreter/micro-interpreter.js';
import type { OpResolver, RegisterOptions } from '../resolver/op-resolver.js';

/** What a kernel package provides: kernels of builtin ops, kernels of custom ops, a delegate. */
export type KernelPackageProvides = 'builtin-ops' | 'custom-ops' | 'delegate';

/**
 * How a package's kernels join the resolver, in the order {@link composeRuntime} composes packages
 * (the modes of `OpResolver.register`):
 * - `register` — beside the packages composed before it; a second provider for the same op and version
 *   is a ResolverError naming both. For packages that serve every variant of their ops (ops-reference,
 *   ops-signal, ops-mediapipe).
 * - `fallback` — in front of the packages composed before it, which serve the nodes its kernels'
 *   `supports()` declines. For packages that serve some variants only (ops-simd: int8; ops-wasm).
 * - `override` — replaces the providers composed before it for every op it registers.
 */
export type KernelJoin = 'register' | 'fallback' | 'override';

/** One option of a package, described for apps (a command-line flag, a picker) and for its docs. */
export interface KernelPackageOption {
  /** The key in the options object, e.g. `mode`. */
  readonly name: string;
  /** One line. */
  readonly summary: string;
  /** The values it takes, when it is a choice. */
  readonly choices?: readonly string[];
  /** What applies when it is absent. */
  readonly default?: string;
}

/**
 * What one created package contributes to one runtime. Everything is optional: a kernel package
 * registers kernels (and may need interpreter options), a delegate package supplies delegates.
 */
export interface KernelContribution {
  /**
   * Registers the package's kernels on `resolver` with `options` (`{ fallback: true }`,
   * `{ override: true }` or none, from the package's {@link KernelJoin}). Kernels that serve one op
   * version each (MediaPipe's) register themselves with `versions`, passing the rest of `options` on.
   */
  register?(resolver: OpResolver, options: RegisterOptions): void;
  /**
   * Interpreter options the kernels need (ops-wasm: `arenaBacking`, the arena in the module's
   * WebAssembly memory). Two packages setting the same option is a CompositionError.
   */
  readonly interpreterOptions?: Partial<Omit<InterpreterOptions, 'planner' | 'delegates'>>;
  /** Delegates, applied in composition order during `allocateTensors()` (ops-gpu: the gpu.js delegate). */
  readonly delegates?: readonly Delegate[];
  /** Releases what the contribution holds (GPU contexts); `ComposedRuntime.dispose()` calls it once. */
  dispose?(): void;
}

/**
 * A kernel package or delegate, as every one of micrort's exports it (`referencePackage`,
 * `simdPackage`, `wasmPackage`, `gpuPackage`, …) and as a third-party package should: its name, what
 * it provides, how it joins a resolver, its options, and how it is created. {@link composeRuntime}
 * builds a runtime from a list of them; the functions that register by hand (`registerReferenceOps`,
 * `createSimdKernels`, `loadWasmKernels`, `createGpuDelegate`) stay what the package is built from.
 *
 * Creation is synchronous (`create`), asynchronous (`createAsync`), or both: ops-wasm compiles a
 * WebAssembly module, which a browser's main thread may only do asynchronously, so it has both and
 * `composeRuntime` (sync) uses `create` where the engine allows it. A package with only `createAsync`
 * composes only through `composeRuntimeAsync`. Each call creates a new contribution: kernels with
 * their own state, new delegates (what is costly and shareable, like a compiled module, may be cached
 * by the package).
 *
 * ```ts
 * export const acmePackage: KernelPackage<{ fast?: boolean }> = {
 *   name: 'acme-ops',
 *   provider: 'acme-ops',
 *   summary: "ACME's CLIP custom op",
 *   provides: ['custom-ops'],
 *   join: 'register',
 *   create: (options = {}) => ({ register: (resolver, o) => void resolver.registerAll(acmeKernels(options), o) }),
 * };
 * ```
 */
export interface KernelPackage<Options extends object = object> {
  /** Short name, e.g. `ops-wasm`. */
  readonly name: string;
  /**
   * The provider name its registrations carry (`Registration.provider`, e.g. `@micrort/ops-wasm`), so
   * a report can say which package served each node.
   */
  readonly provider: string;
  /** One line: what it is. */
  readonly summary: string;
  readonly provides: readonly KernelPackageProvides[];
  /** How its kernels join the resolver (default for every composition; a {@link KernelPackageChoice} may change it). */
  readonly join: KernelJoin;
  /** The options `create` / `createAsync` take. */
  readonly options?: readonly KernelPackageOption[];
  /** Creates the contribution synchronously; absent where the package can only be created asynchronously. */
  create?(options?: Options): KernelContribution;
  /** Creates the contribution asynchronously; absent where `create` is all there is. */
  createAsync?(options?: Options): Promise<KernelContribution>;
}

/** A package with the options to create it with (and, optionally, another way to join the resolver). */
export interface KernelPackageChoice<Options extends object = object> {
  readonly package: KernelPackage<Options>;
  readonly options?: Options;
  readonly join?: KernelJoin;
}

/** An entry of {@link composeRuntime}'s list: a package (default options), or one with options. */
export type ComposeEntry = KernelPackage | KernelPackageChoice;

/** `pkg` with `options` (typed by the package) for {@link composeRuntime}: `withOptions(simdPackage, { mode: 'emulated' })`. */
export function withOptions<Options extends object>(
  pkg: KernelPackage<Options>,
  options: Options,
  join?: KernelJoin,
): KernelPackageChoice<Options> {
  return join ? { package: pkg, options, join } : { package: pkg, options };
}
