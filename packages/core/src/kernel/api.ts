import type { BuiltinOptions, BuiltinOptions2, Padding } from '../options.js';
import type { ArenaRegion } from './arena-region.js';
import type { EvalTensor, Tensor } from './tensor.js';

/**
 * The interpreter's lifecycle phases (TFLM's MicroContext/InterpreterState). Each context callback is
 * allowed only in some of them; a call in another phase throws `PhaseError` naming the callback, the
 * phase and the allowed phases.
 *
 * | callback                                  | init | prepare | memoryPlanning | invoke |
 * |-------------------------------------------|------|---------|----------------|--------|
 * | allocatePersistentBuffer                  |  ✓   |   ✓     |                |        |
 * | requestScratchBufferInArena               |      |   ✓     |                |        |
 * | getScratchBuffer                          |      |         |                |   ✓    |
 * | getTensor                                 |  ✓   |   ✓     |                |        |
 * | getEvalTensor                             |      |   ✓     |                |   ✓    |
 * | resizeTensor, declareShapeBound           |      |   ✓     |                |        |
 * | setActualShape                            |      |         |                |   ✓    |
 * | getExecutionPlan / getNodeAndRegistration |      | ✓ (delegate prepare only)|  |        |
 * | replaceNodeSubsetsWithDelegateKernels     |      | ✓ (delegate prepare only)|  |        |
 * | getSubgraphInput / getSubgraphOutput      |      |   ✓     |                |   ✓    |
 * | invokeSubgraph                            |      |         |                |   ✓    |
 * | resizeSubgraphInput, prepareSubgraph      |      |   ✓     |                |        |
 * | getResourceVariables                      |      |   ✓     |                |   ✓    |
 * | absorbPad                                 |      |   ✓     |                |        |
 * | reportError, getExternalContext           | any  |  any    |  any           |  any   |
 * | numSubgraphs, numSubgraphInputs/Outputs, currentSubgraph | any | any | any    |  any   |
 * | subgraphBuiltinCodes                      | any  |  any    |  any           |  any   |
 */
export enum Phase {
  /** Before allocateTensors() or after dispose: no callback but reportError is allowed. */
  Idle = 'idle',
  Init = 'init',
  Prepare = 'prepare',
  MemoryPlanning = 'memoryPlanning',
  Invoke = 'invoke',
}

/**
 * A node of the execution plan (TfLiteNode). Index arrays hold tensor indices; -1 marks an omitted
 * optional tensor.
 */
export interface Node {
  /** Position of the node in the subgraph's operator list (or the delegate node's own index). */
  readonly index: number;
  readonly inputs: Int32Array;
  readonly outputs: Int32Array;
  readonly intermediates: Int32Array;
  /** Temporaries (unused by TFLM kernels, kept for API parity). */
  readonly temporaries: Int32Array;
  /** Parsed builtin options (see options.ts): `builtin_options`, else `builtin_options_2` (the StableHLO ops), or null. */
  readonly builtinData: BuiltinOptions | BuiltinOptions2 | null;
  /** Custom options bytes for custom ops, or null. */
  readonly customInitialData: Uint8Array | null;
  /** Whatever the registration's `init` returned (the kernel's op data). */
  userData: unknown;
  /** For delegate kernels: the delegate that owns this node. */
  delegate?: unknown;
}

/**
 * A kernel (TfLiteRegistration / TFLMRegistration). Kernels throw (preferably `KernelError`) to fail.
 *
 * Lifecycle, per node: `init` once at allocateTensors (phase init) → `prepare` (phase prepare: validate
 * everything, request scratch, allocate persistent op data) → `invoke` per inference (phase invoke:
 * must not allocate, must not validate again) → `reset` on interpreter reset → `free` on dispose.
 */
export interface Registration<OpData = unknown> {
  /** BuiltinOperator code, or BuiltinOperator.CUSTOM for custom ops. */
  readonly builtinCode: number;
  /** Custom op name (for builtinCode CUSTOM). */
  readonly customName?: string;
  /** Highest op version this kernel handles; the resolver treats it as "versions 1..version". */
  readonly version?: number;
  /** The package that provides this kernel (shown by inspection), e.g. `@micrort/ops-reference`. */
  readonly provider?: string;
  /** Human-readable kernel name, e.g. `CONV_2D` or `CONV_2D/int8-1x1`. Defaults to the op name. */
  readonly name?: string;

  /**
   * Whether this kernel handles this node (types, shapes, options). Called before `init` in phase init,
   * where `context.getTensor` is available. Returns `true` to accept; to decline, returns a short reason
   * naming what is not handled (e.g. `"uint8 input (handles int8, int16)"`) — or `false`, which declines
   * without one. When it declines, the resolver falls back to the next provider registered for the same
   * op, and the reason is shown when no provider accepts. Absent means "handles every variant".
   */
  supports?(context: TfLiteContext, node: Node): boolean | string;

  /**
   * True when this kernel reads its inputs' dims at invoke (not only in prepare), so it can consume a
   * tensor whose shape depends on data (one its producer bounded with `context.declareShapeBound`: its
   * `dims` change at every invoke, within `upperBound`). Absent or false: such a node goes to the next
   * provider registered for the op that declares this and whose `supports()` accepts it (core asks
   * before the node prepares, when the producer's bound is known; this kernel is freed and recorded as
   * declining); when none does, the node fails in prepare with `DataDependentShapeError` naming the
   * tensor, before its prepare runs — a kernel that sized its loops in prepare would otherwise read the
   * whole bound.
   */
  readonly dynamicInputShapes?: boolean;

  /**
   * True when `invoke` can only address tensors that live in the arena's backing memory — a WebAssembly
   * kernel reads and writes tensors by their byte offset in its module's memory — so it cannot run on a
   * tensor bound to any other buffer. Core evaluates shape arithmetic during prepare (constant folding,
   * see `FOLDABLE_OPS`) on buffers outside the arena, so it never folds with such a kernel: before a node
   * whose inputs are all constants prepares, the providers registered after this kernel for the node's
   * op are asked in order, and the first that does not declare this and whose `supports()` accepts the
   * node serves it (this kernel is freed and recorded as declining, with the reason). When none does,
   * the node keeps this kernel and is not folded: it runs at invoke on arena tensors.
   */
  readonly arenaResident?: boolean;

  /** `initData` is the node's builtin options, its custom options bytes, or delegate parameters. */
  init?(context: TfLiteContext, initData: unknown): OpData;
  free?(context: TfLiteContext, opData: OpData): void;
  prepare?(context: TfLiteContext, node: Node): void;
  invoke(context: TfLiteContext, node: Node): void;
  reset?(context: TfLiteContext, opData: OpData): void;

  /**
   * Optional, for in-place planning (interpreter option `inPlace: true`): which inputs of this node
   * output 0 may share memory with. Called right after this node's `prepare` (phase prepare, so
   * `context.getTensor` works and shapes are final). Returns positions in `node.inputs` (not tensor
   * indices), in order of preference, or null / an empty array when the kernel cannot run in place.
   *
   * Only declare an input when `invoke` stays correct with the output aliasing it byte for byte: same
   * element width and element count, and every output element `i` written only after the last read of
   * input element `i` and without reading input elements `< i` afterwards (elementwise loops, LUT
   * activations, a copy that skips itself). The allocator decides whether the pair is actually shared
   * (the input must die at this node, must not be a graph input/output, constant or variable, and must
   * have the output's aligned size).
   */
  inPlace?(context: TfLiteContext, node: Node): number | readonly number[] | null;

  /**
   * Optional, for the in-place schedules (`createSchedule('inplace' | 'patch+inplace')`, @micrort/schedules): the kernel has a
   * variant that writes output 0 over the buffer of one input, using a small temporary instead of a
   * whole separate output — e.g. DEPTHWISE_CONV_2D computing one channel at a time into a one-channel
   * scratch buffer, then storing it where that channel's input was. Called in phase prepare, before or
   * after this node's `prepare`: the answer must depend only on the node's tensors (types, shapes) and
   * options. Returns null when this node cannot run that way.
   *
   * Only declare what the variant guarantees: output 0 starts at the input's first byte (its bytes may
   * be fewer than the input's, a prefix, or more), and every input byte is read before the variant
   * overwrites it. The allocator grants the variant (`useInPlaceVariant`) only when the input dies at
   * this node and is a planned tensor that is neither a graph input nor output; the planner may still
   * place the output elsewhere, so the variant must also be correct when the two buffers are apart.
   */
  inPlaceVariant?(context: TfLiteContext, node: Node): InPlaceVariant | null;
  /**
   * Called in phase prepare, right after this node's `prepare`, when the allocator granted the in-place
   * variant declared by `inPlaceVariant`: the kernel requests the scratch buffer it declared and runs
   * the variant from then on.
   */
  useInPlaceVariant?(context: TfLiteContext, node: Node): void;

  /**
   * Optional, for schedules that run a node on windows of its tensors (the patch schedule of
   * `@micrort/schedules`): what this kernel does spatially — how each pixel of its NHWC output 0
   * depends on its inputs' pixels (see SpatialBehaviour). Called in phase prepare before this node's
   * `prepare`, with the model's shapes (`context.getTensor` works); the answer must depend only on the
   * node's tensors and options. Returns a short reason when this node has no such behaviour. Absent:
   * the node never runs on windows. The kernel states facts of its op; the schedule decides whether
   * the node can run tile by tile (ranks, types, constants, geometry).
   */
  spatial?(context: TfLiteContext, node: Node): SpatialBehaviour | string;
}

/** What a kernel does spatially (see `Registration.spatial`). */
export type SpatialBehaviour = SpatialWindow | SpatialPad | SpatialPointwise;

/**
 * Output pixel (y, x) reads a `kernelH × kernelW` window of input `input` (strided, dilated, padded as
 * TFLite computes for the whole tensor): convolutions and pools. Every other input must be a constant.
 */
export interface SpatialWindow {
  kind: 'window';
  /** Position in `node.inputs` of the input read through the window. */
  input: number;
  kernelH: number;
  kernelW: number;
  strideH: number;
  strideW: number;
  dilationH: number;
  dilationW: number;
  padding: Padding;
  /**
   * The value a padded tap stands for: a tile filled with it outside the image gives exactly the
   * kernel's output (TFLM's int8 convolutions add `filter × (input − zero point)` and skip padded
   * taps: the input zero point; float: 0; MAX_POOL_2D starts from the type's lowest value). When no
   * value does, why, completing "<op> with padding …" (AVERAGE_POOL_2D: `averages over the in-image
   * taps only`).
   */
  padValue: number | string;
  /** Multiply-accumulates per output element. */
  macsPerOutput: number;
}

/**
 * A PAD: output pixel (y, x) is input `input`'s pixel (y − top, x − left), or `value` outside it. The
 * paddings are constants of the node (e.g. PAD's paddings tensor).
 */
export interface SpatialPad {
  kind: 'pad';
  input: number;
  /** Padding before and after each NHWC axis: `[batchBefore, batchAfter, top, bottom, left, right, channelsBefore, channelsAfter]`. */
  paddings: readonly number[];
  /** The value written outside the input, in the tensor's element type. */
  value: number;
}

/**
 * Output element i reads element i of every input (activations, elementwise arithmetic); a constant
 * input may be broadcast.
 */
export interface SpatialPointwise {
  kind: 'pointwise';
}

/** What a kernel's in-place variant needs (see `Registration.inPlaceVariant`). */
export interface InPlaceVariant {
  /** Position in `node.inputs` of the input whose buffer output 0 overwrites. */
  input: number;
  /** Bytes of the scratch buffer the variant requests in `useInPlaceVariant` (0 for none). */
  scratchBytes: number;
}

/**
 * A model's resource variables (TFLM's MicroResourceVariables), shared by every subgraph: a fixed
 * number of slots, each a (container, shared name) pair with a buffer allocated persistently in the
 * arena the first time an ASSIGN_VARIABLE is prepared for it. The interpreter creates them when the
 * model has a VAR_HANDLE (interpreter option `resourceVariables` sets the slot count, default 64).
 *
 * Kernels reach it through `context.getResourceVariables()`. Errors (unknown id, no buffer yet, a byte
 * count that differs from the variable's) are thrown as `MicrortError`; the interpreter attributes them
 * to the node.
 */
export interface ResourceVariables {
  /** Number of slots. */
  readonly capacity: number;
  /** Slots in use. */
  readonly count: number;
  /**
   * The id of the variable named (`container`, `sharedName`), creating it when there is none (TFLM
   * CreateIdIfNoneFound; a null container matches any container). Returns -1 when every slot is taken.
   * Prepare only.
   */
  createIdIfNoneFound(container: string | null, sharedName: string | null): number;
  /**
   * Gives variable `id` its buffer on first use, sized and typed like `tensor` and filled with
   * `tensor`'s zero point (int8 cast, as TFLM's memset) or 0 (TFLM Allocate). A variable that already
   * has a buffer keeps it; a later tensor of another byte size is an error. Prepare only.
   */
  allocate(id: number, context: TfLiteContext, tensor: Tensor): void;
  /** Copies `value`'s bytes into variable `id` (its byte length must be the variable's). */
  assign(id: number, value: EvalTensor): void;
  /** Copies variable `id` into `out` (its byte length must be the variable's). */
  read(id: number, out: EvalTensor): void;
  /** Refills every allocated variable with its default value (interpreter reset()). */
  resetAll(): void;
}

/** A node together with the registration serving it. */
export interface NodeAndRegistration {
  node: Node;
  registration: Registration;
}

/** Parameters a delegate kernel's `init` receives for its subset (TfLiteDelegateParams). */
export interface DelegateParams {
  delegate: unknown;
  /** Original node indices replaced by this delegate node, in execution order. */
  nodesToReplace: Int32Array;
  /** Tensors the subset reads and does not produce: graph inputs, other nodes' outputs and constants (as TFLite). */
  inputTensors: Int32Array;
  /** Tensors produced in the subset and used outside it (or model outputs). */
  outputTensors: Int32Array;
}

/**
 * How tensor shapes are decided in an allocation (interpreter option `shapes`): `'computed'` (default,
 * TFLite's rule) — each kernel's prepare gives its outputs the shapes it computes from its inputs', over
 * the file's; `'file'` (TFLM's rule) — the file's shapes are final. See `TfLiteContext.resizeTensor`.
 */
export type ShapeRule = 'computed' | 'file';

/**
 * The callback table between the framework and its kernels (TfLiteContext + MicroContext). See
 * `Phase` for which callback is allowed when.
 */
export interface TfLiteContext {
  /** Current phase. */
  readonly phase: Phase;
  /**
   * The allocation's shape rule. Under `'file'`, a kernel whose TFLM counterpart reads an output's size
   * from the output tensor instead of checking it (TFLM's pooling takes the output height and width
   * there) keeps the file's; every other kernel states its computed shapes as always (`resizeTensor`
   * then refuses a different one).
   */
  readonly shapeRule: ShapeRule;
  /** Number of tensors in the current subgraph. */
  readonly tensorsSize: number;

  /** Allocates `bytes` of persistent memory in the arena tail (16-byte aligned); lives until dispose. */
  allocatePersistentBuffer(bytes: number): ArenaRegion;
  /** Requests `bytes` of scratch memory for the node being prepared; returns its index. */
  requestScratchBufferInArena(bytes: number): number;
  /** The scratch buffer with this index (valid in invoke; same object every call). */
  getScratchBuffer(index: number): ArenaRegion;
  /** The full tensor (type, dims, quantization, allocation) for prepare-time checks. */
  getTensor(index: number): Tensor;
  /** The eval tensor (type, dims, data) for invoke. */
  getEvalTensor(index: number): EvalTensor;

  // --- shapes (TFLite's ResizeTensor; see docs/architecture.md, "Shapes") --------------------------------

  /**
   * Prepare only: output (or intermediate) `index` of the node being prepared has shape `dims`, which the
   * kernel computed from its inputs' shapes and options (TFLite's `context->ResizeTensor` in Prepare).
   * Nodes prepare in execution order, so every consumer prepared later sees these dims, and memory
   * planning sizes the tensor from them. Kernels call it through kernel-support's `setOutputShape`.
   *
   * The file's shape is a hint: when it differs — an empty shape where the converter left the size to
   * TFLite's Prepare, placeholder 1s where `shape_signature` has -1, shapes made stale by
   * `resizeInputTensor` — the computed shape wins, as in TFLite, and `micrort check` lists the tensor as
   * inferred. With the interpreter option `shapes: 'file'` (TFLM's rule) the file's shape is final and
   * a different `dims` throws `TensorResizeError`. Also throws it for a constant or variable tensor whose
   * shape would change, a tensor that is not an output or intermediate of this node, a tensor already
   * bound (a persistent output), or dims that are not non-negative integers.
   */
  resizeTensor(index: number, dims: ArrayLike<number>): void;
  /**
   * Prepare only: output `index` of the node being prepared has a shape that depends on the data (WHERE,
   * UNIQUE, NON_MAX_SUPPRESSION with a runtime size, TOPK_V2 with a runtime k…); `maxDims` is the
   * largest shape prepare can prove, with the rank the output always has. The arena plans `maxDims`,
   * the tensor's `upperBound` keeps them, and its dims are `maxDims` until the first invoke. At every
   * invoke the kernel then states the actual dims with `setActualShape` — no allocation: `data` stays
   * the view of the planned bytes and only `dims` change. A consumer reads the actual dims at invoke
   * and must declare so (`Registration.dynamicInputShapes`); graph outputs are read the same way
   * (`interpreter.output(j).dims`, values in the first `elementCount` elements of `data`).
   * When no bound can be proved, the kernel throws kernel-support's `UnboundedShapeError` naming the
   * tensor instead. Same checks as `resizeTensor`.
   */
  declareShapeBound(index: number, maxDims: ArrayLike<number>): void;
  /**
   * Invoke only: the actual dims of data-dependent output `index` for this invoke, written into the
   * tensor's `dims` in place (same rank as the bound, each dimension at most the bound's). Allocates
   * nothing: pass an `Int32Array` the kernel keeps in its op data. Throws `TensorResizeError` for a
   * tensor without a bound, another rank or a dimension over the bound.
   */
  setActualShape(index: number, dims: ArrayLike<number>): void;
  /** Records an error message (also available from the interpreter's error log). */
  reportError(message: string): void;
  /** An external context registered on the interpreter (e.g. a GPU device handle), or undefined. */
  getExternalContext(key: string): unknown;

  /** Delegates only: the node indices of the execution plan, in order. */
  getExecutionPlan(): Int32Array;
  /** Delegates only: a node and its registration. */
  getNodeAndRegistration(nodeIndex: number): NodeAndRegistration;
  /**
   * Delegates only: partitions the plan into independent subsets and replaces each subset made of
   * `nodesToReplace` with one node served by `registration` (whose init receives `DelegateParams`).
   */
  replaceNodeSubsetsWithDelegateKernels(registration: Registration, nodesToReplace: ArrayLike<number>, delegate: unknown): void;

  // --- subgraphs (TFLM's MicroGraph), for control-flow kernels ------------------------------------------

  /**
   * The subgraph whose node is being initialized, prepared or invoked. `getTensor`, `getEvalTensor`
   * and `tensorsSize` refer to this subgraph's tensors.
   */
  readonly currentSubgraph: number;
  /** Number of subgraphs of the model (TFLM NumSubgraphs). */
  numSubgraphs(): number;
  /** Number of inputs of subgraph `subgraph` (TFLM NumSubgraphInputs); MicrortError when it does not exist. */
  numSubgraphInputs(subgraph: number): number;
  /** Number of outputs of subgraph `subgraph` (TFLM NumSubgraphOutputs). */
  numSubgraphOutputs(subgraph: number): number;
  /**
   * The builtin operator codes of subgraph `subgraph`'s operators, in execution order (the model's
   * operators, before any delegation). LiteRT's STABLEHLO_SCATTER and STABLEHLO_REDUCE_WINDOW read their
   * region's single operator this way to know the computation. MicrortError when it does not exist.
   */
  subgraphBuiltinCodes(subgraph: number): readonly number[];
  /**
   * Input `i` of subgraph `subgraph` (TFLM GetSubgraphInput): type and dims in prepare, data bound in
   * invoke. Write it before `invokeSubgraph`.
   */
  getSubgraphInput(subgraph: number, i: number): EvalTensor;
  /** Output `i` of subgraph `subgraph` (TFLM GetSubgraphOutput); read it after `invokeSubgraph`. */
  getSubgraphOutput(subgraph: number, i: number): EvalTensor;
  /**
   * Runs every node of subgraph `subgraph` once (TFLM InvokeSubgraph), then returns to the calling
   * node. Invoke only, and only for a subgraph the calling node plans for: IF (then/else), WHILE
   * (cond/body), CALL_ONCE (init) — their tensors are planned around that node (TFLM's
   * MarkSubgraphLifetimesIfNecessary). A failing node inside throws, naming that node and subgraph.
   */
  invokeSubgraph(subgraph: number): void;
  /**
   * Prepare only, for a control-flow kernel (IF, WHILE, STABLEHLO_COMPOSITE, STABLEHLO_CASE…): input
   * `i` of subgraph `subgraph`, which the node being prepared invokes, gets the shape `dims` — TFLite's
   * `ResizeInputTensor` on a called subgraph in the kernel's Prepare. Call it before that subgraph
   * prepares (then `prepareSubgraph`): its kernels infer their shapes from `dims` and the arena plans
   * those sizes, so invoke still allocates nothing.
   *
   * A called subgraph is planned once per allocation, so every caller must agree on its input shapes.
   * Each call records the caller's claim, also when `dims` are the stored shape (a no-op then, TFLM's
   * behaviour). Throws `SubgraphShapeError` (naming the subgraph, input, tensor and both shapes) when
   * another caller or call site claimed other dims for that input, or when the subgraph already
   * prepared at other dims (it precedes the caller, or another caller prepared it). Throws
   * `TensorResizeError` under the shape rule `'file'` when `dims` differ from the file's (TFLM keeps
   * them), for a constant or variable input, or for dims that are not non-negative integers;
   * MicrortError for a subgraph this node does not invoke or an input index out of range.
   */
  resizeSubgraphInput(subgraph: number, i: number, dims: ArrayLike<number>): void;
  /**
   * Prepare only: prepares subgraph `subgraph` (which the node being prepared invokes) now, nested in
   * this node's prepare, instead of later in model order — so the caller can read the outputs' computed
   * shapes with `getSubgraphOutput` and state its own outputs from them (TFLite's IF, WHILE and
   * LiteRT's STABLEHLO_COMPOSITE call `AllocateTensors` on the subgraph in Prepare). A subgraph prepares
   * once per allocation: when it already prepared (or is preparing, a recursive call), this returns at
   * once. Node failures inside are collected as at any other node. Temporary allocations of the caller
   * are reset by the nested prepares, so call it before requesting any. MicrortError for a subgraph
   * this node does not invoke.
   */
  prepareSubgraph(subgraph: number): void;
  /** The model's resource variables, or null when the interpreter has none (prepare and invoke). */
  getResourceVariables(): ResourceVariables | null;

  /**
   * Prepare only, for a kernel that implements explicit zero padding (a convolution with VALID padding
   * whose taps outside its input read the input zero point, 0.0 for float32): asks to read input
   * `inputSlot` of `node` — the node being prepared — straight from the tensor a PAD (or PADV2) copies,
   * with that PAD's height and width padding folded into the kernel's window. Call it before anything
   * else depends on which tensor the slot names (before `constantInputCopies`-like reads of it), once
   * the kernel knows it serves the node.
   *
   * Succeeds only when every condition holds; otherwise returns null and changes nothing:
   * - the input is the single output of a PAD / PADV2 node of the same subgraph that prepared earlier,
   *   is not folded, not delegated and not already absorbed, and the allocation has no schedule (a
   *   schedule may rewrite or tile the PAD) and no offline memory plan for the subgraph (its offsets
   *   assume the PAD's source dies at the PAD);
   * - the padded tensor is read by no other node (nor twice by this one), is not a subgraph output, not
   *   a variable, not bound or bounded, and has the type and quantization (scale, zero point) of the
   *   PAD's source;
   * - the paddings are a constant (model data or folded) int32 / int64 `[4, 2]` tensor of a rank-4
   *   NHWC input, padding only dimensions 1 and 2 (height, width), each amount >= 0;
   * - the value written outside is the zero point for int8 / uint8 / int16 (PAD's implicit value;
   *   PADV2's `constant_values` must be a constant equal to it) and +0.0 for float32;
   * - `accept`, when given, returns true for the paddings (a kernel path that cannot take them declines).
   *
   * On success `node.inputs[inputSlot]` becomes the PAD's source tensor (so `getTensor` /
   * `getEvalTensor` of the slot read it, at its own shape), and the PAD is absorbed: it does not run at
   * invoke and reads and writes nothing on the planning timeline (as a folded node), so the padded
   * tensor is never planned and the source lives until this node. Reports show the PAD as absorbed into
   * this node (`NodeInfo.absorbedInto`). When this node's prepare fails afterwards, the absorption is
   * undone. The kernel then computes as if the padded tensor were its input: `top` / `left` are its
   * leading padding, `bottom` / `right` follow from its output size.
   */
  absorbPad(node: Node, inputSlot: number, accept?: (pad: AbsorbedPad) => boolean): AbsorbedPad | null;
}

/** The PAD a kernel absorbed (see `TfLiteContext.absorbPad`). */
export interface AbsorbedPad {
  /** The PAD's source tensor, now read by the node's input slot. */
  source: number;
  /** The padded tensor the slot named before (no longer planned). */
  padded: number;
  /** The PAD node (its index in the subgraph's operators). */
  padNode: number;
  /** Rows added above / below and columns added left / right of the source. */
  top: number;
  bottom: number;
  left: number;
  right: number;
}
