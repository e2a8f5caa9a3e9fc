/**
 * `pnpm bench:limit`: the SIMD128 limit of this machine for int8 GEMMs, as the speed targets use it — a
 * throughput-bound loop of independent `i32x4.dot_i16x8_s` over L1-resident data: eight accumulators,
 * four 16-byte rows loaded per step from a 16 KiB window (as a GEMM streams one operand) against two
 * weight vectors held in registers, each dot counting 8 multiply-accumulates. Also the same loop with
 * every operand in registers (V8 then copies one operand per dot: the SSE form of pmaddwd overwrites
 * it, so this one reads lower) and the f32x4 mul + add loop. Compiled with AssemblyScript at run time;
 * after half a second of warm-up (the optimizing tier), best of 60 trials of 200,000 steps each, in GMAC/s.
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const SOURCE = `
export function dotLoads(p: usize, n: i32): i32 {
  let a0 = i32x4.splat(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  const w0 = v128.load(p), w1 = v128.load(p, 16);
  let q = p;
  for (let i = 0; i < n; i++) {
    const x0 = v128.load(q, 32), x1 = v128.load(q, 48), x2 = v128.load(q, 64), x3 = v128.load(q, 80);
    a0 = i32x4.add(a0, i32x4.dot_i16x8_s(w0, x0)); a1 = i32x4.add(a1, i32x4.dot_i16x8_s(w1, x0));
    a2 = i32x4.add(a2, i32x4.dot_i16x8_s(w0, x1)); a3 = i32x4.add(a3, i32x4.dot_i16x8_s(w1, x1));
    a4 = i32x4.add(a4, i32x4.dot_i16x8_s(w0, x2)); a5 = i32x4.add(a5, i32x4.dot_i16x8_s(w1, x2));
    a6 = i32x4.add(a6, i32x4.dot_i16x8_s(w0, x3)); a7 = i32x4.add(a7, i32x4.dot_i16x8_s(w1, x3));
    q = p + <usize>((i & 255) << 6);
  }
  return i32x4.extract_lane(i32x4.add(i32x4.add(i32x4.add(a0, a1), i32x4.add(a2, a3)), i32x4.add(i32x4.add(a4, a5), i32x4.add(a6, a7))), 0);
}
export function dotRegisters(p: usize, n: i32): i32 {
  let a0 = i32x4.splat(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  const w0 = v128.load(p), w1 = v128.load(p, 16), x0 = v128.load(p, 32), x1 = v128.load(p, 48);
  for (let i = 0; i < n; i++) {
    a0 = i32x4.add(a0, i32x4.dot_i16x8_s(w0, x0)); a1 = i32x4.add(a1, i32x4.dot_i16x8_s(w1, x0));
    a2 = i32x4.add(a2, i32x4.dot_i16x8_s(w0, x1)); a3 = i32x4.add(a3, i32x4.dot_i16x8_s(w1, x1));
    a4 = i32x4.add(a4, i32x4.dot_i16x8_s(x0, w0)); a5 = i32x4.add(a5, i32x4.dot_i16x8_s(x1, w1));
    a6 = i32x4.add(a6, i32x4.dot_i16x8_s(x0, w1)); a7 = i32x4.add(a7, i32x4.dot_i16x8_s(x1, w0));
  }
  return i32x4.extract_lane(i32x4.add(i32x4.add(i32x4.add(a0, a1), i32x4.add(a2, a3)), i32x4.add(i32x4.add(a4, a5), i32x4.add(a6, a7))), 0);
}
export function f32Loads(p: usize, n: i32): f32 {
  let a0 = f32x4.splat(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
  const w0 = v128.load(p), w1 = v128.load(p, 16);
  let q = p;
  for (let i = 0; i < n; i++) {
    const x0 = v128.load(q, 32), x1 = v128.load(q, 48), x2 = v128.load(q, 64), x3 = v128.load(q, 80);
    a0 = f32x4.add(a0, f32x4.mul(w0, x0)); a1 = f32x4.add(a1, f32x4.mul(w1, x0));
    a2 = f32x4.add(a2, f32x4.mul(w0, x1)); a3 = f32x4.add(a3, f32x4.mul(w1, x1));
    a4 = f32x4.add(a4, f32x4.mul(w0, x2)); a5 = f32x4.add(a5, f32x4.mul(w1, x2));
    a6 = f32x4.add(a6, f32x4.mul(w0, x3)); a7 = f32x4.add(a7, f32x4.mul(w1, x3));
    q = p + <usize>((i & 255) << 6);
  }
  return f32x4.extract_lane(f32x4.add(f32x4.add(f32x4.add(a0, a1), f32x4.add(a2, a3)), f32x4.add(f32x4.add(a4, a5), f32x4.add(a6, a7))), 0);
}
`;

/** The measured loops, in GMAC/s. */
export interface SimdLimit {
  /** dot_i16x8_s with one operand streamed from L1: the limit the int8 targets use. */
  dotLoads: number;
  /** dot_i16x8_s with every operand in registers. */
  dotRegisters: number;
  /** f32x4 mul + add with one operand streamed from L1. */
  f32Loads: number;
}

/** Compiles the loops with AssemblyScript (in this process: for the child that `measureSimdLimit` starts). */
async function compileLoops(): Promise<Uint8Array> {
  const { main } = (await import('assemblyscript/asc')) as unknown as {
    main: (args: string[], opts: Record<string, unknown>) => Promise<{ error: Error | null }>;
  };
  let wasm: Uint8Array | null = null;
  const errors: string[] = [];
  const args = ['limit.ts', '--enable', 'simd', '--runtime', 'stub', '--importMemory', '-O3', '--noAssert'];
  const { error } = await main([...args, '--use', 'abort=', '--outFile', 'limit.wasm'], {
    readFile: (name: string) => (name === 'limit.ts' ? SOURCE : null),
    writeFile: (name: string, contents: Uint8Array) => {
      if (name.endsWith('.wasm')) wasm = contents;
    },
    listFiles: () => [],
    stdout: { write: () => true },
    stderr: { write: (s: string) => errors.push(String(s)) },
  });
  if (error || !wasm) throw new Error(`asc failed: ${error?.message ?? 'no output'} ${errors.join('')}`);
  return wasm;
}

/**
 * Compiles the loops and times them (best of `trials`). The compiler runs in a child process: Binaryen is
 * a large WebAssembly module whose hot functions keep V8's background compiler busy for seconds, which
 * would hold the measured loops in the baseline tier.
 */
export async function measureSimdLimit(trials = 60, steps = 200_000): Promise<SimdLimit> {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--compile'], {
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`compiling the loops failed: ${String(child.stderr)}`);
  const wasm = new Uint8Array(child.stdout);
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 2 });
  const x = new WebAssembly.Instance(new WebAssembly.Module(wasm), { env: { memory } }).exports as Record<
    string,
    (p: number, n: number) => number
  >;
  new Uint8Array(memory.buffer).forEach((_, i, a) => (a[i] = (i * 37) & 0x7f));
  const time = (f: string, macsPerStep: number): number => {
    // WebAssembly has no on-stack replacement: V8 runs a call in its baseline tier until the optimized code
    // is ready for a later call, so warm up for half a second first.
    for (const t0 = performance.now(); performance.now() - t0 < 500;) x[f]!(0, steps);
    let best = Infinity;
    for (let t = 0; t < trials; t++) {
      const t0 = performance.now();
      x[f]!(0, steps);
      best = Math.min(best, performance.now() - t0);
    }
    return (steps * macsPerStep) / best / 1e6;
  };
  return { dotLoads: time('dotLoads', 64), dotRegisters: time('dotRegisters', 64), f32Loads: time('f32Loads', 32) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1]) && process.argv[2] === '--compile') {
  compileLoops().then(
    (wasm) => process.stdout.write(wasm),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
} else if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  measureSimdLimit().then(
    (l) => {
      console.log(`SIMD128 int8 limit (i32x4.dot_i16x8_s, one operand streamed from L1, 8 accumulators): ${l.dotLoads.toFixed(1)} GMAC/s`);
      console.log(`  the same with every operand in registers: ${l.dotRegisters.toFixed(1)} GMAC/s`);
      console.log(`  f32x4 mul + add, one operand streamed from L1: ${l.f32Loads.toFixed(1)} GMAC/s`);
      console.log(`Node ${process.version}; best of 60 trials of 200,000 steps`);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
