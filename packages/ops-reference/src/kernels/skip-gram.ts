/**
 * SKIP_GRAM (TFLite kernels/skip_gram.cc): the skip-grams of a sentence — its words (split at C's
 * isspace characters exactly as TFLite splits them) combined `ngram_size` at a time (or every size up to
 * it with `include_all_ngrams`), skipping at most `max_skip_size` words between two, joined by one
 * space, in TFLite's enumeration order.
 *
 * How many grams there are depends on the sentence. micrort computes them for a constant sentence in
 * prepare (the output's shape and string capacity are then exact); a sentence that is only known at
 * invoke would need a data-dependent output shape, and is refused with a KernelError saying so.
 * Invoke writes the grams with preallocated word and stack arrays (nothing allocates).
 */
import {
  BuiltinOperator,
  KernelError,
  TensorType,
  stringStart,
  type Node,
  type Registration,
  type SkipGramOptions,
  type TfLiteContext,
} from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { StringWriter, opData, setOutputShape, setStringOutputCapacity } from '@micrort/kernel-support';

const OP = 'SKIP_GRAM';

interface OpData {
  ngramSize: number;
  maxSkipSize: number;
  includeAll: boolean;
  /** Start and end byte of each word. */
  wordStart: Int32Array;
  wordEnd: Int32Array;
  stack: Int32Array;
  writer: StringWriter;
}

/** C's isspace in the C locale: space, \t, \n, \v, \f, \r. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** Splits string 0 of `bytes` into words as TFLite does (its loop starts at byte 1); returns the count. */
function splitWords(d: OpData, bytes: Uint8Array): number {
  const start = stringStart(bytes, 0);
  const len = stringStart(bytes, 1) - start;
  let n = 0;
  let prev = 0;
  for (let i = 1; i < len; i++) {
    if (isSpace(bytes[start + i]!)) {
      if (i > prev && !isSpace(bytes[start + prev]!)) {
        d.wordStart[n] = start + prev;
        d.wordEnd[n++] = start + i;
      }
      prev = i + 1;
    }
  }
  if (len > prev) {
    d.wordStart[n] = start + prev;
    d.wordEnd[n++] = start + len;
  }
  return n;
}

/**
 * TFLite's enumeration of the grams of `numWords` words (stack of word indices); calls `emit(size)` for
 * each gram of `size` words in stack[0 … size). Returns the number of grams.
 */
function enumerate(d: OpData, numWords: number, emit: ((size: number) => void) | null, bytes: Uint8Array): number {
  const { ngramSize, maxSkipSize, includeAll, stack } = d;
  if (numWords < ngramSize) return 0;
  stack.fill(0);
  let idx = 1;
  let count = 0;
  while (idx >= 0) {
    const step = idx < ngramSize && stack[idx]! + 1 < numWords && (idx === 0 || stack[idx]! - stack[idx - 1]! <= maxSkipSize);
    if (step) {
      stack[idx] = stack[idx]! + 1;
      idx++;
      if (idx < ngramSize) stack[idx] = stack[idx - 1]!;
    } else {
      if (idx > 0 && (includeAll ? idx <= ngramSize : idx === ngramSize)) {
        count++;
        if (emit) emit(idx);
        else writeGram(d, idx, bytes);
      }
      idx--;
    }
  }
  return count;
}

/** Appends the gram of stack[0 … size) to the writer (words joined by one space). */
function writeGram(d: OpData, size: number, bytes: Uint8Array): void {
  const w = d.writer;
  for (let k = 0; k < size; k++) {
    if (k > 0) w.appendByte(0x20);
    const word = d.stack[k]!;
    for (let p = d.wordStart[word]!; p < d.wordEnd[word]!; p++) w.appendByte(bytes[p]!);
  }
  w.end();
}

function prepare(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  if (node.inputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 input, got ${node.inputs.length}`);
  if (node.outputs.length !== 1) throw new KernelError(OP, node.index, `expects 1 output, got ${node.outputs.length}`);
  const input = context.getTensor(node.inputs[0]!);
  const output = context.getTensor(node.outputs[0]!);
  if (input.type !== TensorType.STRING || output.type !== TensorType.STRING)
    throw new KernelError(OP, node.index, 'the input and the output must be string tensors');
  const params = node.builtinData as Partial<SkipGramOptions> | null;
  d.ngramSize = params?.ngramSize ?? 0;
  d.maxSkipSize = params?.maxSkipSize ?? 0;
  d.includeAll = params?.includeAllNgrams ?? false;
  if (d.ngramSize < 1) throw new KernelError(OP, node.index, `ngram_size must be at least 1, got ${d.ngramSize}`);
  if (!input.isConstant)
    throw new KernelError(
      OP,
      node.index,
      'the number of skip-grams depends on the sentence: a sentence known only at invoke needs a data-dependent output shape (not supported yet)',
    );
  const words = Math.max(1, Math.ceil(input.byteLength / 2) + 1);
  d.wordStart = new Int32Array(words);
  d.wordEnd = new Int32Array(words);
  d.stack = new Int32Array(d.ngramSize);
  const n = splitWords(d, input.bytes);
  let payload = 0;
  const count = enumerate(
    d,
    n,
    (size) => {
      for (let k = 0; k < size; k++) payload += d.wordEnd[d.stack[k]!]! - d.wordStart[d.stack[k]!]! + (k > 0 ? 1 : 0);
    },
    input.bytes,
  );
  setOutputShape(OP, context, node, 0, [count]);
  setStringOutputCapacity(OP, context, node, 0, 4 * (count + 2) + payload);
  d.writer = new StringWriter(`${OP} output (tensor ${output.index})`);
}

function invoke(context: TfLiteContext, node: Node): void {
  const d = opData<OpData>(OP, node);
  const input = context.getEvalTensor(node.inputs[0]!).bytes;
  const output = context.getEvalTensor(node.outputs[0]!);
  const n = splitWords(d, input);
  d.writer.begin(output.bytes, output.dims[0]!);
  enumerate(d, n, null, input);
  d.writer.finish();
}

/** The reference SKIP_GRAM kernel. */
export const SKIP_GRAM: Registration<OpData> = {
  builtinCode: BuiltinOperator.SKIP_GRAM,
  provider: PROVIDER,
  name: OP,
  init: () => ({
    ngramSize: 0,
    maxSkipSize: 0,
    includeAll: false,
    wordStart: new Int32Array(0),
    wordEnd: new Int32Array(0),
    stack: new Int32Array(0),
    writer: new StringWriter(),
  }),
  prepare,
  invoke,
};
