/** Package name, used as the `provider` field of every kernel of @micrort/ops-simd. */
export const PROVIDER = '@micrort/ops-simd';
