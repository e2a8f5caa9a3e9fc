/**
 * Relaxed SIMD: whether the engine has it (WebAssembly.validate of a module that uses it), and what its
 * `i32x4.relaxed_dot_i8x16_i7x16_add_s` computes. The instruction is defined for a second operand in
 * [0, 127]; with its top bit set the result is implementation-defined (read signed or unsigned, pairs
 * saturated to int16 or not). The int8 GEMM uses it only where a probe of this engine shows exact 8-bit
 * products: `usdot` (the second operand read unsigned, no saturation: x86 VNNI's vpdpbusd) lets the
 * kernel bias the activations to unsigned (x + 128), `sdot` (read signed: Arm's SDOT) takes them as they
 * are. Anything else (a saturating pmaddubsw lowering; Node 20's experimental lowering, which returns
 * twice the sum) gets `none`, and the relaxed build keeps the exact dot_i16x8 tile for int8.
 */

/** What the engine's relaxed dot product computes on 8-bit operands. */
export type RelaxedDot = 'usdot' | 'sdot' | 'none';

/**
 * (module (import "env" "memory" (memory 1)) (func (export "f") (param i32)
 *   local.get 0
 *   (v128.load (local.get 0)) (v128.load offset=16 (local.get 0)) (v128.const 0)
 *   i32x4.relaxed_dot_i8x16_i7x16_add_s
 *   v128.store offset=32))
 * plus, so that it validates only with relaxed SIMD, nothing else.
 */
function probeModule(): Uint8Array<ArrayBuffer> {
  // prettier-ignore
  const body = [
    0x00, // no locals
    0x20, 0x00, // local.get 0 (the store's address)
    0x20, 0x00, 0xfd, 0x00, 0x04, 0x00, // v128.load offset=0
    0x20, 0x00, 0xfd, 0x00, 0x04, 0x10, // v128.load offset=16
    0xfd, 0x0c, ...new Array<number>(16).fill(0), // v128.const 0
    0xfd, 0x93, 0x02, // i32x4.relaxed_dot_i8x16_i7x16_add_s
    0xfd, 0x0b, 0x04, 0x20, // v128.store offset=32
    0x0b,
  ];
  // prettier-ignore
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x01, 0x7f, 0x00, // type (i32) -> ()
    0x02, 0x0f, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x01, // import env.memory
    0x03, 0x02, 0x01, 0x00, // one function
    0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // export "f"
    0x0a, body.length + 2, 0x01, body.length, ...body,
  ]);
}

/** Whether `validate` accepts relaxed SIMD. */
export function hasRelaxedSimd(validate: (bytes: Uint8Array<ArrayBuffer>) => boolean): boolean {
  try {
    return validate(probeModule());
  } catch {
    return false;
  }
}

/** The exact dot products of `a` (signed) with `b` read unsigned and read signed, four lanes. */
function exact(a: Int8Array, b: Uint8Array): { unsigned: number[]; signed: number[] } {
  const unsigned = [0, 0, 0, 0];
  const signed = [0, 0, 0, 0];
  for (let i = 0; i < 16; i++) {
    unsigned[i >> 2]! += a[i]! * b[i]!;
    signed[i >> 2]! += a[i]! * ((b[i]! << 24) >> 24);
  }
  return { unsigned, signed };
}

/** Runs the engine's relaxed dot product on test vectors; `none` where it is not exact on 8-bit operands or relaxed SIMD is missing. */
export function probeRelaxedDot(): RelaxedDot {
  let f: (p: number) => void;
  let memory: WebAssembly.Memory;
  try {
    memory = new WebAssembly.Memory({ initial: 1, maximum: 1 });
    f = (new WebAssembly.Instance(new WebAssembly.Module(probeModule()), { env: { memory } }).exports as { f: (p: number) => void }).f;
  } catch {
    return 'none';
  }
  const i8 = new Int8Array(memory.buffer, 0, 16);
  const u8 = new Uint8Array(memory.buffer, 16, 16);
  const out = new Int32Array(memory.buffer, 32, 4);
  let unsigned = true;
  let signed = true;
  // the extremes that saturate int16 pairs, then pseudo-random vectors
  const cases: [(i: number) => number, (i: number) => number][] = [
    [(i) => i - 8, (i) => i * 7],
    [() => -128, () => 255],
    [() => 127, () => 255],
    [() => -128, () => 128],
    [(i) => (i & 1 ? 127 : -128), (i) => (i & 2 ? 255 : 129)],
  ];
  let seed = 0x2545f491;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 24;
  for (let k = 0; k < 16; k++) cases.push([() => (next() << 24) >> 24, () => next()]);
  for (const [a, b] of cases) {
    for (let i = 0; i < 16; i++) {
      i8[i] = a(i);
      u8[i] = b(i) & 0xff;
    }
    f(0);
    const want = exact(i8, u8);
    const small = Array.from(u8).every((x) => x < 128);
    for (let j = 0; j < 4; j++) {
      if (out[j] !== want.unsigned[j]) unsigned = false;
      if (out[j] !== want.signed[j]) signed = false;
      if (small && out[j] !== want.unsigned[j]) return 'none'; // wrong even where the spec defines it
    }
  }
  return unsigned ? 'usdot' : signed ? 'sdot' : 'none';
}
