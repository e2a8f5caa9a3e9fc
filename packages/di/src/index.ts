/**
 * @micrort/di — micrort on a DI container: injection tokens and `createInterpreterFromContainer`, an
 * optional layer over core's `composeRuntime()` (core itself depends on no container).
 */
export * from './tokens.js';
export * from './container.js';
