/** What every tool module exports. */
import type { z } from 'zod';

/** The context a tool runs in. */
export interface ToolContext {
  signal: AbortSignal;
  /** Reports progress when the caller asked for it (no-op otherwise). */
  progress(done: number, total: number, message?: string): Promise<void>;
}

/** A tool: its advertised name, description, zod input schema, vendor method name and implementation. */
export interface ToolDef<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  /** The method name used in `Error invoking method: <method>`. */
  method: string;
  schema: S;
  /** Returns the payload (serialized into content[0].text) or throws ToolFailure. */
  run(input: z.output<S>, ctx: ToolContext): Promise<unknown>;
}
