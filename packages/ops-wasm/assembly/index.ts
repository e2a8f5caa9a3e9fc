// @micrort/ops-wasm kernels: the module's exports. Every kernel takes byte offsets into the imported
// memory (the interpreter's arena): a parameter block the TypeScript side wrote at prepare, then the
// tensors. The module has no data segment, no globals and no allocator, so the whole memory is the
// arena (see src/wasm-module.ts). int8 kernels live in int8/, float32 kernels in float/, type-agnostic
// data movement (PAD, CONCATENATION, GATHER, MIRROR_PAD) in layout/, int16 elementwise ones (LOGISTIC, TANH) in int16/.
export { qs8_conv, qs8_conv_run } from './int8/conv';
export { windowBegin as window_begin } from './int8/window';
export { qs8_dwconv, qs8_dwconv_run } from './int8/depthwise-conv';
export { qs8_add, qs8_add_range } from './int8/add';
export { pad_bytes } from './layout/pad';
export { transpose_bytes } from './layout/transpose';
export { qs8_avgpool, qs8_maxpool } from './int8/pool';
export { qs8_mul } from './int8/mul';
export { qs8_bmm_run, qs16_bmm_run } from './int8/batch-matmul';
export { qs8_svdf } from './int8/svdf';
export { quantize_f32_s8, requantize_int, dequantize_s8_f32 } from './int8/quantize';
export { concat_bytes } from './layout/concat';
export { qs8_reduce } from './int8/reduce';
export { gather_bytes } from './layout/gather';
export { mirror_pad_bytes } from './layout/mirror-pad';
export { qs8_softmax, qu8_softmax } from './int8/softmax';
export { f32_conv, f32_conv_run } from './float/gemm';
export { f32_dwconv, f32_dwconv_run } from './float/depthwise-conv';
export { f32_tconv, f32_tconv_run } from './float/transpose-conv';
export { qs8_tconv_run } from './int8/transpose-conv';
export { qs16_tconv_run } from './int8/transpose-conv-16x8';
export { qs16_conv_run, qs16_dwconv_run, qs16_dw_expand } from './int8/conv-16x8';
export { f32_binary } from './float/binary';
export { f32_clamp, f32_sigmoid, f32_tanh, f32_hardswish, f32_math } from './float/unary';
export { f32_softmax } from './float/softmax';
export { f32_svdf } from './float/svdf';
export { f32_lstm_step } from './float/lstm';
export { f32_maxpool, f32_avgpool } from './float/pool';
export { f32_reduce } from './float/reduce';
export { f32_resize_bilinear } from './float/resize-bilinear';
export { qs8_resize_bilinear, qs16_resize_bilinear, qu8_resize_bilinear } from './int8/resize';
export { resize_nearest_bytes } from './layout/resize-nearest';
export { lut_bytes } from './layout/lut';
export { qs8_rsqrt } from './int8/rsqrt';
export { qs8_prelu } from './int8/prelu';
export { qs_squared_difference } from './int8/squared-difference';
export { qs16_logistic, qs16_tanh } from './int16/sigmoid';
export { hybrid_epilogue } from './hybrid/epilogue';
export { hybrid_quantize } from './hybrid/quantize';
export { hybrid_lstm_step } from './hybrid/lstm';
export { hybrid_svdf } from './hybrid/svdf';
export { qs8_lstm } from './int8/lstm';

import { ABI_HASH } from './generated/abi';

/** The hash of the ABI this module was built with (scripts/abi.mjs); the loader compares it with src/generated/abi.ts's. */
export function abi_hash(): i32 {
  return ABI_HASH;
}
