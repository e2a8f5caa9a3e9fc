/**
 * The instruction-level machine of the emulated mode: every DSP instruction, load and store of a CMSIS-NN
 * kernel goes through one of its methods, which executes it (via intrinsics.ts) and counts it in the
 * current node's counters. Scalar bookkeeping the C compiler emits (pointer increments, loop counters,
 * compares) is counted explicitly with `alu()`, `loop()` and `branch()` at the places CMSIS-NN's C code
 * has it. Nothing here allocates: two-word results are left in `r0`/`r1`.
 *
 * Counting conventions (documented in the package README):
 * - a loop iteration costs `loop()` = one SUBS (ALU) + one taken branch;
 * - `MAX`/`MIN` cost 2 ALU each (CMP + conditional MOV);
 * - memcpy/memset move whole words where they can (LDR/STR per 4 bytes, byte ops for the tail) with one
 *   loop iteration per word;
 * - arm_nn_requantize counts one REQUANT (its sequence is costed in cycles.ts);
 * - arm_nn_doubling_high_mult counts one MUL_LONG (SMULL/SMLAL) and 4 ALU (nudge select, shift/or).
 */
import { ALU, BRANCH, DIV, LOAD, LOAD_CONST, MAC, MUL_LONG, REQUANT, SIMD, STORE } from './counters.js';
import {
  doublingHighMult,
  pkhbt,
  pkhtb,
  qadd,
  qadd16,
  qsub,
  readQ15x2,
  readS8x4,
  requantize,
  ror,
  sadd16,
  smlabb,
  smlad,
  smladx,
  smlatt,
  smuad,
  smulbb,
  smultt,
  ssat,
  sxtab16,
  sxtab16Ror8,
  sxtb16,
  sxtb16Ror8,
  usat,
  writeQ15x2,
  writeS8x4,
} from './intrinsics.js';

/** Executes and counts instructions for one node. */
export class SimdMachine {
  /** Second result of two-result helpers (read_and_pad). */
  r0 = 0;
  r1 = 0;

  /** `counts` is the node's counter array (NodeCounters.counts), indexed by instruction class. */
  constructor(readonly c: Float64Array) {}

  // ---- loads -------------------------------------------------------------------------------------
  /** LDR of four int8 from RAM (arm_nn_read_s8x4). */
  ldS8x4(a: Int8Array, i: number): number {
    this.c[LOAD]!++;
    return readS8x4(a, i);
  }
  /** LDR of four int8 of constant data (weights). */
  ldcS8x4(a: Int8Array, i: number): number {
    this.c[LOAD_CONST]!++;
    return readS8x4(a, i);
  }
  /** LDR of two int16 from RAM (arm_nn_read_q15x2). */
  ldQ15x2(a: Int16Array, i: number): number {
    this.c[LOAD]!++;
    return readQ15x2(a, i);
  }
  /** LDRSB from RAM. */
  ldS8(a: Int8Array, i: number): number {
    this.c[LOAD]!++;
    return a[i]!;
  }
  /** LDRSB of constant data. */
  ldcS8(a: Int8Array, i: number): number {
    this.c[LOAD_CONST]!++;
    return a[i]!;
  }
  /** LDRSH from RAM. */
  ldS16(a: Int16Array, i: number): number {
    this.c[LOAD]!++;
    return a[i]!;
  }
  /** LDR of an int32 from RAM (arena op data, scratch). */
  ldW(a: Int32Array, i: number): number {
    this.c[LOAD]!++;
    return a[i]!;
  }
  /** LDR of a constant int32 (bias). */
  ldcW(a: Int32Array, i: number): number {
    this.c[LOAD_CONST]!++;
    return a[i]!;
  }

  // ---- stores ------------------------------------------------------------------------------------
  /** STRB. */
  stB(a: Int8Array, i: number, v: number): void {
    this.c[STORE]!++;
    a[i] = v;
  }
  /** STR of four int8 (arm_nn_write_s8x4). */
  stS8x4(a: Int8Array, i: number, v: number): void {
    this.c[STORE]!++;
    writeS8x4(a, i, v);
  }
  /** STR of two int16 (arm_nn_write_q15x2). */
  stQ15x2(a: Int16Array, i: number, v: number): void {
    this.c[STORE]!++;
    writeQ15x2(a, i, v);
  }
  /** STRH. */
  stH(a: Int16Array, i: number, v: number): void {
    this.c[STORE]!++;
    a[i] = v;
  }
  /** STR of an int32. */
  stW(a: Int32Array, i: number, v: number): void {
    this.c[STORE]!++;
    a[i] = v;
  }

  // ---- multiply-accumulate -----------------------------------------------------------------------
  smlad(x: number, y: number, acc: number): number {
    this.c[MAC]!++;
    return smlad(x, y, acc);
  }
  smladx(x: number, y: number, acc: number): number {
    this.c[MAC]!++;
    return smladx(x, y, acc);
  }
  smuad(x: number, y: number): number {
    this.c[MAC]!++;
    return smuad(x, y);
  }
  smlabb(x: number, y: number, acc: number): number {
    this.c[MAC]!++;
    return smlabb(x, y, acc);
  }
  smlatt(x: number, y: number, acc: number): number {
    this.c[MAC]!++;
    return smlatt(x, y, acc);
  }
  smulbb(x: number, y: number): number {
    this.c[MAC]!++;
    return smulbb(x, y);
  }
  smultt(x: number, y: number): number {
    this.c[MAC]!++;
    return smultt(x, y);
  }
  /** MLA: `acc + a*b` (32-bit). */
  mla(a: number, b: number, acc: number): number {
    this.c[MAC]!++;
    return (acc + Math.imul(a, b)) | 0;
  }
  /** MUL: `a*b` (32-bit). */
  mul(a: number, b: number): number {
    this.c[MAC]!++;
    return Math.imul(a, b);
  }

  // ---- SIMD widening / packing -------------------------------------------------------------------
  sxtb16(x: number): number {
    this.c[SIMD]!++;
    return sxtb16(x);
  }
  /** SXTB16 Rd, Rm, ROR #8 (one instruction). */
  sxtb16Ror8(x: number): number {
    this.c[SIMD]!++;
    return sxtb16Ror8(x);
  }
  sxtab16(a: number, x: number): number {
    this.c[SIMD]!++;
    return sxtab16(a, x);
  }
  /** SXTAB16 Rd, Rn, Rm, ROR #8 (one instruction). */
  sxtab16Ror8(a: number, x: number): number {
    this.c[SIMD]!++;
    return sxtab16Ror8(a, x);
  }
  pkhbt(a: number, b: number, sh: number): number {
    this.c[SIMD]!++;
    return pkhbt(a, b, sh);
  }
  pkhtb(a: number, b: number, sh: number): number {
    this.c[SIMD]!++;
    return pkhtb(a, b, sh);
  }
  ror(x: number, n: number): number {
    this.c[SIMD]!++;
    return ror(x, n);
  }
  sadd16(a: number, b: number): number {
    this.c[SIMD]!++;
    return sadd16(a, b);
  }
  qadd16(a: number, b: number): number {
    this.c[SIMD]!++;
    return qadd16(a, b);
  }

  // ---- scalar ALU --------------------------------------------------------------------------------
  qadd(a: number, b: number): number {
    this.c[ALU]!++;
    return qadd(a, b);
  }
  qsub(a: number, b: number): number {
    this.c[ALU]!++;
    return qsub(a, b);
  }
  ssat(x: number, n: number): number {
    this.c[ALU]!++;
    return ssat(x, n);
  }
  usat(x: number, n: number): number {
    this.c[ALU]!++;
    return usat(x, n);
  }
  /** ADD (wrapping). */
  add(a: number, b: number): number {
    this.c[ALU]!++;
    return (a + b) | 0;
  }
  /** MAX(a, b): CMP + conditional MOV. */
  max(a: number, b: number): number {
    this.c[ALU]! += 2;
    return a > b ? a : b;
  }
  /** MIN(a, b): CMP + conditional MOV. */
  min(a: number, b: number): number {
    this.c[ALU]! += 2;
    return a < b ? a : b;
  }
  /** SDIV, truncating toward zero. */
  sdiv(a: number, b: number): number {
    this.c[DIV]!++;
    return (a / b) | 0;
  }
  /** `n` scalar ALU instructions (address arithmetic, pointer increments, compares, moves). */
  alu(n: number): void {
    this.c[ALU]! += n;
  }
  /** `n` taken branches. */
  branch(n = 1): void {
    this.c[BRANCH]! += n;
  }
  /** One loop iteration's overhead: SUBS + taken branch. */
  loop(): void {
    this.c[ALU]!++;
    this.c[BRANCH]!++;
  }
  /** A function call and its return (BL + BX LR). */
  call(): void {
    this.c[BRANCH]! += 2;
  }

  // ---- fixed point -------------------------------------------------------------------------------
  /** arm_nn_requantize. */
  requantize(val: number, multiplier: number, shift: number): number {
    this.c[REQUANT]!++;
    return requantize(val, multiplier, shift);
  }
  /** arm_nn_doubling_high_mult (MUL_SAT): one SMLAL and its rounding/saturation bookkeeping. */
  doublingHighMult(a: number, b: number): number {
    this.c[MUL_LONG]!++;
    this.c[ALU]! += 4;
    return doublingHighMult(a, b);
  }

  // ---- block memory operations -------------------------------------------------------------------
  /** memcpy of `n` bytes: word copies then byte copies, one loop iteration each. */
  memcpy8(dst: Int8Array, di: number, src: Int8Array, si: number, n: number): void {
    for (let k = 0; k < n; k++) dst[di + k] = src[si + k]!;
    const words = n >> 2;
    const tail = n & 3;
    this.c[LOAD]! += words + tail;
    this.c[STORE]! += words + tail;
    this.c[ALU]! += words + tail;
    this.c[BRANCH]! += words + tail;
    this.call();
  }
  /** memset of `n` bytes to `v`: word stores then byte stores, one loop iteration each. */
  memset8(dst: Int8Array, di: number, v: number, n: number): void {
    dst.fill(v, di, di + n);
    const words = n >> 2;
    const tail = n & 3;
    this.c[STORE]! += words + tail;
    this.c[ALU]! += words + tail + 2; // + replicate the byte into a word
    this.c[BRANCH]! += words + tail;
    this.call();
  }
  /** memset of `n` int16 elements to 0 (word stores). */
  memset16Zero(dst: Int16Array, di: number, n: number): void {
    dst.fill(0, di, di + n);
    const words = n >> 1;
    const tail = n & 1;
    this.c[STORE]! += words + tail;
    this.c[ALU]! += words + tail;
    this.c[BRANCH]! += words + tail;
    this.call();
  }
}
