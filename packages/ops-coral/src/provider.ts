/** Package name, used as the `provider` field of every kernel here. */
export const PROVIDER = '@micrort/ops-coral';
