/**
 * Option specifications: what `micrort <cmd> --help` shows for an option (its accepted values and
 * default) and how its value is checked while the command line is parsed (a typed {@link UsageError}
 * naming the option, the value and what is accepted). A command lists its options as an array of
 * these; groups shared by several commands (runtime, delegate, cycle options) live beside the code
 * that reads them.
 */
import { integerRange, parseChoiceFlag, parseIntFlag } from './args.js';

/** One option of a command. */
export interface OptionSpec {
  /** Long name without `--`, e.g. `iters`; the key of {@link ParsedArgs.flags}. */
  name: string;
  /** Placeholder of the value (`N`, `DIR`), or absent for a boolean option. */
  value?: string;
  /** What the option does (one sentence, no trailing period). */
  description: string;
  /** What the value may be, for help (e.g. `one of reference, simd`). */
  accepts?: string;
  /** The default, for help: what the command does when the option is absent. */
  default?: string;
  /** Checks a value while parsing; throws a UsageError. The value is kept as typed. */
  check?: (value: string) => void;
}

/** A boolean option (`--json`). */
export function flag(name: string, description: string): OptionSpec {
  return { name, description };
}

/** An option with a free-form value (a path, a list). */
export function text(
  name: string,
  value: string,
  description: string,
  extra: { accepts?: string; default?: string; check?: (v: string) => void } = {},
): OptionSpec {
  return { name, value, description, ...extra };
}

/** An option whose value is one of `choices`. */
export function choice(name: string, description: string, choices: readonly string[], def?: string, value = 'NAME'): OptionSpec {
  return {
    name,
    value,
    description,
    accepts: `one of ${choices.join(', ')}`,
    ...(def !== undefined ? { default: def } : {}),
    check: (v) => void parseChoiceFlag(name, v, choices),
  };
}

/** An integer option (>= `min`, default 0). */
export function int(name: string, description: string, def?: string | number, min = 0, value = 'N'): OptionSpec {
  return {
    name,
    value,
    description,
    accepts: integerRange(min),
    ...(def !== undefined ? { default: String(def) } : {}),
    check: (v) => void parseIntFlag(name, v, min),
  };
}

/** `--json`: one JSON object on stdout instead of text (and no progress display). */
export const JSON_OPTION = flag('json', 'print one JSON object instead of text (no progress display)');

/** `--debug`: stack traces on errors. Every command accepts it. */
export const DEBUG_OPTION = flag('debug', 'print stack traces on errors');

/** The help text of an option: description, accepted values, default. */
export function optionHelp(o: OptionSpec): string {
  const extra = [o.accepts, o.default !== undefined ? `default: ${o.default}` : undefined].filter(Boolean).join('; ');
  return extra ? `${o.description} [${extra}]` : o.description;
}
