import { MicrortError } from '@micrort/core';

/** What a {@link UsageError} about one option carries. */
export interface OptionProblem {
  /** The option as typed on the command line, e.g. `--iters`. */
  option: string;
  /** The value given (absent when the value is missing). */
  value?: string;
  /** What the option accepts, e.g. `one of reference, simd` or `an integer >= 1`. */
  accepted?: string;
}

/**
 * A usage error: an unknown command or option, a missing or bad option value, options that do not go
 * together. The CLI prints it as one line and exits with code 2. Errors about one option carry the
 * option, the value and what the option accepts.
 */
export class UsageError extends MicrortError {
  readonly option?: string;
  readonly value?: string;
  readonly accepted?: string;
  constructor(message: string, problem?: OptionProblem) {
    super(message);
    if (problem) {
      this.option = problem.option;
      if (problem.value !== undefined) this.value = problem.value;
      if (problem.accepted !== undefined) this.accepted = problem.accepted;
    }
  }
}

/**
 * The options and arguments a command was given, as typed: `flags` holds only the options present on
 * the command line (by long name without `--`: a string value, or `true` for a boolean option), after
 * their values were checked. Defaults are applied by the code that reads a flag.
 */
export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

/** A flag's string value, or undefined. */
export function flagString(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

/**
 * Parses `value` of `--name` as an integer >= `min` (default 0); a UsageError naming the option, the
 * value and what it accepts otherwise.
 */
export function parseIntFlag(name: string, value: string, min = 0): number {
  const n = value.trim() === '' ? NaN : Number(value);
  const accepted = integerRange(min);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be ${accepted}, got ${value}`, { option: `--${name}`, value, accepted });
  return n;
}

/** What an integer option with lower bound `min` accepts, as its help and its errors say it. */
export function integerRange(min: number): string {
  return min === 0 ? 'a non-negative integer' : `an integer >= ${min}`;
}

/** An integer flag >= `min` (default 0), or the default. */
export function flagInt(args: ParsedArgs, name: string, def: number, min = 0): number {
  const v = flagString(args, name);
  return v === undefined ? def : parseIntFlag(name, v, min);
}

/** Checks `value` of `--name` against `choices`; a UsageError listing them otherwise. */
export function parseChoiceFlag<T extends string>(name: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`unknown --${name} "${value}": --${name} must be one of ${choices.join(', ')}`, {
    option: `--${name}`,
    value,
    accepted: `one of ${choices.join(', ')}`,
  });
}
