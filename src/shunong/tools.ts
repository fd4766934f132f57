/**
 * The client's tool list: kept in memory, loaded from and saved to the caller's {@link ToolListStore},
 * refreshed when the server says it changed, and used to resolve a tool name and drop the
 * arguments a tool does not declare.
 */
import { UnknownToolError } from './errors';
import { newRequestContext, type RequestContext } from './fetch';
import { resolveToolName } from './resolve';
import { ToolInfoSchema } from './schemas';
import type { Session } from './session';
import type { ToolInfo, ToolListStore } from './types';

/** The tool list of one client (one endpoint). */
export class ToolCatalog {
  private tools: ToolInfo[] | undefined;
  /** True when `tools` came from the server in this process (not only from the store). */
  private fresh = false;
  private storeLoaded = false;
  private refreshing: Promise<void> | undefined;
  private readonly listeners = new Set<(tools: ToolInfo[]) => void>();

  constructor(
    private readonly endpoint: string,
    private readonly store: ToolListStore | undefined,
    private readonly log: ((line: string) => void) | undefined,
    /** The SDK's timeout for a tools/list request. */
    private readonly listTimeoutMs: number,
  ) {}

  /** Asks the server on `s` and keeps (and saves) the answer. */
  async fetch(s: Session, ctx: RequestContext): Promise<ToolInfo[]> {
    const tools = await s.listTools(ctx, this.listTimeoutMs);
    this.set(tools);
    return tools;
  }

  /** The list in memory, else the stored one (read once); undefined when neither has one. */
  async cached(): Promise<ToolInfo[] | undefined> {
    if (this.tools) return this.tools;
    if (!this.storeLoaded && this.store) {
      this.storeLoaded = true;
      try {
        const loaded = await this.store.load(this.endpoint);
        const parsed = ToolInfoSchema.array().min(1).safeParse(loaded);
        if (parsed.success && !this.tools) this.tools = parsed.data as ToolInfo[];
      } catch (e) {
        this.log?.(`note: the tool list store failed to load: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return this.tools;
  }

  private set(tools: ToolInfo[]): void {
    const changed = JSON.stringify(tools) !== JSON.stringify(this.tools);
    this.tools = tools;
    this.fresh = true;
    if (!changed) return;
    const store = this.store;
    if (store) {
      Promise.resolve()
        .then(() => store.save(this.endpoint, tools))
        .catch((e: unknown) =>
          this.log?.(`note: the tool list store failed to save: ${e instanceof Error ? e.message : String(e)}`),
        );
    }
    for (const l of [...this.listeners]) {
      try {
        l(tools);
      } catch (e) {
        this.log?.(`note: a tool-list listener threw: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /** Subscribes to changes of the list; returns the unsubscribe function. */
  onDidChange(listener: (tools: ToolInfo[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The server said the list changed on the current session `s`: refresh it (one refresh at a time). */
  refreshFrom(s: Session): void {
    if (this.refreshing) return;
    this.log?.('note: the server says the tool list changed; refreshing');
    s.enter();
    this.refreshing = this.fetch(s, newRequestContext())
      .then(
        () => undefined,
        (e: unknown) =>
          this.log?.(`note: refreshing the tool list failed: ${e instanceof Error ? e.message : String(e)}`),
      )
      .finally(() => {
        s.leave();
        this.refreshing = undefined;
      });
  }

  /** The tool `name` resolves to; a list from a previous run is refreshed once before the name is called unknown. */
  async resolve(name: string, s: Session, ctx: RequestContext): Promise<ToolInfo> {
    const tools = (await this.cached()) ?? (await this.fetch(s, ctx));
    try {
      return pick(name, tools);
    } catch (e) {
      // A list from a previous run may be stale: ask the server once before calling the name unknown.
      if (!(e instanceof UnknownToolError) || this.fresh) throw e;
      return pick(name, await this.fetch(s, ctx));
    }
  }

  /** The tool's declared arguments only (undeclared ones are logged and not sent). */
  filterArgs(tool: ToolInfo, args: Record<string, unknown>): Record<string, unknown> {
    const props = tool.inputSchema.properties;
    const out: Record<string, unknown> = {};
    const dropped: string[] = [];
    for (const [k, v] of Object.entries(args)) {
      if (v === undefined) continue;
      if (props && !Object.prototype.hasOwnProperty.call(props, k)) dropped.push(k);
      else out[k] = v;
    }
    if (dropped.length)
      this.log?.(`note: ${tool.name} does not declare ${dropped.map((d) => `"${d}"`).join(', ')}; not sent`);
    return out;
  }
}

function pick(name: string, tools: ToolInfo[]): ToolInfo {
  const r = resolveToolName(
    name,
    tools.map((t) => t.name),
  );
  const tool = tools.find((t) => t.name === r.name);
  if (!tool)
    throw new UnknownToolError(
      name,
      [],
      tools.map((t) => t.name),
    );
  return tool;
}
