import { BuiltinOperator, builtinOperatorName } from '../builtin-ops.js';
import { ResolverError } from '../errors.js';
import type { Node, Registration, TfLiteContext } from '../kernel/api.js';

/** Options of `OpResolver.register`. */
export interface RegisterOptions {
  /**
   * Replace the providers already registered for this key instead of failing. Without it, registering
   * a second provider for the same key with `fallback: false` is a ResolverError.
   */
  override?: boolean;
  /**
   * Add this provider in front of the existing ones for the key; the existing ones become its fallback
   * for the nodes it does not `supports()`. Default false.
   */
  fallback?: boolean;
  /** Op versions served, inclusive. Default: [1, registration.version ?? Infinity]. */
  versions?: [number, number];
}

interface Entry {
  registration: Registration;
  minVersion: number;
  maxVersion: number;
}

/** The key of an op: `builtin:<code>` or `custom:<name>`. */
export function opKey(builtinCode: number, customName?: string | null): string {
  return builtinCode === BuiltinOperator.CUSTOM ? `custom:${customName ?? ''}` : `builtin:${builtinCode}`;
}

/** Display name of an op: `CONV_2D` or `CUSTOM:<name>`. */
export function opDisplayName(builtinCode: number, customName?: string | null): string {
  return builtinCode === BuiltinOperator.CUSTOM ? `CUSTOM:${customName ?? ''}` : builtinOperatorName(builtinCode);
}

/** Result of resolving one node. */
export interface Resolution {
  /** The provider that serves the node, or null when every candidate declined it. */
  registration: Registration | null;
  /** The candidates that were asked, in order, and whether each accepted. */
  tried: { provider: string; name: string; accepted: boolean; /** Why it declined, when it said. */ reason?: string }[];
}

/**
 * The op registry (TFLM's MicroMutableOpResolver, with TFLite's version ranges and per-node provider
 * fallback). Providers for one key are kept in priority order: the first whose version range contains
 * the node's op version and whose `supports(context, node)` accepts the node serves it.
 */
export class OpResolver {
  private readonly entries = new Map<string, Entry[]>();

  /** Registers one kernel. See RegisterOptions for duplicates, fallback and versions. */
  register(registration: Registration, options: RegisterOptions = {}): this {
    const code = registration.builtinCode;
    if (!Number.isInteger(code) || code < 0)
      throw new ResolverError(`register: builtinCode must be a non-negative integer, got ${String(code)}`);
    if (code === BuiltinOperator.CUSTOM && !registration.customName)
      throw new ResolverError('register: a CUSTOM registration needs a customName');
    const key = opKey(code, registration.customName);
    const [minVersion, maxVersion] = options.versions ?? [1, registration.version ?? Number.POSITIVE_INFINITY];
    if (!(minVersion >= 1 && maxVersion >= minVersion))
      throw new ResolverError(`register ${opDisplayName(code, registration.customName)}: bad version range [${minVersion}, ${maxVersion}]`);
    const entry: Entry = { registration, minVersion, maxVersion };
    const list = this.entries.get(key) ?? [];
    if (options.override) {
      this.entries.set(key, [entry]);
    } else if (options.fallback) {
      this.entries.set(key, [entry, ...list]);
    } else {
      const clash = list.find((e) => e.minVersion <= maxVersion && minVersion <= e.maxVersion);
      if (clash)
        throw new ResolverError(
          `duplicate registration for ${opDisplayName(code, registration.customName)} versions ${minVersion}..${maxVersion}: ` +
            `already provided by ${clash.registration.provider ?? 'an unnamed provider'}; pass { override: true } to replace it ` +
            `or { fallback: true } to put the new kernel in front of it`,
        );
      list.push(entry);
      this.entries.set(key, list);
    }
    return this;
  }

  /** Registers several kernels with the same options. */
  registerAll(registrations: Iterable<Registration>, options: RegisterOptions = {}): this {
    for (const r of registrations) this.register(r, options);
    return this;
  }

  /** Whether any provider is registered for the op and version. */
  has(builtinCode: number, version: number, customName?: string | null): boolean {
    return this.candidates(builtinCode, version, customName).length > 0;
  }

  /** Providers registered for the op and version, in priority order. */
  candidates(builtinCode: number, version: number, customName?: string | null): Registration[] {
    const list = this.entries.get(opKey(builtinCode, customName)) ?? [];
    return list.filter((e) => version >= e.minVersion && version <= e.maxVersion).map((e) => e.registration);
  }

  /**
   * Picks the provider for one node: the first candidate whose `supports` accepts it. Returns null when
   * no provider is registered or none accepts (the result's `tried` says which were asked).
   */
  resolve(
    builtinCode: number,
    version: number,
    customName: string | null | undefined,
    context: TfLiteContext,
    node: Node,
  ): Resolution | null {
    const tried: Resolution['tried'] = [];
    for (const registration of this.candidates(builtinCode, version, customName)) {
      const answer = registration.supports ? registration.supports(context, node) : true;
      const accepted = answer === true;
      const entry: Resolution['tried'][number] = {
        provider: registration.provider ?? 'unknown',
        name: registration.name ?? opDisplayName(builtinCode, customName),
        accepted,
      };
      if (typeof answer === 'string' && answer) entry.reason = answer;
      tried.push(entry);
      if (accepted) return { registration, tried };
    }
    return tried.length ? { registration: null, tried } : null;
  }

  /** Every registered key with its providers, for inspection. */
  listRegistrations(): { op: string; provider: string; versions: [number, number] }[] {
    const out: { op: string; provider: string; versions: [number, number] }[] = [];
    for (const list of this.entries.values())
      for (const e of list)
        out.push({
          op: opDisplayName(e.registration.builtinCode, e.registration.customName),
          provider: e.registration.provider ?? 'unknown',
          versions: [e.minVersion, e.maxVersion],
        });
    return out;
  }
}
