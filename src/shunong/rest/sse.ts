/**
 * Our own SSE line reader (no dependency): bytes → UTF-8 text → lines (LF, CRLF or CR) → events.
 * Only `data:` lines matter for chat completions; several `data:` lines of one event are joined with
 * `\n`; comments (`:`) and other fields are ignored; an event ends at a blank line.
 */

/** Reads the `data` payloads of the SSE events of a body, in order. */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let data: string[] = [];
  let sawCr = false;
  const lineOut = function* (line: string): Generator<string> {
    if (line === '') {
      if (data.length > 0) yield data.join('\n');
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
  };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const ch = buffer.charCodeAt(i);
        if (ch === 0x0a && sawCr) {
          // the LF of a CRLF already ended the line at the CR
          sawCr = false;
          start = i + 1;
          continue;
        }
        sawCr = false;
        if (ch === 0x0a || ch === 0x0d) {
          yield* lineOut(buffer.slice(start, i));
          sawCr = ch === 0x0d;
          start = i + 1;
        }
      }
      buffer = buffer.slice(start);
      if (done) break;
    }
    // A final event without its terminating blank line is not dispatched (as the SSE spec says).
  } finally {
    reader.releaseLock();
  }
}
