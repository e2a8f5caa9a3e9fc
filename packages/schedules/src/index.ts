/**
 * @micrort/schedules — execution schedules, chosen per deployment like a planner and plugged into
 * allocateTensors through core's schedule hook (`InterpreterOptions.schedule`): kernels' in-place
 * variants and patch-based execution of the first stage of spatial operators (tiles with halos). Every
 * schedule gives the normal schedule's output bytes; they differ in which buffers are live when.
 * Kernels tell the patch schedule what they do spatially through `Registration.spatial`.
 */
export { createSchedule, scheduleReport } from './create-schedule.js';
export {
  DEFAULT_RECOMPUTE_BUDGET,
  SCHEDULE_NAMES,
  ScheduleError,
  isScheduleName,
  resolveSchedule,
  type FixedStage,
  type ResolvedSchedule,
  type ScheduleName,
  type ScheduleOptions,
} from './schedule-options.js';
export {
  ScheduleSession,
  type InPlaceNodeInfo,
  type PatchBufferInfo,
  type PatchDecision,
  type PatchReport,
  type ScheduleReport,
} from './schedule-run.js';
export { PatchStage, SCHEDULE_PROVIDER } from './patch-stage.js';
export {
  describeSpatialOp,
  constantNodes,
  nodeMacs,
  type SpatialOp,
  type WindowOp,
  type PadOp,
  type ElementwiseOp,
  type AxisWindow,
} from './spatial-ops.js';
export {
  stageGeometry,
  tileLiveBytes,
  type StageGeometry,
  type StageGraph,
  type StageNode,
  type TileBuffer,
  type TileStep,
  type AxisTile,
  type FillRule,
} from './patch-geometry.js';
export {
  searchPatchStage,
  normalLiveBytes,
  type SearchInput,
  type SearchResult,
  type SearchStep,
  type StageChoice,
} from './patch-search.js';
