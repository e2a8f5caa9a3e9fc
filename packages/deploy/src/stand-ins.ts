/**
 * Planning stand-ins: allocating a model whose every node micrort cannot prepare yet. A node no kernel
 * accepts, or whose kernel's init or prepare throws (say TFLite_Detection_PostProcess whose outputs have
 * no shape in the file), is served by a stand-in registration without init or prepare: its tensors are
 * planned at the shapes the file gives them, it requests no scratch and allocates no op data, and it
 * cannot be invoked. `micrort deploy` and `micrort plan` allocate through {@link allocateWithStandIns};
 * `--strict` turns stand-ins off, and the first such node then fails with micrort's own error.
 *
 * A failing node is recognised by the registration wrapper that saw its init or prepare throw (keyed by
 * subgraph and node index), not by the op label an error message carries, so every kernel's errors lead
 * to the same stand-in whatever name it reports itself under.
 */
import {
  ArenaLimitError,
  ArenaTooSmallError,
  BuiltinOperator,
  KernelError,
  OpResolver,
  opDisplayName,
  type Node,
  type Registration,
  type Resolution,
  type TfLiteContext,
} from '@micrort/core';

/** Provider name of the stand-in registrations. */
export const STAND_IN_PROVIDER = 'planning stand-in (no kernel prepared this node)';

/** One node planned with a stand-in, and why. */
export interface StandIn {
  subgraph: number;
  node: number;
  /** `CONV_2D` or `CUSTOM:<name>`. */
  op: string;
  /** Why micrort could not prepare it (no kernel, every kernel declined, or what its init/prepare threw). */
  reason: string;
}

/** Decorates the registration a kernel provides for one node (e.g. to record its scratch requests). */
export type RegistrationDecorator = (registration: Registration, node: Node) => Registration;

function nodeKey(subgraph: number, node: number): string {
  return `${subgraph}:${node}`;
}

/** The detail of an error thrown by a kernel's init or prepare (a KernelError without its node prefix). */
function reasonOf(e: unknown): string {
  if (e instanceof KernelError) return e.detail;
  return e instanceof Error ? e.message : String(e);
}

/** Whether an error is the framework's (arena size or limit), not the kernel's: those are never stood in for. */
function isFrameworkError(e: unknown): boolean {
  return e instanceof ArenaTooSmallError || e instanceof ArenaLimitError;
}

/** Options of {@link StandInResolver}. */
export interface StandInResolverOptions {
  /** Serve unresolved nodes with stand-ins (default true); false leaves them to micrort's own error. */
  standIns?: boolean;
  /** Applied to every registration a kernel provides (after the init/prepare watch). */
  decorate?: RegistrationDecorator | null;
}

/**
 * An OpResolver in front of `inner` that serves with a stand-in every node `inner` has no kernel for and
 * every node in `forced`, and watches the init and prepare of the kernels it hands out: a node whose init
 * or prepare throws is recorded in `failures` (the error still propagates, so the allocation fails and
 * can be retried with that node forced).
 */
export class StandInResolver extends OpResolver {
  private readonly served = new Map<string, StandIn>();
  /** Nodes whose kernel's init or prepare threw in this allocation, by `subgraph:node`. */
  readonly failures = new Map<string, StandIn>();
  private readonly serveUnresolved: boolean;
  private readonly decorate: RegistrationDecorator | null;

  constructor(
    private readonly inner: OpResolver,
    private readonly forced: ReadonlyMap<string, StandIn> = new Map(),
    options: StandInResolverOptions = {},
  ) {
    super();
    this.serveUnresolved = options.standIns ?? true;
    this.decorate = options.decorate ?? null;
  }

  /** Nodes served by a stand-in in this allocation (once each, however often the interpreter resolves). */
  get standIns(): StandIn[] {
    return [...this.served.values()];
  }

  private standIn(builtinCode: number, version: number, customName: string | null | undefined, s: StandIn): Resolution {
    this.served.set(nodeKey(s.subgraph, s.node), s);
    const registration: Registration = {
      builtinCode,
      ...(builtinCode === BuiltinOperator.CUSTOM ? { customName: customName ?? '' } : {}),
      version,
      provider: STAND_IN_PROVIDER,
      name: `${s.op} (stand-in)`,
      invoke(_context, n) {
        throw new KernelError(s.op, n.index, `planning stand-in (${s.reason}): micrort cannot run this node`, s.subgraph);
      },
    };
    return { registration, tried: [] };
  }

  /** Wraps init and prepare so that a failing node is recorded before the error propagates. */
  private watch(registration: Registration, at: Omit<StandIn, 'reason'>): Registration {
    const failures = this.failures;
    const record = (phase: string, e: unknown) => {
      if (!isFrameworkError(e)) failures.set(nodeKey(at.subgraph, at.node), { ...at, reason: `its ${phase} failed: ${reasonOf(e)}` });
    };
    const { init, prepare } = registration;
    const watched: Registration = { ...registration };
    if (init)
      watched.init = (context, data) => {
        try {
          return init.call(registration, context, data);
        } catch (e) {
          record('init', e);
          throw e;
        }
      };
    if (prepare)
      watched.prepare = (context, node) => {
        try {
          prepare.call(registration, context, node);
        } catch (e) {
          record('prepare', e);
          throw e;
        }
      };
    return watched;
  }

  override resolve(
    builtinCode: number,
    version: number,
    customName: string | null | undefined,
    context: TfLiteContext,
    node: Node,
  ): Resolution | null {
    const at = { subgraph: context.currentSubgraph, node: node.index, op: opDisplayName(builtinCode, customName) };
    const forced = this.forced.get(nodeKey(at.subgraph, at.node));
    if (forced) return this.standIn(builtinCode, version, customName, forced);
    const res = this.inner.resolve(builtinCode, version, customName, context, node);
    if (!res?.registration) {
      if (!this.serveUnresolved) return res;
      const declined = (res?.tried ?? []).map((t) => `${t.provider} declined it${t.reason ? ` (${t.reason})` : ''}`);
      const reason = declined.length ? declined.join('; ') : `no kernel is registered for ${at.op}`;
      return this.standIn(builtinCode, version, customName, { ...at, reason });
    }
    const watched = this.watch(res.registration, at);
    return { ...res, registration: this.decorate ? this.decorate(watched, node) : watched };
  }
}

/** What {@link allocateWithStandIns} returns. */
export interface StandInAllocation<T> {
  /** What `allocate` returned for the allocation that succeeded. */
  value: T;
  /** Nodes planned with a stand-in (none with `standIns: false`). */
  standIns: StandIn[];
}

/**
 * Runs `allocate` with a StandInResolver over `makeResolver()` (a fresh one per attempt). With
 * `standIns`, every node the resolver has no kernel for gets a stand-in, and when the allocation fails
 * because kernels' init or prepare threw, those nodes get stand-ins and the allocation is tried again
 * (once per new set of failing nodes). Without `standIns`, micrort's error propagates.
 */
export function allocateWithStandIns<T>(
  makeResolver: () => OpResolver,
  allocate: (resolver: OpResolver) => T,
  options: { standIns: boolean; decorate?: RegistrationDecorator },
): StandInAllocation<T> {
  const forced = new Map<string, StandIn>();
  for (;;) {
    const resolver = new StandInResolver(makeResolver(), forced, { standIns: options.standIns, decorate: options.decorate ?? null });
    try {
      return { value: allocate(resolver), standIns: resolver.standIns };
    } catch (e) {
      const fresh = [...resolver.failures].filter(([key]) => !forced.has(key));
      if (!options.standIns || isFrameworkError(e) || fresh.length === 0) throw e;
      for (const [key, s] of fresh) forced.set(key, s);
    }
  }
}
