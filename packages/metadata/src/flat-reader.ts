/**
 * A bounds-checked reader of FlatBuffers tables, for the metadata flatbuffer: every offset, length and
 * vtable entry is checked against the buffer before it is read, so a malformed buffer is a
 * `MetadataError` naming the table and field, never a garbage value or an out-of-range read.
 */
import { MetadataError } from './errors.js';

const utf8 = new TextDecoder('utf-8');

/** One table of the buffer: fields by their id in the schema (the order they are declared in). */
export class FlatTable {
  private readonly vtable: number;
  private readonly vtableSize: number;

  constructor(
    private readonly view: DataView,
    private readonly pos: number,
    /** Where the table is, for errors: `ModelMetadata.subgraph_metadata[0]`. */
    readonly path: string,
  ) {
    this.check(pos, 4, 'table');
    this.vtable = pos - view.getInt32(pos, true);
    this.check(this.vtable, 4, 'vtable');
    this.vtableSize = view.getUint16(this.vtable, true);
    if (this.vtableSize < 4 || this.vtableSize % 2) throw new MetadataError(`vtable size ${this.vtableSize} is invalid`, path);
    this.check(this.vtable, this.vtableSize, 'vtable');
  }

  private check(at: number, bytes: number, what: string): void {
    if (!Number.isInteger(at) || at < 0 || bytes < 0 || at + bytes > this.view.byteLength)
      throw new MetadataError(`${what} of ${bytes} bytes at offset ${at} lies outside the ${this.view.byteLength}-byte buffer`, this.path);
  }

  /** Absolute position of field `id`'s value, or 0 when the field is absent. */
  private field(id: number, size: number, name: string): number {
    const slot = 4 + 2 * id;
    if (slot + 2 > this.vtableSize) return 0;
    const rel = this.view.getUint16(this.vtable + slot, true);
    if (rel === 0) return 0;
    this.check(this.pos + rel, size, `field ${name}`);
    return this.pos + rel;
  }

  /** Position of what an offset field points to (0 when absent). */
  private target(id: number, name: string): number {
    const at = this.field(id, 4, name);
    if (!at) return 0;
    const to = at + this.view.getUint32(at, true);
    this.check(to, 4, `field ${name}`);
    return to;
  }

  u8(id: number, name: string, fallback = 0): number {
    const at = this.field(id, 1, name);
    return at ? this.view.getUint8(at) : fallback;
  }

  u32(id: number, name: string, fallback = 0): number {
    const at = this.field(id, 4, name);
    return at ? this.view.getUint32(at, true) : fallback;
  }

  i32(id: number, name: string, fallback = 0): number {
    const at = this.field(id, 4, name);
    return at ? this.view.getInt32(at, true) : fallback;
  }

  private stringAt(at: number, name: string): string {
    const len = this.view.getUint32(at, true);
    this.check(at + 4, len, `string ${name}`);
    return utf8.decode(new Uint8Array(this.view.buffer, this.view.byteOffset + at + 4, len));
  }

  /** A string field ('' when absent). */
  string(id: number, name: string): string {
    const at = this.target(id, name);
    return at ? this.stringAt(at, name) : '';
  }

  /** A table field (null when absent). */
  table(id: number, name: string): FlatTable | null {
    const at = this.target(id, name);
    return at ? new FlatTable(this.view, at, `${this.path}.${name}`) : null;
  }

  /** Position and length of a vector field whose elements are `size` bytes. */
  private vector(id: number, name: string, size: number): [number, number] {
    const at = this.target(id, name);
    if (!at) return [0, 0];
    const len = this.view.getUint32(at, true);
    this.check(at + 4, len * size, `vector ${name} of ${len} elements`);
    return [at + 4, len];
  }

  /** A vector of tables ([] when absent). */
  tables(id: number, name: string): FlatTable[] {
    const [start, len] = this.vector(id, name, 4);
    return Array.from({ length: len }, (_, i) => {
      const el = start + 4 * i;
      return new FlatTable(this.view, el + this.view.getUint32(el, true), `${this.path}.${name}[${i}]`);
    });
  }

  /** A vector of strings ([] when absent). */
  strings(id: number, name: string): string[] {
    const [start, len] = this.vector(id, name, 4);
    return Array.from({ length: len }, (_, i) => {
      const el = start + 4 * i;
      const to = el + this.view.getUint32(el, true);
      this.check(to, 4, `${name}[${i}]`);
      return this.stringAt(to, `${name}[${i}]`);
    });
  }

  /** A vector of float32 ([] when absent). */
  floats(id: number, name: string): number[] {
    const [start, len] = this.vector(id, name, 4);
    return Array.from({ length: len }, (_, i) => this.view.getFloat32(start + 4 * i, true));
  }

  /** A vector of uint32 ([] when absent). */
  uints(id: number, name: string): number[] {
    const [start, len] = this.vector(id, name, 4);
    return Array.from({ length: len }, (_, i) => this.view.getUint32(start + 4 * i, true));
  }
}

/**
 * The root table of a flatbuffer, after checking its file identifier (`M001` for TFLite metadata) when
 * `identifier` is given.
 */
export function rootTable(bytes: Uint8Array, rootName: string, identifier?: string): FlatTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 8) throw new MetadataError(`the buffer has ${bytes.byteLength} bytes, too few for a flatbuffer`, rootName);
  if (identifier !== undefined) {
    const id = String.fromCharCode(...bytes.subarray(4, 8));
    if (id !== identifier)
      throw new MetadataError(`file identifier is "${id.replace(/[^\x20-\x7e]/g, '?')}", expected "${identifier}"`, rootName);
  }
  return new FlatTable(view, view.getUint32(0, true), rootName);
}
