/**
 * The control block the main thread and the workers share (an Int32Array over a SharedArrayBuffer of
 * its own, apart from the arenas): one job at a time, split into chunks that every participant claims
 * with Atomics.add until none is left. The worker's source (worker-source.ts) is generated with these
 * numbers, so both sides read the same words.
 */

/** Word indices of the control block. */
export enum C {
  /** Job sequence number: the main thread bumps it (and notifies) to publish a job; idle workers wait on it. */
  Seq = 0,
  /** The job's function (Fn). */
  Fn = 1,
  /** The instance (arena memory) the job runs on, as attached to every worker. */
  Instance = 2,
  /** Arguments a0..a3 (parameter block, inputs, output). */
  Args = 3,
  /** Elements of the range the chunks split ([0, Total)). */
  Total = 7,
  /** Chunk boundaries are multiples of Align (the last one excepted). */
  Align = 8,
  /** Chunks of the job. */
  Chunks = 9,
  /**
   * The job's tag (bits 16-30) and its next chunk to claim (bits 0-15); between jobs the last job's tag
   * with NO_CHUNK. The main thread claims with Atomics.add; workers with Atomics.compareExchange on a value
   * whose tag is the job they read the parameters of, so a worker late from one job can never claim a
   * chunk of the next (see pool.ts run()).
   */
  Next = 10,
  /** Chunks finished (the last finisher notifies). */
  Done = 11,
  /** 0, or 1 + the index of a worker whose chunk threw (its message in ErrorText). */
  Error = 12,
  /** 1: workers leave their loop and close. */
  Stop = 13,
  /** Microseconds a worker spins for the next job before it sleeps. */
  SpinUs = 14,
  /** Chunks the workers have run, all jobs together (a statistic: tests check that workers took part). */
  WorkerChunks = 15,
  /** Per worker (1-based): 1 while it runs a chunk. */
  Busy = 16,
  /** UTF-16 code units of the first error message (ErrorTextLength words from here). */
  ErrorText = 48,
  ErrorTextLength = 80,
  /** Words of the block. */
  Words = 128,
}

/** Next's chunk part between jobs: larger than any chunk count (jobs have at most 256 chunks), so nothing is claimed. */
export const NO_CHUNK = 0xffff;

/** Jobs' tags wrap at this (a worker would have to sleep through 32,768 jobs to mistake one for another). */
export const TAG_MASK = 0x7fff;

/** The functions a job can run (each takes its chunk's range [e0, e1) and the participant's index). */
export enum Fn {
  /** qs8_conv_run(a0, a1, a2, e0, e1, tid) */
  Conv = 0,
  /** qs8_dwconv_run(a0, a1, a2, e0, e1, tid) */
  Dwconv = 1,
  /** qs8_add_range(a0, a1, a2, a3, e0, e1) */
  Add = 2,
  /** f32_conv_run(a0, a1, a2, e0, e1, tid) */
  F32Conv = 3,
  /** f32_dwconv_run(a0, a1, a2, e0, e1, tid) */
  F32Dwconv = 4,
  /** hybrid_epilogue(a0, a1, e0, e1) */
  HybridEpilogue = 5,
  /** f32_tconv_run(a0, a1, a2, e0, e1, tid): output rows [e0, e1) */
  F32Tconv = 6,
  /** qs8_bmm_run(a0, a1, a2, e0, e1, tid): rows [e0, e1) of the stacked output matrices */
  Bmm8 = 7,
  /** qs16_bmm_run(a0, a1, a2, e0, e1, tid) */
  Bmm16 = 8,
  /** qs8_tconv_run(a0, a1, a2, e0, e1, tid): output rows [e0, e1) */
  Tconv8 = 9,
  /** qs16_tconv_run(a0, a1, a2, e0, e1, tid) */
  Tconv16 = 10,
  /** qs16_conv_run(a0, a1, a2, e0, e1, tid): output pixels [e0, e1) */
  Conv16 = 11,
  /** qs16_dwconv_run(a0, a1, a2, e0, e1, tid): output pixels [e0, e1) */
  Dwconv16 = 12,
  /** Tests: the worker throws inside its chunk. */
  TestThrow = 90,
  /** Tests: the worker's thread ends inside its chunk (process.exit in Node, close() in a browser). */
  TestDie = 91,
}
