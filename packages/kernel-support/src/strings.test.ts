import { describe, expect, it } from 'vitest';
import { AllocationType, MicrortError, StringCapacityError, Tensor, TensorType, decodeStrings, encodeStrings } from '@micrort/core';
import {
  StringWriter,
  maxStringBytes,
  selectedStringsBound,
  stringEqualsBytes,
  stringLength,
  stringPayloadBound,
  stringsEqual,
} from './strings.js';

describe('string helpers', () => {
  const a = encodeStrings(['x', 'yy', '', 'yy']);
  const b = encodeStrings(['yy', 'x']);

  it('reads lengths and compares bytewise', () => {
    expect([0, 1, 2, 3].map((i) => stringLength(a, i))).toEqual([1, 2, 0, 2]);
    expect(stringsEqual(a, 1, b, 0)).toBe(true);
    expect(stringsEqual(a, 1, a, 3)).toBe(true);
    expect(stringsEqual(a, 0, b, 0)).toBe(false);
    expect(stringEqualsBytes(a, 1, new Uint8Array([0x79, 0x79]))).toBe(true);
    expect(stringEqualsBytes(a, 2, new Uint8Array(0))).toBe(true);
    expect(stringEqualsBytes(a, 0, new Uint8Array([0x79]))).toBe(false);
  });

  it('StringWriter writes serialized strings into a planned buffer and refuses to outgrow it', () => {
    const out = new Uint8Array(64);
    const w = new StringWriter('test output');
    w.begin(out, 3);
    w.appendString(a, 1);
    w.appendByte(0x7a);
    w.appendByte(0x7a);
    w.end();
    w.append(new Uint8Array([1, 2, 3]), 1, 3);
    expect(w.finish()).toBe(20 + 2 + 2 + 2);
    expect(decodeStrings(out.subarray(0, 26), true).map((s) => Array.from(s))).toEqual([
      [0x79, 0x79],
      [0x7a, 0x7a],
      [2, 3],
    ]);
    const small = new StringWriter('small');
    small.begin(new Uint8Array(20), 2);
    expect(() => small.append(new Uint8Array(5), 0, 5)).toThrow(StringCapacityError);
    expect(() => new StringWriter('tiny').begin(new Uint8Array(8), 2)).toThrow(/tiny: the strings need 16 bytes, 8 were planned/);
    const short = new StringWriter('short');
    short.begin(out, 2);
    short.appendString(a, 0);
    expect(() => short.finish()).toThrow(MicrortError);
  });

  it('bounds a constant by its contents and another string tensor by its capacity', () => {
    const c = new Tensor(0, 'c', TensorType.STRING, Int32Array.of(4), null, false);
    c.setStringCapacity(a.byteLength);
    c.bind(a.buffer, a.byteOffset, AllocationType.MmapRo);
    expect(maxStringBytes(c)).toBe(2);
    expect(stringPayloadBound(c)).toBe(5);
    expect(selectedStringsBound(c, 6, false)).toBe(4 * 8 + 12);
    expect(selectedStringsBound(c, 6, true)).toBe(4 * 8 + 5);
    const v = new Tensor(1, 'v', TensorType.STRING, Int32Array.of(2), null, false);
    v.setStringCapacity(16 + 100);
    expect(maxStringBytes(v)).toBe(100);
    expect(stringPayloadBound(v)).toBe(100);
  });
});
