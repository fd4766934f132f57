/**
 * Lazy access to the platform bundle (`dist/platform.js`: src/shunong with the MCP SDK and zod).
 * It is required on first use, never at activation, so `dist/extension.js` stays small.
 */
import * as path from 'node:path';

export type Platform = typeof import('./shunong/index');

let cached: Platform | undefined;

/** Loads the platform bundle once (synchronously required from beside this bundle). */
export function loadPlatform(): Platform {
  if (!cached) {
    // A computed path keeps esbuild from inlining the platform into the activation bundle.
    const file = path.join(__dirname, 'platform.js');
    cached = require(file) as Platform;
  }
  return cached;
}

/** True once the platform bundle has been loaded (used by tests and the activation bench). */
export function isPlatformLoaded(): boolean {
  return cached !== undefined;
}
