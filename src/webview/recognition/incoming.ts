/** The bytes of a picture to shrink as their parts arrive (`shrinkPart` messages, ./shrink). */

/** A part as `postMessage` delivered it (a typed array, or its buffer). */
function asBytes(v: unknown): Uint8Array<ArrayBuffer> {
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v) && v.buffer instanceof ArrayBuffer)
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new Error(`the picture arrived as ${Object.prototype.toString.call(v)}, not as bytes`);
}

/**
 * The bytes of one delivery of a request, part by part: as a stream for a decoder that starts
 * before the last part is in, or all of them once they are.
 */
export class Incoming {
  private readonly parts: Uint8Array<ArrayBuffer>[] = [];
  private received = 0;
  private reader: ReadableStreamDefaultController<Uint8Array<ArrayBuffer>> | undefined;
  private ended: { error?: unknown } | undefined;
  private settle!: { done(parts: Uint8Array<ArrayBuffer>[]): void; fail(e: unknown): void };
  /** All the parts, once every one has arrived. */
  readonly complete = new Promise<Uint8Array<ArrayBuffer>[]>((done, fail) => (this.settle = { done, fail }));

  constructor(
    readonly delivery: number,
    private readonly count: number,
    private readonly byteLength: number,
  ) {
    this.complete.catch(() => undefined);
    if (count === 0) this.finish();
  }

  add(index: number, v: unknown): void {
    if (this.ended) return;
    try {
      if (index !== this.parts.length)
        throw new Error(`part ${index} of the picture came instead of part ${this.parts.length}`);
      const bytes = asBytes(v);
      this.parts.push(bytes);
      this.received += bytes.byteLength;
      this.reader?.enqueue(bytes);
      if (this.parts.length === this.count) this.finish();
    } catch (err) {
      this.fail(err);
    }
  }

  /** The bytes as a stream: the parts already in, then the others as they come. */
  stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    return new ReadableStream({
      start: (controller) => {
        for (const part of this.parts) controller.enqueue(part);
        if (this.ended?.error !== undefined) controller.error(this.ended.error);
        else if (this.ended) controller.close();
        else this.reader = controller;
      },
      // A decoder that gave up (closed) takes no more parts; the parts still come for `complete`.
      cancel: () => {
        this.reader = undefined;
      },
    });
  }

  fail(error: unknown): void {
    if (this.ended) return;
    this.ended = { error };
    this.reader?.error(error);
    this.settle.fail(error);
  }

  private finish(): void {
    if (this.received !== this.byteLength) {
      this.fail(new Error(`the picture arrived as ${this.received} bytes, not ${this.byteLength}`));
      return;
    }
    this.ended = {};
    this.reader?.close();
    this.settle.done(this.parts);
  }
}
