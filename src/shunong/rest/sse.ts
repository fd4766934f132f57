/**
 * The `data` payloads of a body's SSE events, parsed by `eventsource-parser` (the parser the MCP
 * SDK already brings). Only `data:` matters for chat completions: several `data:` lines of one
 * event come joined with `\n`; comments, `event:`, `id:`, `retry:` and unknown fields are ignored.
 */
import { createParser } from 'eventsource-parser';

/** Reads the `data` payloads of the SSE events of a body, in order. */
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder();
  const events: string[] = [];
  const parser = createParser({ onEvent: (e) => events.push(e.data) });
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      // The parser holds back a CR at the end of what it was fed (it may be the first half of a
      // CRLF); at the end of the body that CR ends its line, and one more LF says so. A last event
      // without its blank line is still not dispatched, as the SSE spec says.
      parser.feed(done ? `${decoder.decode()}\n` : decoder.decode(value, { stream: true }));
      yield* events.splice(0);
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
