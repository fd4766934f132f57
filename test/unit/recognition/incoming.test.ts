/**
 * The webview's side of a picture travelling in parts (src/webview/recognition/incoming.ts): the
 * stream a decoder reads gives the parts already in and then the others as they come; a part out
 * of order, a wrong total or a cancel ends it with an error instead of a truncated picture.
 */
import * as assert from 'node:assert/strict';
import { Incoming } from '../../../src/webview/recognition/incoming';

async function read(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out.push(...chunk);
  return out;
}

describe('recognition: a picture arriving in parts (webview)', () => {
  it('a stream opened before the last part gives every byte in order; all the parts once complete', async () => {
    const incoming = new Incoming(1, 3, 5);
    incoming.add(0, new Uint8Array([1, 2]));
    const stream = read(incoming.stream());
    incoming.add(1, new Uint8Array([3, 4]).buffer); // a part may come as its buffer
    incoming.add(2, new Uint8Array([5]));
    assert.deepEqual(await stream, [1, 2, 3, 4, 5]);
    assert.deepEqual(
      (await incoming.complete).map((p) => [...p]),
      [[1, 2], [3, 4], [5]],
    );
    // A stream opened afterwards gives the same bytes.
    assert.deepEqual(await read(incoming.stream()), [1, 2, 3, 4, 5]);
  });

  it('a part out of order, bytes that do not add up, or a cancel: the stream and the parts fail', async () => {
    const skipped = new Incoming(1, 2, 2);
    const stream = read(skipped.stream());
    skipped.add(1, new Uint8Array([9]));
    await assert.rejects(stream, /part 1 of the picture came instead of part 0/);
    await assert.rejects(skipped.complete, /part 1/);

    const short = new Incoming(1, 1, 4);
    short.add(0, new Uint8Array([1, 2, 3]));
    await assert.rejects(short.complete, /3 bytes, not 4/);

    const cancelled = new Incoming(1, 2, 2);
    cancelled.add(0, new Uint8Array([1]));
    const reading = read(cancelled.stream());
    cancelled.fail(new Error('cancelled'));
    await assert.rejects(reading, /cancelled/);
    cancelled.add(1, new Uint8Array([2])); // late parts are ignored
    await assert.rejects(cancelled.complete, /cancelled/);

    const notBytes = new Incoming(1, 1, 1);
    notBytes.add(0, 'AA==');
    await assert.rejects(notBytes.complete, /arrived as \[object String\], not as bytes/);
  });

  it('a decoder that gives up (cancels its stream) does not stop the parts: they complete for the full-size decode', async () => {
    const incoming = new Incoming(1, 2, 3);
    incoming.add(0, new Uint8Array([1, 2]));
    const reader = incoming.stream().getReader();
    assert.deepEqual([...((await reader.read()).value ?? [])], [1, 2]);
    await reader.cancel();
    incoming.add(1, new Uint8Array([3]));
    assert.deepEqual(
      (await incoming.complete).map((p) => [...p]),
      [[1, 2], [3]],
    );
  });

  it('no parts: complete at once (the decoder then says there is no picture)', async () => {
    assert.deepEqual(await new Incoming(1, 0, 0).complete, []);
    assert.deepEqual(await read(new Incoming(1, 0, 0).stream()), []);
  });
});
