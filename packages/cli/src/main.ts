import { MicrortError } from '@micrort/core';
import { UsageError } from './args.js';
import { runCommand } from './commands/run.js';
import { inspectCommand } from './commands/inspect.js';
import { consoleOut, type Out } from './print.js';

const USAGE = `micrort — run TensorFlow Lite models the TFLM way

usage:
  micrort run [model.tflite] [--inputs DIR] [--outputs DIR] [--ops reference] [--planner NAME]
              [--arena BYTES|auto] [--seed N] [--json]
      runs one inference; without a model, runs the built-in demo model.
      inputs: DIR/input_<i>.bin (raw little-endian); random (splitmix64, seed 1) when absent.
      outputs: DIR/output_<j>.bin.
  micrort inspect [model.tflite] [--ops reference] [--json]
      operators, tensors, the provider serving each node, unsupported ops.

options: --debug prints stack traces.`;

type Command = (argv: readonly string[], out: Out) => number | Promise<number>;
const COMMANDS: Record<string, Command> = {
  run: runCommand,
  inspect: inspectCommand,
};

/** Runs the CLI; returns the exit code. Errors print one line: `ErrorName: message`. */
export async function main(argv: readonly string[], out: Out = consoleOut): Promise<number> {
  const debug = argv.includes('--debug');
  const [cmd, ...rest] = argv;
  try {
    if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') {
      out.log(USAGE);
      return cmd ? 0 : 2;
    }
    const command = COMMANDS[cmd];
    if (!command) throw new UsageError(`unknown command "${cmd}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    return await command(rest, out);
  } catch (e) {
    const err = e as Error;
    if (debug) out.err(err.stack ?? String(err));
    else if (e instanceof MicrortError) out.err(`${err.name}: ${err.message}`);
    else out.err(`${err?.name ?? 'Error'}: ${err?.message ?? String(e)} (internal error; rerun with --debug for a stack trace)`);
    return e instanceof UsageError ? 2 : 1;
  }
}

export { COMMANDS };
