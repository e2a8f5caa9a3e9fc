/**
 * A block of arena memory handed to a kernel: a persistent buffer or a scratch buffer. Typed views are
 * created on first access and cached, so reading them in `invoke()` allocates nothing after the first
 * call; kernels should take the views they need in `prepare()`.
 *
 * `offset` is relative to the start of the arena's ArrayBuffer and is a multiple of 16, so every typed
 * view is aligned. Views cover `floor(size / elementSize)` elements.
 */
export class ArenaRegion {
  private _u8?: Uint8Array;
  private _i8?: Int8Array;
  private _i16?: Int16Array;
  private _i32?: Int32Array;
  private _f32?: Float32Array;

  constructor(
    readonly buffer: ArrayBufferLike,
    readonly offset: number,
    readonly size: number,
  ) {}

  get u8(): Uint8Array {
    return (this._u8 ??= new Uint8Array(this.buffer, this.offset, this.size));
  }
  get i8(): Int8Array {
    return (this._i8 ??= new Int8Array(this.buffer, this.offset, this.size));
  }
  get i16(): Int16Array {
    return (this._i16 ??= new Int16Array(this.buffer, this.offset, this.size >> 1));
  }
  get i32(): Int32Array {
    return (this._i32 ??= new Int32Array(this.buffer, this.offset, this.size >> 2));
  }
  get f32(): Float32Array {
    return (this._f32 ??= new Float32Array(this.buffer, this.offset, this.size >> 2));
  }
}
