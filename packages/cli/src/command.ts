/**
 * How a `micrort` command is declared and turned into a commander command.
 *
 * A command is one {@link CommandSpec} (its name, help text, arguments, options and what it does),
 * defined in its own file under `commands/` and listed once in `commands/index.ts`. Commander parses
 * the command line and writes the help; every parse error becomes a typed {@link UsageError} (one
 * line, exit code 2) rather than commander's own message and `process.exit`.
 */
import { Command, CommanderError, Option } from 'commander';
import { UsageError, type ParsedArgs } from './args.js';
import { DEBUG_OPTION, optionHelp, type OptionSpec } from './options.js';
import type { Out } from './print.js';

/** A positional argument of a command (all of micrort's are optional). */
export interface ArgumentSpec {
  name: string;
  description: string;
}

/** One `micrort` command. */
export interface CommandSpec {
  /** The word after `micrort`, e.g. `run`. */
  name: string;
  /** One line for the command list of `micrort --help`. */
  summary: string;
  /** What `micrort <name> --help` says above the arguments and options (may span lines). */
  description: string;
  /** Optional positional arguments, in order; more than these is a UsageError. */
  arguments?: readonly ArgumentSpec[];
  /** The options (`--debug` is added to every command). */
  options: readonly OptionSpec[];
  /** Text after the options in `micrort <name> --help` (other forms, examples, notes). */
  notes?: string;
  /**
   * Runs the command with the parsed arguments; returns the exit code (0 success, 1 a runtime failure
   * such as a failed check; usage problems are thrown as UsageError, runtime errors as typed errors).
   */
  run(args: ParsedArgs, out: Out): number | Promise<number>;
}

/** Declares a command (an identity function that checks the shape). */
export function defineCommand(spec: CommandSpec): CommandSpec {
  return spec;
}

/** A commander Command whose parse errors are thrown as UsageError (and whose subcommands are too). */
class MicrortCommand extends Command {
  override createCommand(name?: string): Command {
    return new MicrortCommand(name);
  }

  override error(message: string, errorOptions?: { code?: string; exitCode?: number }): never {
    throw usageError(this, message, errorOptions?.code);
  }
}

/** The commander Option of a spec. */
function toOption(spec: OptionSpec): Option {
  const o = new Option(spec.value ? `--${spec.name} <${spec.value}>` : `--${spec.name}`, optionHelp(spec));
  const check = spec.check;
  if (check)
    o.argParser((v: string) => {
      check(v);
      return v;
    });
  return o;
}

/** Long name (without `--`) of each option of `cmd`, by the flags commander prints (`--iters <N>`). */
function longNames(cmd: Command): string[] {
  return cmd.options.map((o) => o.long?.slice(2)).filter((n): n is string => !!n);
}

/** Turns commander's parse error into a one-line UsageError with what the user needs. */
function usageError(cmd: Command, message: string, code: string | undefined): UsageError {
  const path = commandPath(cmd);
  const plain = message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ');
  switch (code) {
    case 'commander.unknownOption': {
      const typed = /unknown option '([^']*)'/.exec(message)?.[1] ?? plain;
      const eq = typed.indexOf('=');
      if (eq > 0) {
        const name = typed.slice(2, eq);
        const known = cmd.options.find((o) => o.long === `--${name}`);
        if (known && !known.required && !known.optional)
          return new UsageError(`--${name} takes no value, got ${typed}`, {
            option: `--${name}`,
            value: typed.slice(eq + 1),
            accepted: 'no value',
          });
      }
      const suggestion = /Did you mean (\S+?)\?/.exec(message)?.[1];
      const known = longNames(cmd).filter((n) => n !== 'help');
      return new UsageError(
        `unknown option ${typed} for ${path}${suggestion ? ` (did you mean ${suggestion}?)` : ''} (known: ${known.map((n) => `--${n}`).join(', ')})`,
        { option: typed, accepted: known.map((n) => `--${n}`).join(', ') },
      );
    }
    case 'commander.optionMissingArgument': {
      const flags = /option '([^']*)' argument missing/.exec(message)?.[1];
      const opt = cmd.options.find((o) => o.flags === flags);
      const name = opt?.long ?? flags ?? '?';
      return new UsageError(`${name} needs a value${opt?.description ? `: ${opt.description}` : ''}`, { option: name });
    }
    case 'commander.excessArguments': {
      const expected = cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`));
      const got = cmd.args;
      return new UsageError(
        `${path} takes ${expected.length ? `at most ${expected.length} argument${expected.length === 1 ? '' : 's'} (${expected.join(' ')})` : 'no arguments'}, got ${got.length}: ${got.join(' ')}`,
      );
    }
    case 'commander.unknownCommand': {
      const names = cmd.commands.map((c) => c.name());
      return new UsageError(`unknown command "${cmd.args[0] ?? ''}" (commands: ${names.join(', ')})`);
    }
    default:
      return new UsageError(plain);
  }
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The options present on the command line and the operands, as {@link ParsedArgs}. */
function parsedArgs(cmd: Command): ParsedArgs {
  const flags = new Map<string, string | true>();
  for (const o of cmd.options) {
    const key = o.attributeName();
    if (!o.long || cmd.getOptionValueSource(key) !== 'cli') continue;
    const v = cmd.getOptionValue(key) as unknown;
    if (o.negate) {
      if (v === false) flags.set(o.long.slice(2), true);
    } else flags.set(o.long.slice(2), typeof v === 'string' ? v : true);
  }
  return { positional: [...cmd.args], flags };
}

/** What {@link buildProgram} reports back: the exit code of the command that ran. */
export interface ProgramResult {
  code: number;
}

/** Program-level help text (after the command list). */
export interface ProgramInfo {
  name: string;
  version: string;
  description: string;
  notes: string;
}

/**
 * The commander program for `commands`, writing help to `out` (log) and throwing UsageError for parse
 * errors and CommanderError (exit code 0) after help or version output. The exit code of the command
 * that ran is stored in `result`.
 */
export function buildProgram(info: ProgramInfo, commands: readonly CommandSpec[], out: Out, result: ProgramResult): Command {
  const program = new MicrortCommand(info.name);
  const columns = process.stdout.isTTY ? process.stdout.columns : undefined;
  program
    .description(info.description)
    .usage('<command> [options]')
    .version(info.version, '-V, --version', 'print the version')
    .addOption(toOption(DEBUG_OPTION))
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .configureOutput({
      writeOut: (s) => out.log(s.replace(/\n$/, '')),
      writeErr: (s) => out.err(s.replace(/\n$/, '')),
      outputError: () => {},
      getOutHelpWidth: () => Math.max(80, Math.min(columns ?? 110, 140)),
      getErrHelpWidth: () => Math.max(80, Math.min(columns ?? 110, 140)),
    })
    .configureHelp({ sortSubcommands: false, sortOptions: false, showGlobalOptions: false })
    .exitOverride()
    .addHelpText('after', `\n${info.notes}`);
  const names = new Set<string>();
  for (const spec of commands) {
    if (names.has(spec.name)) throw new Error(`micrort: command "${spec.name}" registered twice`);
    names.add(spec.name);
    const cmd = program.command(spec.name).summary(spec.summary).description(spec.description);
    for (const a of spec.arguments ?? []) cmd.argument(`[${a.name}]`, a.description);
    const seen = new Set<string>();
    for (const o of [...spec.options, DEBUG_OPTION]) {
      if (seen.has(o.name)) continue; // option groups may overlap (e.g. --json listed twice)
      seen.add(o.name);
      cmd.addOption(toOption(o));
    }
    if (spec.notes) cmd.addHelpText('after', `\n${spec.notes}`);
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      result.code = await spec.run(parsedArgs(self), out);
    });
  }
  return program;
}

/** True for commander's "help or version was printed" exits, which are not errors. */
export function isHelpExit(e: unknown): e is CommanderError {
  return (
    e instanceof CommanderError && (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version')
  );
}
