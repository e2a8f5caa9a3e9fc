/**
 * A FlexBuffers map writer for tests that build custom ops' options (TFLite_Detection_PostProcess, the
 * signal library's ops, the TFLite op recipes) and composite attributes: the layout `flexbuffers::Builder`
 * writes for a root map whose values are all 8 bytes wide, or all 4 bytes wide (`width` 4: int32 and float32
 * values, as the converter writes `fbb.Float("scale", f)`; readers that take a float's 4 bytes need this one).
 */

/** A value of the map: an integer (INT), a bool (BOOL), or `{ float }` (FLOAT, written as a double). */
export type FlexEntry = number | boolean | { float: number };

/**
 * The FlexBuffers bytes of a root map: the key strings (sorted, NUL-terminated), the keys vector with
 * 1-byte offsets, the map header (keys offset, keys byte width, size), the 8-byte values, their packed
 * types, and the root (offset, packed type, byte width).
 */
export function flexMap(entries: Record<string, FlexEntry>, width: 4 | 8 = 8): Uint8Array {
  const keys = Object.keys(entries).sort();
  const out: number[] = [];
  const keyAt: number[] = [];
  for (const key of keys) {
    keyAt.push(out.length);
    for (const byte of new TextEncoder().encode(key)) out.push(byte);
    out.push(0);
  }
  out.push(keys.length);
  const keysAt = out.length;
  keys.forEach((_, i) => out.push(keysAt + i - keyAt[i]!));
  while (out.length % width !== 0) out.push(0);
  const word = (write: (view: DataView) => void): number[] => {
    const bytes = new Uint8Array(width);
    write(new DataView(bytes.buffer));
    return Array.from(bytes);
  };
  const int64 = (v: number) => word((d) => (width === 8 ? d.setBigInt64(0, BigInt(v), true) : d.setInt32(0, v, true)));
  const bits = width === 8 ? 3 : 2;
  const headerAt = out.length;
  out.push(...int64(headerAt - keysAt), ...int64(1), ...int64(keys.length));
  const valuesAt = out.length;
  const types: number[] = [];
  for (const key of keys) {
    const v = entries[key]!;
    if (typeof v === 'boolean') {
      out.push(...int64(v ? 1 : 0));
      types.push((26 << 2) | bits); // FBT_BOOL
    } else if (typeof v === 'number') {
      out.push(...int64(v));
      types.push((1 << 2) | bits); // FBT_INT
    } else {
      out.push(...word((d) => (width === 8 ? d.setFloat64(0, v.float, true) : d.setFloat32(0, v.float, true))));
      types.push((3 << 2) | bits); // FBT_FLOAT
    }
  }
  out.push(...types);
  const rootAt = out.length;
  out.push(rootAt - valuesAt, (9 << 2) | bits, 1); // offset to the map, FBT_MAP, 1-byte root
  return Uint8Array.from(out);
}
