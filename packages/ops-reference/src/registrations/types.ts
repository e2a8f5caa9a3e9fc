/**
 * Kernels of builtin ops added for TFLite's types beyond TFLM's (issue 20's types slice): the string
 * hash tables, and the string and hashing ops of TFLite's BuiltinOpResolver.
 */
import type { Registration } from '@micrort/core';
import { HASHTABLE } from '../kernels/hashtable.js';
import { HASHTABLE_FIND } from '../kernels/hashtable-find.js';
import { HASHTABLE_IMPORT } from '../kernels/hashtable-import.js';
import { HASHTABLE_LOOKUP } from '../kernels/hashtable-lookup.js';
import { HASHTABLE_SIZE } from '../kernels/hashtable-size.js';
import { LSH_PROJECTION } from '../kernels/lsh-projection.js';
import { SKIP_GRAM } from '../kernels/skip-gram.js';

/** Kernels of this group, in registration order. */
export const typesKernels: Registration[] = [
  HASHTABLE,
  HASHTABLE_IMPORT,
  HASHTABLE_FIND,
  HASHTABLE_SIZE,
  HASHTABLE_LOOKUP,
  LSH_PROJECTION,
  SKIP_GRAM,
];
