import { ModelError, type ModelErrorLocation } from '../errors.js';
import { MODEL_LAYOUT, type FieldLayout, type TableLayout } from './verifier-layout.js';

/** The TFLite file identifier at bytes 4..8. */
export const TFLITE_FILE_IDENTIFIER = 'TFL3';

/** Deepest table nesting accepted (FlatBuffers' own verifier default is 64). */
const MAX_DEPTH = 64;
/** Smallest input that can hold a root offset and a file identifier. */
const MIN_FILE_SIZE = 8;

export interface StructureOptions {
  /**
   * Require the "TFL3" file identifier (default true, as TFLite's `VerifyModelBuffer`). TFLM's
   * `GetModel()` never looks at it; pass false to accept files written without an identifier.
   */
  requireIdentifier?: boolean;
}

/**
 * Checks the FlatBuffers structure of a .tflite file against micrort's schema before anything reads it:
 * every uoffset, soffset and vtable in bounds and aligned, table sizes within the file, vector and
 * string lengths within the file, strings NUL-terminated, union discriminants known. Work is bounded by
 * the file size (a table/element budget) and by the nesting depth, so hostile files cannot make it hang.
 * Throws `ModelError` with the path, table, field and byte offset of the first problem.
 */
export function verifyStructure(bytes: Uint8Array, options: StructureOptions = {}): void {
  new StructureVerifier(bytes).verify(options.requireIdentifier ?? true);
}

class StructureVerifier {
  private readonly view: DataView;
  private readonly size: number;
  /** Remaining tables and offset-vector elements this file may make us visit (O(file size)). */
  private budget: number;
  /** Path segments of the table being verified, joined only when an error is thrown. */
  private readonly path: string[] = [];
  /** Table, field and element being verified: the location reported on failure (no per-field objects). */
  private table = 'Model';
  private field: string | undefined = '(root offset)';
  private index: number | undefined = undefined;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.size = bytes.byteLength;
    this.budget = 1024 + (this.size >>> 1);
  }

  verify(requireIdentifier: boolean): void {
    if (this.size < MIN_FILE_SIZE) {
      this.fail(`file too small: ${this.size} bytes, a .tflite file has at least ${MIN_FILE_SIZE}`, 0);
    }
    if (requireIdentifier) {
      const id = String.fromCharCode(this.bytes[4]!, this.bytes[5]!, this.bytes[6]!, this.bytes[7]!);
      if (id !== TFLITE_FILE_IDENTIFIER) {
        this.field = '(file identifier)';
        this.fail(`bad file identifier ${JSON.stringify(id)}, expected "${TFLITE_FILE_IDENTIFIER}"`, 4);
      }
    }
    const root = this.followOffset(0);
    this.verifyTable(root, MODEL_LAYOUT, 0);
  }

  // --- error reporting --------------------------------------------------------------------------------

  private fail(message: string, offset: number): never {
    const location: ModelErrorLocation = { path: ['model', ...this.path].join('.'), table: this.table, offset };
    if (this.field !== undefined) location.field = this.field;
    if (this.index !== undefined) location.index = this.index;
    throw new ModelError(message, location);
  }

  private spend(at: number): void {
    if (--this.budget < 0) {
      this.fail(`too many tables and vector elements for a ${this.size}-byte file (shared or looping offsets?)`, at);
    }
  }

  // --- primitive checks -------------------------------------------------------------------------------

  /** Requires `length` bytes at `pos` inside the file and `pos` aligned to `align`. */
  private need(pos: number, length: number, align: number, what: string): void {
    if (pos < 0 || length < 0 || pos + length > this.size) {
      this.fail(`${what} out of bounds: ${length} bytes at offset ${pos}, file is ${this.size} bytes`, pos);
    }
    if (align > 1 && pos % align !== 0) {
      this.fail(`${what} misaligned: offset ${pos} is not a multiple of ${align}`, pos);
    }
  }

  /** Reads the uoffset stored at `at` and returns the absolute position it points to, checked. */
  private followOffset(at: number): number {
    this.need(at, 4, 4, 'offset');
    const rel = this.view.getUint32(at, true);
    if (rel === 0) this.fail('offset of 0 (points to itself)', at);
    if (rel > 0x7fffffff) this.fail(`offset ${rel} exceeds 2^31-1`, at);
    const target = at + rel;
    if (target + 4 > this.size) {
      this.fail(`offset ${rel} at ${at} points past the end of the ${this.size}-byte file`, at);
    }
    return target;
  }

  /** Checks a vector header at `pos` and that `count * elementSize` bytes follow; returns `count`. */
  private vectorLength(pos: number, elementSize: number): number {
    this.need(pos, 4, 4, 'vector length');
    const count = this.view.getUint32(pos, true);
    const available = this.size - pos - 4;
    if (count * elementSize > available) {
      this.fail(`vector of ${count} elements of ${elementSize} bytes runs past the end of the file (${available} bytes left)`, pos);
    }
    return count;
  }

  private verifyString(pos: number): void {
    const length = this.vectorLength(pos, 1);
    const end = pos + 4 + length;
    if (end >= this.size) this.fail(`string of ${length} bytes has no NUL terminator inside the file`, pos);
    if (this.bytes[end] !== 0) this.fail(`string of ${length} bytes is not NUL-terminated`, end);
  }

  // --- tables -----------------------------------------------------------------------------------------

  private verifyTable(pos: number, layout: TableLayout, depth: number): void {
    this.table = layout.name;
    this.field = undefined;
    this.index = undefined;
    if (depth > MAX_DEPTH) this.fail(`tables nested deeper than ${MAX_DEPTH}`, pos);
    this.spend(pos);
    this.need(pos, 4, 4, 'table');
    const vtable = pos - this.view.getInt32(pos, true);
    this.need(vtable, 4, 2, 'vtable');
    const vtableSize = this.view.getUint16(vtable, true);
    const tableSize = this.view.getUint16(vtable + 2, true);
    if (vtableSize < 4 || vtableSize % 2 !== 0) this.fail(`vtable size ${vtableSize} is invalid`, vtable);
    this.need(vtable, vtableSize, 2, 'vtable');
    if (tableSize < 4) this.fail(`table size ${tableSize} is smaller than its vtable offset`, vtable);
    this.need(pos, tableSize, 4, 'table');

    const fields = layout.fields;
    for (let f = 0; f < fields.length; f++) {
      const field = fields[f]!;
      // Nested tables overwrite the location; restore this table's before each field.
      this.table = layout.name;
      this.field = field.name;
      this.index = undefined;
      const t = field.type;
      if (t.kind === 'union') {
        this.verifyUnion(
          pos,
          tableSize,
          this.slot(vtable, vtableSize, field.id - 1),
          this.slot(vtable, vtableSize, field.id),
          field,
          depth,
        );
        continue;
      }
      const rel = this.slot(vtable, vtableSize, field.id);
      if (rel === 0) continue;
      this.checkFieldPlacement(pos, tableSize, rel, t.kind === 'scalar' ? t.size : 4);
      if (t.kind === 'scalar') continue;
      const target = this.followOffset(pos + rel);
      switch (t.kind) {
        case 'string':
          this.verifyString(target);
          break;
        case 'vector':
          this.vectorLength(target, t.elementSize);
          break;
        case 'table':
          this.path.push(field.name);
          this.verifyTable(target, t.table, depth + 1);
          this.path.pop();
          break;
        case 'tableVector': {
          const count = this.vectorLength(target, 4);
          for (let i = 0; i < count; i++) {
            const elementAt = target + 4 + 4 * i;
            this.table = layout.name;
            this.field = field.name;
            this.index = i;
            this.spend(elementAt);
            this.path.push(`${field.name}[${i}]`);
            this.verifyTable(this.followOffset(elementAt), t.table, depth + 1);
            this.path.pop();
          }
          break;
        }
      }
    }
  }

  /** The table-relative offset of field `id` from its vtable (0 = absent). */
  private slot(vtable: number, vtableSize: number, id: number): number {
    return 4 + 2 * id < vtableSize ? this.view.getUint16(vtable + 4 + 2 * id, true) : 0;
  }

  /** A field's inline bytes must lie inside its table, after the vtable offset, aligned to their size. */
  private checkFieldPlacement(pos: number, tableSize: number, rel: number, width: number): void {
    if (rel < 4 || rel + width > tableSize) {
      this.fail(`field at table offset ${rel} (${width} bytes) lies outside its ${tableSize}-byte table`, pos);
    }
    this.need(pos + rel, width, width, 'field');
  }

  private verifyUnion(pos: number, tableSize: number, typeRel: number, valueRel: number, field: FieldLayout, depth: number): void {
    if (field.type.kind !== 'union') return;
    let type = 0;
    if (typeRel !== 0) {
      this.field = `${field.name}_type`;
      this.checkFieldPlacement(pos, tableSize, typeRel, 1);
      type = this.bytes[pos + typeRel]!;
    }
    const members = field.type.members;
    if (type > members.length) {
      this.fail(`unknown ${field.type.union} type ${type} (this schema knows 1..${members.length})`, pos + typeRel);
    }
    this.field = field.name;
    if (type === 0 || valueRel === 0) return;
    this.checkFieldPlacement(pos, tableSize, valueRel, 4);
    const target = this.followOffset(pos + valueRel);
    this.path.push(field.name);
    this.verifyTable(target, members[type - 1]!, depth + 1);
    this.path.pop();
  }
}
