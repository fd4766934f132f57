/**
 * Values computed from one version of a document (its citation model, its lint results), kept for
 * a bounded number of documents: the least recently used goes first, and the editor side also
 * forgets a document when it is closed or its file deleted. Pure (no vscode); keys are URI strings.
 */
/** True when the URI string `k` is `key` itself or lies under it (`key` + `/`…: a folder's contents). */
export function isAtOrUnder(k: string, key: string): boolean {
  return k === key || k.startsWith(key.endsWith('/') ? key : `${key}/`);
}

export class DocumentCache<T> {
  private readonly entries = new Map<string, { version: number; value: T }>();

  /** @param limit the most documents kept (at least 1). */
  constructor(readonly limit = 100) {
    if (!(limit >= 1)) throw new RangeError(`limit must be at least 1, got ${limit}`);
  }

  /** The value computed for `version` of the document, if it is the one kept (it becomes the most recent). */
  get(key: string, version: number): T | undefined {
    const hit = this.entries.get(key);
    if (!hit || hit.version !== version) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` for `version` of the document (replacing an older one); drops the least recent beyond the limit. */
  set(key: string, version: number, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    while (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Whether anything is kept for the document (any version). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Forgets the document; true when something was kept. */
  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  /** Forgets the document `key` and every document under it (`key` + `/`…: a deleted folder); returns how many. */
  deleteUnder(key: string): number {
    let n = 0;
    for (const k of [...this.entries.keys()])
      if (isAtOrUnder(k, key)) {
        this.entries.delete(k);
        n++;
      }
    return n;
  }

  /** How many documents are kept. */
  get size(): number {
    return this.entries.size;
  }
}
