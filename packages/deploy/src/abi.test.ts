/**
 * The struct-layout calculator against real compilers: every struct of the arena model (framework
 * structs, builtin-options structs, kernel op data) is written out as C++ with the same members, and
 * `static_assert`s on sizeof, alignof and each member's offset are compiled with g++ for the host (LP64)
 * and with arm-none-eabi-g++ for Cortex-M (ILP32 with the toolchain's default short enums, and with
 * -fno-short-enums). A compiler that is not installed skips its check.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ILP32, LP64, alignOf, ilp32, sizeOf, struct, structLayout, type Abi, type CType, type StructDef } from './abi.js';
import * as kernels from './tflm/kernels.js';
import * as structs from './tflm/structs.js';

function isStruct(v: unknown): v is StructDef {
  return typeof v === 'object' && v !== null && 'fields' in v && 'name' in v && Array.isArray((v as StructDef).fields);
}

/** Every StructDef the arena model uses, nested ones included. */
function allStructs(): StructDef[] {
  const out: StructDef[] = [];
  const seen = new Set<StructDef>();
  const visit = (t: CType) => {
    if (typeof t === 'string') return;
    if (!isStruct(t)) return visit(t.array);
    if (seen.has(t)) return;
    seen.add(t);
    for (const [, f] of t.fields) visit(f);
    out.push(t); // after its members: declaration order for C++
  };
  for (const v of [...Object.values(structs), ...Object.values(kernels)]) if (isStruct(v)) visit(v);
  return out;
}

const SCALAR_CXX: Record<string, string> = {
  bool: 'bool',
  char: 'char',
  int8: '__INT8_TYPE__',
  uint8: '__UINT8_TYPE__',
  int16: '__INT16_TYPE__',
  uint16: '__UINT16_TYPE__',
  int32: '__INT32_TYPE__',
  uint32: '__UINT32_TYPE__',
  int: 'int',
  float: 'float',
  int64: '__INT64_TYPE__',
  double: 'double',
  ptr: 'void*',
  size_t: '__SIZE_TYPE__',
  intptr: '__INTPTR_TYPE__',
  // TFLM's enums all have enumerators in 0..255 (TfLiteType, TfLiteFusedActivation, ...).
  enum: 'TflmLikeEnum',
  // TfLiteQuantizationType in C++ (tensorflow/lite/micro/c/common.h): `enum TfLiteQuantizationType : int`.
  'int-enum': 'TflmIntEnum',
};

/** C++ declarations of `list` with static_asserts of the calculator's figures for `abi`. */
function cxxSource(list: readonly StructDef[], abi: Abi): string {
  const ids = new Map<StructDef, string>();
  list.forEach((s, i) => ids.set(s, `S${i}`));
  const typeOf = (t: CType): { base: string; dims: string } => {
    if (typeof t === 'string') return { base: SCALAR_CXX[t]!, dims: '' };
    if (isStruct(t)) return { base: ids.get(t)!, dims: '' };
    const inner = typeOf(t.array);
    return { base: inner.base, dims: `[${t.length}]${inner.dims}` };
  };
  const lines = [
    // No library headers (a bare arm-none-eabi toolchain has none): the compiler's own type macros.
    'enum TflmLikeEnum { kTflmLikeFirst = 0, kTflmLikeLast = 255 };',
    'enum TflmIntEnum : int { kTflmIntFirst = 0, kTflmIntLast = 3 };',
    'struct Poly0 { virtual void f0(); };',
    'struct Poly1 { virtual void f1(); };',
  ];
  for (const s of list) {
    const id = ids.get(s)!;
    const bases = Array.from({ length: s.vptrs ?? 0 }, (_, i) => `public Poly${i}`).join(', ');
    lines.push(`// ${s.name} (${s.source})`);
    lines.push(`struct ${id}${bases ? ` : ${bases}` : ''} {`);
    s.fields.forEach(([name, t]) => {
      const { base, dims } = typeOf(t);
      lines.push(`  ${base} ${name.replace(/[^A-Za-z0-9_]/g, '_')}${dims};`);
    });
    lines.push('};');
    const l = structLayout(s, abi);
    const label = s.name.replace(/"/g, "'");
    lines.push(`static_assert(sizeof(${id}) == ${l.size}, "sizeof ${label} (${abi.name}): ${l.size}");`);
    lines.push(`static_assert(alignof(${id}) == ${l.align}, "alignof ${label} (${abi.name}): ${l.align}");`);
    s.fields.forEach(([name], i) =>
      lines.push(
        `static_assert(__builtin_offsetof(${id}, ${name.replace(/[^A-Za-z0-9_]/g, '_')}) == ${l.offsets[i]}, "offsetof ${label}.${name} (${abi.name}): ${l.offsets[i]}");`,
      ),
    );
  }
  return lines.join('\n') + '\n';
}

function has(compiler: string): boolean {
  return spawnSync(compiler, ['--version'], { stdio: 'ignore' }).status === 0;
}

function hostIsLp64(): boolean {
  if (!has('g++')) return false;
  const machine = execFileSync('g++', ['-dumpmachine'], { encoding: 'utf8' });
  return /^(x86_64|aarch64)/.test(machine);
}

function compiles(compiler: string, flags: readonly string[], source: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'micrort-deploy-abi-'));
  try {
    const file = join(dir, 'layouts.cc');
    writeFileSync(file, source);
    const r = spawnSync(compiler, ['-std=c++11', '-fsyntax-only', '-Wno-invalid-offsetof', ...flags, file], { encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(
        `${compiler} ${flags.join(' ')} rejected the layouts:\n${r.stderr
          .split('\n')
          .filter((l) => l.includes('static assertion') || l.includes('error'))
          .slice(0, 12)
          .join('\n')}`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('struct layout calculator', () => {
  it('pads members to their alignment and the struct to its largest member', () => {
    const s = struct('T', 'test', [
      ['c', 'char'],
      ['d', 'int64'],
      ['e', 'enum'],
    ]);
    expect(structLayout(s, LP64)).toMatchObject({ size: 24, align: 8, offsets: [0, 8, 16] });
    // ARM EABI: int64 still 8-aligned, enums one byte.
    expect(structLayout(s, ILP32)).toMatchObject({ size: 24, align: 8, offsets: [0, 8, 16] });
    const t = struct('U', 'test', [
      ['e', 'enum'],
      ['c', 'char'],
    ]);
    expect(structLayout(t, ILP32)).toMatchObject({ size: 2, align: 1, offsets: [0, 1] });
    expect(structLayout(t, ilp32({ enumBytes: 4 }))).toMatchObject({ size: 8, align: 4, offsets: [0, 4] });
  });

  it('keeps an enum with a fixed int underlying type at 4 bytes under short enums', () => {
    const s = struct('W', 'test', [
      ['b', 'bool'],
      ['q', 'int-enum'],
      ['e', 'enum'],
    ]);
    expect(structLayout(s, ILP32)).toMatchObject({ size: 12, align: 4, offsets: [0, 4, 8] });
    expect(structLayout(s, LP64)).toMatchObject({ size: 12, align: 4, offsets: [0, 4, 8] });
  });

  it('puts vtable pointers first', () => {
    const s = struct('V', 'test', [['x', 'int']], 2);
    expect(sizeOf(s, LP64)).toBe(24);
    expect(sizeOf(s, ILP32)).toBe(12);
    expect(alignOf(s, ILP32)).toBe(4);
  });

  it('knows TfLiteTensor and TfLiteEvalTensor for both words', () => {
    expect(sizeOf(structs.TfLiteTensor, LP64)).toBe(64);
    expect(sizeOf(structs.TfLiteTensor, ILP32)).toBe(32);
    expect(sizeOf(structs.TfLiteEvalTensor, LP64)).toBe(24);
    expect(sizeOf(structs.TfLiteEvalTensor, ILP32)).toBe(12);
  });
});

const list = allStructs();

describe.skipIf(!hostIsLp64())('struct layouts compile (host g++, LP64)', () => {
  it(`${list.length} structs: sizeof, alignof, offsetof`, () => {
    compiles('g++', [], cxxSource(list, LP64));
  });
});

describe.skipIf(!has('arm-none-eabi-g++'))('struct layouts compile (arm-none-eabi-g++, ILP32)', () => {
  it(`${list.length} structs with the toolchain's default (short) enums`, () => {
    compiles('arm-none-eabi-g++', ['-mcpu=cortex-m4', '-mthumb'], cxxSource(list, ILP32));
  });
  it(`${list.length} structs with -fno-short-enums`, () => {
    compiles('arm-none-eabi-g++', ['-mcpu=cortex-m4', '-mthumb', '-fno-short-enums'], cxxSource(list, ilp32({ enumBytes: 4 })));
  });
});

if (!has('arm-none-eabi-g++'))
  describe('struct layouts compile (arm-none-eabi-g++, ILP32)', () =>
    it.skip('arm-none-eabi-g++ is not installed (apt install g++-arm-none-eabi): the 32-bit layout check is skipped', () => {}));
