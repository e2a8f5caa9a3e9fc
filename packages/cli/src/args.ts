import { MicrortError } from '@micrort/core';

/** A usage error: bad flag or argument. */
export class UsageError extends MicrortError {}

export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/**
 * Parses `--flag value`, `--flag=value` and boolean `--flag` (for names in `booleans`).
 * Unknown flags are a UsageError naming the known ones.
 */
export function parseArgs(argv: readonly string[], known: { values: readonly string[]; booleans: readonly string[] }): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (known.booleans.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else if (known.values.includes(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined || (eq < 0 && v.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
      flags.set(name, v);
    } else {
      const all = [...known.values, ...known.booleans].map((k) => `--${k}`).join(', ');
      throw new UsageError(`unknown option --${name} (known: ${all})`);
    }
  }
  return { positional, flags };
}

/** A flag's string value, or undefined. */
export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

/** A positive integer flag, or the default. */
export function flagInt(args: ParsedArgs, name: string, def: number): number {
  const v = flagString(args, name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a non-negative integer, got ${v}`);
  return n;
}
