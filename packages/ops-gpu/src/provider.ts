/** Package name, used as the `provider` field of the GPU delegate's kernel. */
export const PROVIDER = '@micrort/ops-gpu';
