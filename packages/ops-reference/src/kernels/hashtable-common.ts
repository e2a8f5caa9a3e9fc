/**
 * The hash tables of TFLite's HASHTABLE, HASHTABLE_IMPORT, HASHTABLE_FIND and HASHTABLE_SIZE
 * (tensorflow/lite/kernels/hashtable/ and experimental/resource/static_hashtable.h): a static table from
 * int64 keys to string values or string keys to int64 values, identified by its `table_id` and shared
 * by every node (of every subgraph) of one interpreter, as TFLite's resource map is.
 *
 * TFLite inserts the pairs into a std::unordered_map on the heap when the first import runs (later
 * imports are ignored; a key that repeats keeps its first value). Nothing may allocate in invoke here,
 * so each HASHTABLE_IMPORT node sizes its storage in prepare from its key and value tensors — copies of
 * their bytes and an open-addressing index of 2^k ≥ 2·n slots — in persistent arena memory; its first
 * invoke copies the pairs in and builds the index, and the table then answers lookups from it.
 *
 * Tables live in a registry per interpreter (keyed by the kernel context, which one allocateTensors
 * makes); HASHTABLE binds its output, the table id, in prepare (as VAR_HANDLE does), so the nodes after
 * it find their table while they prepare.
 */
import { KernelError, TensorType, stringStart, type EvalTensor, type Node, type TfLiteContext } from '@micrort/core';
import { stringsEqual } from '@micrort/kernel-support';

/** One imported table's storage (made by a HASHTABLE_IMPORT node in prepare). */
export class TableStorage {
  /** Key and value bytes (copied from the import's tensors at its first invoke). */
  readonly keys: Uint8Array;
  readonly values: Uint8Array;
  readonly keyWords: Int32Array;
  readonly valueWords: Int32Array;
  /** Open addressing: element index + 1 per slot, 0 empty. */
  readonly index: Int32Array;
  /** Distinct keys inserted. */
  size = 0;

  constructor(
    context: TfLiteContext,
    readonly keyType: TensorType,
    readonly count: number,
    keyBytes: number,
    valueBytes: number,
  ) {
    const k = context.allocatePersistentBuffer(keyBytes);
    const v = context.allocatePersistentBuffer(valueBytes);
    this.keys = k.u8;
    this.values = v.u8;
    this.keyWords = k.i32;
    this.valueWords = v.i32;
    let slots = 1;
    while (slots < 2 * count) slots *= 2;
    this.index = context.allocatePersistentBuffer(4 * slots).i32;
  }

  /**
   * Copies the pairs (the tensors' bytes, of the sizes the storage was made for) and builds the index
   * (TFLite's Import: the first of repeated keys wins).
   */
  load(keys: EvalTensor, values: EvalTensor): void {
    this.keys.set(keys.bytes);
    this.values.set(values.bytes);
    this.index.fill(0);
    this.size = 0;
    for (let i = 0; i < this.count; i++) {
      const slot = this.probe(this.keys, this.keyWords, i);
      if (this.index[slot] === 0) {
        this.index[slot] = i + 1;
        this.size++;
      }
    }
  }

  /** The entry index holding key `q` of `query` (bytes / words of a tensor), or −1. */
  find(query: Uint8Array, queryWords: Int32Array, q: number): number {
    return this.index[this.probe(query, queryWords, q)]! - 1;
  }

  /** The slot of key `q` of a key tensor: where it is, or the empty slot where it would go. */
  private probe(bytes: Uint8Array, words: Int32Array, q: number): number {
    const mask = this.index.length - 1;
    let h: number;
    if (this.keyType === TensorType.STRING) {
      // FNV-1a over the key's bytes.
      h = 0x811c9dc5;
      for (let p = stringStart(bytes, q), e = stringStart(bytes, q + 1); p < e; p++) h = Math.imul(h ^ bytes[p]!, 0x01000193);
    } else h = Math.imul(words[2 * q]! ^ Math.imul(words[2 * q + 1]!, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const e = this.index[slot]!;
      if (e === 0) return slot;
      const i = e - 1;
      if (this.keyType === TensorType.STRING) {
        if (stringsEqual(this.keys, i, bytes, q)) return slot;
      } else if (this.keyWords[2 * i] === words[2 * q] && this.keyWords[2 * i + 1] === words[2 * q + 1]) return slot;
    }
  }
}

/** A table of the interpreter: its types, and its storage once an import ran. */
export class HashTable {
  /** The storage of the import that ran first (null before). */
  storage: TableStorage | null = null;
  /** Longest string value of every import prepared for this table (bounds FIND's string output). */
  maxValueBytes = 0;

  constructor(
    readonly id: number,
    readonly keyType: TensorType,
    readonly valueType: TensorType,
  ) {}
}

const REGISTRIES = new WeakMap<TfLiteContext, Map<number, HashTable>>();

/** The tables of the interpreter `context` belongs to. */
export function tables(context: TfLiteContext): Map<number, HashTable> {
  let m = REGISTRIES.get(context);
  if (!m) {
    m = new Map();
    REGISTRIES.set(context, m);
  }
  return m;
}

/** TFLite's hash tables map int64 → string or string → int64 only. */
export function checkKeyValueTypes(op: string, node: Node, key: TensorType, value: TensorType): void {
  const ok = (key === TensorType.INT64 && value === TensorType.STRING) || (key === TensorType.STRING && value === TensorType.INT64);
  if (!ok) throw new KernelError(op, node.index, `key and value types must be int64 → string or string → int64`);
}

/**
 * The resource-id input 0 of a hashtable node (RESOURCE or INT32, one element) and, when its id is
 * known in prepare (a HASHTABLE of this interpreter bound it), the table.
 */
export function resourceInput(op: string, context: TfLiteContext, node: Node): { handle: EvalTensor; table: HashTable | null } {
  const index = node.inputs[0];
  if (index === undefined || index < 0) throw new KernelError(op, node.index, 'input 0 (the table handle) is missing');
  const t = context.getTensor(index);
  if (t.type !== TensorType.RESOURCE && t.type !== TensorType.INT32)
    throw new KernelError(op, node.index, `input 0 (tensor ${t.index}) must be a resource (or int32) handle`);
  if (t.elementCount !== 1)
    throw new KernelError(op, node.index, `input 0 (tensor ${t.index}) must hold one handle, it has ${t.elementCount}`);
  const bound = t.data.length > 0;
  const table = bound ? (tables(context).get((t.data as Int32Array)[0]!) ?? null) : null;
  return { handle: context.getEvalTensor(index), table };
}

/** The table whose id `handle` holds, at invoke; a KernelError when there is none. */
export function tableAt(op: string, context: TfLiteContext, node: Node, handle: EvalTensor): HashTable {
  const id = (handle.data as Int32Array)[0]!;
  const t = tables(context).get(id);
  if (!t) throw new KernelError(op, node.index, `no hash table with id ${id}`);
  return t;
}
