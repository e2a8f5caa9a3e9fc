// A 256-entry byte table applied elementwise (int8 and uint8 LOGISTIC / TANH, whose tables are built at
// prepare by kernel-support: entry `b` is the output for the input byte b). Four bytes per step; the
// output may be the input (each word is read before it is written).

/** output[i] = table[input[i]] for the `count` bytes at `input`. */
export function lut_bytes(table: usize, input: usize, output: usize, count: i32): void {
  const n = <usize>count;
  let i: usize = 0;
  for (; i + 4 <= n; i += 4) {
    const v = load<u32>(input + i);
    const b0 = <u32>load<u8>(table + <usize>(v & 255));
    const b1 = <u32>load<u8>(table + <usize>((v >> 8) & 255));
    const b2 = <u32>load<u8>(table + <usize>((v >> 16) & 255));
    const b3 = <u32>load<u8>(table + <usize>(v >> 24));
    store<u32>(output + i, b0 | (b1 << 8) | (b2 << 16) | (b3 << 24));
  }
  for (; i < n; i++) store<u8>(output + i, load<u8>(table + <usize>load<u8>(input + i)));
}
