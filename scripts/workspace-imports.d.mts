/** See workspace-imports.mjs. */
export const ROOT: string;
export function workspacePackages(): string[];
export function packageOf(spec: string): string | null;
export function undeclaredImports(dir: string): { file: string; name: string }[];
