/** Arena figures of an allocated interpreter, comparable with TFLM's RecordingMicroAllocator. */
export interface ArenaUsage {
  /** Size of the arena ArrayBuffer (usable, 16-byte multiple). */
  arenaBytes: number;
  /** head + tail: the smallest arena this model fits in with this planner (TFLM arena_used_bytes()). */
  usedBytes: number;
  /** Planned, non-persistent section (activations and scratch buffers). */
  headBytes: number;
  /** Persistent section (kernel op data, variable tensors). */
  tailBytes: number;
  /** Peak temp allocations above the head during allocateTensors. */
  tempHighWaterBytes: number;
  /** Kernel op data from allocatePersistentBuffer (TFLM persistent_buffer_bytes, minus TFLM's C structs). */
  persistentBufferBytes: number;
  /** Variable tensors (TFLM variable_buffer_bytes). */
  variableBufferBytes: number;
  /**
   * Resource variables (VAR_HANDLE models): the slot table (16 + 40 × slots, as TFLM's
   * MicroResourceVariables) plus the variables' buffers (which persistentBufferBytes also counts, under
   * the ASSIGN_VARIABLE node that allocated them). 0 without resource variables.
   */
  resourceVariableBytes: number;
  /**
   * Tensors computed during prepare (folded shape arithmetic) that nodes read at invoke, in the tail;
   * folded tensors nothing reads at invoke take none.
   */
  foldedBytes: number;
  /** Aligned bytes of planned tensors (before reuse). */
  plannedTensorBytes: number;
  /** Aligned bytes of scratch buffers (before reuse). */
  scratchBufferBytes: number;
  /** Number of buffers the planner placed. */
  plannedBuffers: number;
  planner: string;
  planMs: number;
  /** Per node: persistent and scratch bytes it asked for. */
  perNode: {
    index: number;
    op: string;
    persistentBytes: number;
    scratchBytes: number;
    /** Set for nodes of subgraphs other than the entry one. */ subgraph?: number;
  }[];
}
