/**
 * Files and folders a command writes (`run --outputs`, `plan --svg`/`--embed`, `deploy --out`). A path
 * the command cannot write is the user's mistake, so it is a UsageError (exit 2) naming the option and
 * the path — checked before the command does its work ({@link checkOutputFile}, {@link checkOutputDir}),
 * and again when writing, where the file system's own error codes are mapped the same way.
 */
import { accessSync, constants, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './args.js';

function usage(option: string, path: string, why: string, accepted: string): UsageError {
  return new UsageError(`${option} ${JSON.stringify(path)}: ${why}`, { option, value: path, accepted });
}

/** What a path is: a folder, something else (a file), or absent. */
function kind(path: string): 'dir' | 'file' | 'absent' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return 'absent';
  }
}

/** The nearest existing ancestor of `path` (itself included) and what it is. */
function nearestExisting(path: string): { path: string; kind: 'dir' | 'file' } {
  let p = resolve(path);
  for (;;) {
    const k = kind(p);
    if (k !== 'absent') return { path: p, kind: k };
    const up = dirname(p);
    if (up === p) return { path: p, kind: 'dir' };
    p = up;
  }
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Throws a UsageError unless `path` can be written as a file: its folder exists and is writable, and it is not a folder. */
export function checkOutputFile(option: string, path: string): void {
  const accepted = 'a file path in an existing, writable folder';
  if (kind(path) === 'dir') throw usage(option, path, 'is a folder; give a file name', accepted);
  const dir = dirname(resolve(path));
  const k = kind(dir);
  if (k === 'absent') throw usage(option, path, `the folder ${dir} does not exist`, accepted);
  if (k === 'file') throw usage(option, path, `${dir} is a file, not a folder`, accepted);
  if (!writable(dir)) throw usage(option, path, `the folder ${dir} is not writable`, accepted);
}

/** Throws a UsageError unless `dir` is a writable folder or can be made (its nearest existing ancestor is a writable folder). */
export function checkOutputDir(option: string, dir: string): void {
  const accepted = 'a folder, or a path where one can be made';
  const found = nearestExisting(dir);
  if (found.kind === 'file')
    throw usage(option, dir, found.path === resolve(dir) ? 'is a file, not a folder' : `${found.path} is a file, not a folder`, accepted);
  if (!writable(found.path)) throw usage(option, dir, `the folder ${found.path} is not writable`, accepted);
}

/** Maps a file-system error of writing `path` to a UsageError naming the option and the path. */
function mapped(option: string, path: string, e: unknown): Error {
  const code = (e as NodeJS.ErrnoException).code;
  const why: Record<string, string> = {
    ENOENT: 'a folder on the path does not exist',
    ENOTDIR: 'a part of the path is a file, not a folder',
    EISDIR: 'is a folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
  };
  return code && why[code] ? usage(option, path, `cannot be written (${why[code]})`, 'a writable path') : (e as Error);
}

/** Writes `data` to `path`; a path that cannot be written is a UsageError naming `option` and the path. */
export function writeOutputFile(option: string, path: string, data: string | Uint8Array): void {
  try {
    writeFileSync(path, data);
  } catch (e) {
    throw mapped(option, path, e);
  }
}

/** Makes the folder `dir` (and its parents); one that cannot be made is a UsageError naming `option` and the path. */
export function makeOutputDir(option: string, dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw mapped(option, dir, e);
  }
}
