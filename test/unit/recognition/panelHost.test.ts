/**
 * The preview's host side with a fake webview: what a run posts and in which order (src/recognition/run.ts),
 * and the handshake, replay and annotated-picture requests (src/recognition/panelHost.ts).
 */
import * as assert from 'node:assert/strict';
import type { FlowOutcome, PreviewImage } from '../../../src/recognition/flow';
import { LOAD_MS, loadWait, PreviewHost, RELOADS, type ActionMessage } from '../../../src/recognition/panelHost';
import {
  SHRINK_PART_BYTES,
  type HostMessage,
  type ImageView,
  type ResultView,
  type ShrinkRequest,
} from '../../../src/recognition/protocol';
import { runPreview, type RunHost } from '../../../src/recognition/run';
import { ManualScheduler } from '../../support/manual-scheduler';
import type { Recognition } from '../../../src/recognition/types';

const INIT: HostMessage = {
  type: 'init',
  strings: {} as Extract<HostMessage, { type: 'init' }>['strings'],
  types: [],
};
const header = { run: 1, title: 'tea_buds.png', type: 'tea_count' as const, message: 'Recognizing…' };
const preview: PreviewImage = { bytes: new Uint8Array([1, 2, 3]), format: 'png', size: { width: 320, height: 240 } };
const image: ImageView = { src: 'https://file+.vscode-resource/ws/tea_buds.png', width: 320, height: 240 };
const result = { status: 'success', data: { detections: [] } } as unknown as Recognition;
const outcome: FlowOutcome = {
  result,
  type: 'tea_count',
  sentAs: 'base64',
  preview,
  original: { bytes: preview.bytes, format: 'png' },
  notes: [],
};

/** A deferred promise. */
function deferred<T>(): { promise: Promise<T>; resolve(v: T): void; reject(e: unknown): void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}

/** A run host posting into `posted`; `latest` says whether the run is still the panel's latest. */
function host(posted: HostMessage[], over: Partial<RunHost<string>> = {}): RunHost<string> & { latest: boolean } {
  const h: RunHost<string> & { latest: boolean } = {
    latest: true,
    post: (m: HostMessage) => posted.push(m),
    isLatest: () => h.latest,
    recognize: async (onPreview: (p: PreviewImage, asGiven: boolean) => void) => {
      onPreview(preview, true);
      await new Promise((r) => setImmediate(r));
      return outcome;
    },
    picture: async () => image,
    done: (_o: FlowOutcome, img: ImageView | undefined) => ({
      view: { run: 1, title: header.title, image: img, boxes: [] } as unknown as ResultView,
      answer: 'summary',
    }),
    failure: (err: unknown) => ({ message: String(err), cancelled: false, retryable: true }),
    ...over,
  };
  return h;
}

describe('recognition preview: what a run posts', () => {
  it('loading, loading again with the picture while the platform works, then the result with that picture', async () => {
    const posted: HostMessage[] = [];
    const end = await runPreview(header, host(posted));
    assert.deepEqual(end, { status: 'done', answer: 'summary' });
    assert.deepEqual(
      posted.map((m) => m.type),
      ['loading', 'loading', 'result'],
    );
    const [first, second, last] = posted;
    assert.equal(first?.type === 'loading' && first.image, undefined, 'the first loading has no picture yet');
    assert.deepEqual(second?.type === 'loading' && second.image, image);
    assert.equal(second?.type === 'loading' && second.run, 1);
    assert.deepEqual(last?.type === 'result' && last.view.image, image, 'the result shows the picture sent');
  });

  it('without a picture before the answer (a URL recognised as is), the result still brings its picture', async () => {
    const posted: HostMessage[] = [];
    const asked: boolean[] = [];
    await runPreview(
      header,
      host(posted, {
        recognize: async () => outcome,
        picture: async (_p, asGiven) => {
          asked.push(asGiven);
          return image;
        },
      }),
    );
    assert.deepEqual(
      posted.map((m) => m.type),
      ['loading', 'result'],
    );
    assert.deepEqual(asked, [false]);
    assert.deepEqual(posted[1]?.type === 'result' && posted[1].view.image, image);
  });

  it('a picture ready only after the run failed is not posted as "loading" over the error', async () => {
    const posted: HostMessage[] = [];
    const late = deferred<ImageView | undefined>();
    await runPreview(
      header,
      host(posted, {
        recognize: async (onPreview) => {
          onPreview(preview, true);
          throw new Error('HTTP 500');
        },
        picture: () => late.promise,
      }),
    );
    late.resolve(image);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      posted.map((m) => m.type),
      ['loading', 'error'],
    );
  });

  it('an answer overtaken by a newer run is dropped ("stale"), success or failure', async () => {
    const posted: HostMessage[] = [];
    const h = host(posted);
    const gate = deferred<FlowOutcome>();
    h.recognize = () => gate.promise;
    const run = runPreview(header, h);
    h.latest = false;
    gate.resolve(outcome);
    assert.deepEqual(await run, { status: 'stale' });
    const failing = host(posted, { recognize: async () => Promise.reject(new Error('late')) });
    failing.latest = false;
    assert.deepEqual(await runPreview(header, failing), { status: 'stale' });
    assert.deepEqual(
      posted.map((m) => m.type),
      ['loading', 'loading'],
      'only the two loading states',
    );
  });

  it('a failure posts the error with its message and whether a retry may help', async () => {
    const posted: HostMessage[] = [];
    const err = new Error('HTTP 404');
    const end = await runPreview(
      header,
      host(posted, {
        recognize: async () => Promise.reject(err),
        failure: (e) => ({ message: `failed: ${(e as Error).message}`, cancelled: false, retryable: false }),
      }),
    );
    assert.deepEqual(end, { status: 'failed', error: err, message: 'failed: HTTP 404', cancelled: false });
    assert.deepEqual(posted.at(-1), {
      type: 'error',
      run: 1,
      title: 'tea_buds.png',
      recognitionType: 'tea_count',
      message: 'failed: HTTP 404',
      retryable: false,
    });
  });
});

/** A preview host over a fake webview, its deadlines on `clock` (a virtual one: time moves when the test says). */
function preview_(clock = new ManualScheduler()): {
  host: PreviewHost;
  sent: HostMessage[];
  actions: ActionMessage[];
  clock: ManualScheduler;
  /** The page's loads: whether the webview was shown at each. */
  loads: boolean[];
  /** Whether the webview is shown (what `load` answers). */
  view: { shown: boolean };
} {
  const sent: HostMessage[] = [];
  const actions: ActionMessage[] = [];
  const loads: boolean[] = [];
  const view = { shown: true };
  const host = new PreviewHost(
    {
      postMessage: (m) => sent.push(m),
      load: () => {
        loads.push(view.shown);
        return view.shown;
      },
    },
    () => INIT,
    async (m) => {
      actions.push(m);
    },
    clock,
  );
  return { host, sent, actions, clock, loads, view };
}

describe('recognition preview: the host side of the protocol', () => {
  const loading: HostMessage = { type: 'loading', run: 1, title: 't', recognitionType: 'tea_count', message: 'm' };
  const error: HostMessage = {
    type: 'error',
    run: 2,
    title: 't',
    recognitionType: 'tea_count',
    message: 'no',
    retryable: true,
  };
  const status: HostMessage = { type: 'status', message: 'Saved a.png.', error: false };

  it('sends nothing before the handshake; on "ready", init and then the latest state', async () => {
    const { host, sent } = preview_();
    host.post(loading);
    host.post(error);
    assert.deepEqual(sent, []);
    await host.receive({ type: 'ready' });
    assert.deepEqual(sent, [INIT, error]);
    host.post(status);
    assert.deepEqual(sent, [INIT, error, status], 'after the handshake, messages go at once');
  });

  it('replays the state and its status line after every reload; a new state drops the old status', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    host.post(loading);
    host.post(status);
    sent.length = 0;
    await host.receive({ type: 'ready' });
    assert.deepEqual(sent, [INIT, loading, status]);
    host.post(error);
    sent.length = 0;
    await host.receive({ type: 'ready' });
    assert.deepEqual(sent, [INIT, error]);
  });

  it("hands the buttons' messages to the feature, validated; ignores malformed ones and 'rendered'", async () => {
    const { host, sent, actions } = preview_();
    await host.receive({ type: 'rerun', recognitionType: 'wheat_stage' });
    await host.receive({ type: 'rerun', recognitionType: 'bogus' });
    await host.receive({ type: 'insert', extra: '<b>' });
    await host.receive({ type: 'rendered', run: 1, boxes: 3, ms: 12 });
    await host.receive('ready');
    await host.receive(null);
    assert.deepEqual(actions, [{ type: 'rerun', recognitionType: 'wheat_stage' }, { type: 'insert' }]);
    assert.deepEqual(sent, []);
  });

  it('asks for the annotated picture once the webview is ready and answers its PNG bytes', async () => {
    const { host, sent } = preview_();
    const png = host.annotatedPng(2000);
    assert.equal(sent.length, 0, 'waits for the handshake');
    await host.receive({ type: 'ready' });
    assert.deepEqual(
      sent.map((m) => m.type),
      ['init', 'renderAnnotated'],
      'the request goes right after the handshake',
    );
    const ask = sent.find((m): m is Extract<HostMessage, { type: 'renderAnnotated' }> => m.type === 'renderAnnotated');
    assert.ok(ask);
    await host.receive({ type: 'annotated', requestId: ask.requestId + 1, png: 'AAAA' });
    await host.receive({ type: 'annotated', requestId: ask.requestId, png: Buffer.from('PNG!').toString('base64') });
    assert.deepEqual([...(await png)], [...Buffer.from('PNG!')]);
  });

  it("the webview's refusal, a timeout and a closed panel reject the request", async () => {
    const { host, sent, clock } = preview_();
    await host.receive({ type: 'ready' });
    const refused = host.annotatedPng(2000);
    const ask = sent.at(-1);
    assert.ok(ask?.type === 'renderAnnotated');
    await host.receive({ type: 'annotated', requestId: ask.requestId, error: 'Error: no image' });
    await assert.rejects(refused, /no image/);
    const late = assert.rejects(host.annotatedPng(30), /did not answer/);
    await clock.advance(30);
    await late;
    const pending = host.annotatedPng(2000);
    host.close();
    await assert.rejects(pending, /closed/);
    await assert.rejects(host.annotatedPng(), /closed/);
    const count = sent.length;
    host.post(status);
    assert.equal(sent.length, count, 'nothing is sent once closed');
  });
});

/** A picture to shrink of `size` bytes (byte i is i mod 256). */
function shrinkRequest(size = 1): ShrinkRequest {
  return {
    bytes: new Uint8Array(size).map((_, i) => i % 256),
    mime: 'image/jpeg',
    width: 4,
    height: 3,
    orientation: 1,
    maxBytes: 10,
  };
}

type Sent<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;
const ofType = <T extends HostMessage['type']>(sent: HostMessage[], type: T): Sent<T>[] =>
  sent.filter((m): m is Sent<T> => m.type === type);
/** The deliveries of the shrink requests sent so far, in order. */
const deliveries = (sent: HostMessage[]): number[] => ofType(sent, 'shrink').map((m) => m.delivery);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff]);

describe('recognition preview: the host side of the protocol (more)', () => {
  const result: HostMessage = { type: 'result', view: { run: 3 } as ResultView };
  const status: HostMessage = { type: 'status', message: 'Saved a.png.', error: false };

  it('a result is the state replayed after a reload; a status before any state is replayed alone', async () => {
    const { host, sent } = preview_();
    host.post(status);
    await host.receive({ type: 'ready' });
    assert.deepEqual(sent, [INIT, status]);
    host.post(result);
    sent.length = 0;
    await host.receive({ type: 'ready' });
    assert.deepEqual(sent, [INIT, result], 'the result replaces the status shown before it');
  });

  it('only states and status lines are replayed: other messages posted are not remembered', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    host.post({ type: 'renderAnnotated', requestId: 9 });
    host.post({ type: 'cancelShrink', requestId: 9 });
    assert.deepEqual(
      sent.map((m) => m.type),
      ['init', 'renderAnnotated', 'cancelShrink'],
      'posted at once',
    );
    sent.length = 0;
    await host.receive({ type: 'ready' });
    assert.deepEqual(sent, [INIT]);
  });

  it('an annotated-picture request waiting for the handshake is sent once, and not at all once it timed out', async () => {
    const { host, sent, clock } = preview_();
    const expired = assert.rejects(host.annotatedPng(10), /did not answer/);
    await clock.advance(10);
    await expired;
    const png = host.annotatedPng(2000);
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'ready' });
    const asks = ofType(sent, 'renderAnnotated');
    assert.equal(asks.length, 1, 'the expired request is not sent, the other once');
    await host.receive({ type: 'annotated', requestId: asks[0]?.requestId, png: 'AAAA' });
    assert.deepEqual([...(await png)], [0, 0, 0]);
  });

  it('an annotated answer with neither a PNG nor a reason, or an empty PNG, rejects with "no picture"', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    for (const answer of [{}, { png: '' }]) {
      const png = host.annotatedPng(2000);
      const ask = ofType(sent, 'renderAnnotated').at(-1);
      await host.receive({ type: 'annotated', requestId: ask?.requestId, ...answer });
      await assert.rejects(png, /^Error: no picture$/);
    }
  });

  it('every request, annotated picture or shrink, has an id of its own; an answer settles only its request', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    const first = host.annotatedPng(2000);
    const shrunk = host.shrink(shrinkRequest());
    const second = host.annotatedPng(2000);
    const third = host.shrink(shrinkRequest());
    const [a, b] = ofType(sent, 'renderAnnotated').map((m) => m.requestId);
    const [s, t] = ofType(sent, 'shrink').map((m) => m.requestId);
    assert.equal(new Set([a, b, s, t]).size, 4, `ids ${[a, b, s, t].join(', ')}`);
    await host.receive({ type: 'annotated', requestId: b, png: 'AQ==' });
    assert.deepEqual([...(await second)], [1]);
    await host.receive({ type: 'annotated', requestId: a, png: 'Ag==' });
    assert.deepEqual([...(await first)], [2]);
    await host.receive({ type: 'shrunk', requestId: t, error: 'third' });
    await host.receive({ type: 'shrunk', requestId: s, bytes: JPEG, width: 4, height: 3 });
    await assert.rejects(third, /third/);
    assert.equal((await shrunk).bytes, JPEG);
  });
});

describe('recognition preview: shrink requests (host side)', () => {
  it('a closed panel refuses at once, an aborted signal rejects with its reason: nothing is sent', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    const abort = new AbortController();
    const reason = new Error('user cancelled');
    abort.abort(reason);
    await assert.rejects(host.shrink(shrinkRequest(), abort.signal), (e) => e === reason);
    host.close();
    await assert.rejects(host.shrink(shrinkRequest()), /the panel is closed/);
    assert.deepEqual(sent, [INIT]);
  });

  it('a loaded webview that does not answer in time: the request rejects and the webview is told to stop', async () => {
    const { host, sent, clock } = preview_();
    await host.receive({ type: 'ready' });
    const answer = assert.rejects(host.shrink(shrinkRequest(), undefined, 30), /did not shrink the picture in time/);
    const [shrink] = ofType(sent, 'shrink');
    await clock.advance(30);
    await answer;
    assert.deepEqual(sent.at(-1), { type: 'cancelShrink', requestId: shrink?.requestId });
  });

  it('a loaded webview is waited for past the load deadline, though it has not said it has the request', async () => {
    const { host, sent, clock } = preview_();
    await host.receive({ type: 'ready' });
    const answer = host.shrink(shrinkRequest(), undefined, 2000, 10);
    await clock.advance(40);
    const [shrink] = ofType(sent, 'shrink');
    assert.ok(!sent.some((m) => m.type === 'cancelShrink'), 'not cancelled');
    await host.receive({ type: 'shrunk', requestId: shrink?.requestId, bytes: JPEG, width: 4, height: 3 });
    assert.deepEqual(await answer, { bytes: JPEG, width: 4, height: 3 });
  });

  it('its bytes go in order, every part tagged with the delivery the webview took', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    const request = shrinkRequest(SHRINK_PART_BYTES * 2 + 3);
    void host.shrink(request).catch(() => undefined);
    const [shrink] = ofType(sent, 'shrink');
    assert.ok(shrink);
    assert.deepEqual([shrink.byteLength, shrink.parts], [request.bytes.byteLength, 3]);
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 1 });
    const parts = ofType(sent, 'shrinkPart');
    assert.deepEqual(
      parts.map((p) => [p.requestId, p.delivery, p.index, p.bytes.byteLength]),
      [
        [shrink.requestId, 1, 0, SHRINK_PART_BYTES],
        [shrink.requestId, 1, 1, SHRINK_PART_BYTES],
        [shrink.requestId, 1, 2, 3],
      ],
    );
    assert.deepEqual(Buffer.concat(parts.map((p) => p.bytes)), Buffer.from(request.bytes));
    host.close();
  });

  it('a delivery that was never sent (0, negative, later) or a request never made gets no bytes; a stray answer is ignored', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    const answer = host.shrink(shrinkRequest());
    const [shrink] = ofType(sent, 'shrink');
    assert.ok(shrink);
    for (const delivery of [0, -1, 2]) await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery });
    await host.receive({ type: 'shrinking', requestId: shrink.requestId + 100, delivery: 1 });
    await host.receive({ type: 'shrunk', requestId: shrink.requestId + 100, bytes: JPEG, width: 4, height: 3 });
    assert.deepEqual(ofType(sent, 'shrinkPart'), []);
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 1 });
    assert.equal(ofType(sent, 'shrinkPart').length, 1, 'the delivery sent gets its bytes');
    await host.receive({ type: 'shrunk', requestId: shrink.requestId, bytes: JPEG, width: 4, height: 3 });
    assert.equal((await answer).bytes, JPEG);
  });

  it('closing fails the pending shrinks, forgets the last picture shrunk and sends nothing more', async () => {
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    const done = host.shrink(shrinkRequest());
    await host.receive({
      type: 'shrunk',
      requestId: ofType(sent, 'shrink')[0]?.requestId,
      bytes: JPEG,
      width: 4,
      height: 3,
    });
    assert.equal(host.pixelsOf((await done).bytes), ofType(sent, 'shrink')[0]?.requestId);
    const pending = [host.shrink(shrinkRequest()), host.shrink(shrinkRequest())];
    const count = sent.length;
    host.close();
    for (const p of pending) await assert.rejects(p, /the panel closed/);
    assert.equal(host.pixelsOf(JPEG), undefined);
    assert.equal(sent.length, count, 'no cancel: the webview is gone');
  });
});

describe('recognition preview: a shrink request across (re)loads of the webview', () => {
  it('posted while the webview loads and taken within a second of the handshake: not sent again', async () => {
    const { host, sent, clock } = preview_();
    const answer = host.shrink(shrinkRequest());
    await host.receive({ type: 'ready' });
    const [shrink] = ofType(sent, 'shrink');
    assert.ok(shrink);
    await clock.advance(500);
    await host.receive({ type: 'shrinking', requestId: shrink.requestId, delivery: 1 });
    await clock.advance(700);
    assert.deepEqual(deliveries(sent), [1]);
    await host.receive({ type: 'shrunk', requestId: shrink.requestId, bytes: JPEG, width: 4, height: 3 });
    await answer;
  });

  it('answered within a second of the handshake: not sent again', async () => {
    const { host, sent, clock } = preview_();
    const answer = host.shrink(shrinkRequest());
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'shrunk', requestId: ofType(sent, 'shrink')[0]?.requestId, error: 'refused' });
    await assert.rejects(answer, /refused/);
    await clock.advance(1100);
    assert.equal(ofType(sent, 'shrink').length, 1);
  });

  it('every reload after the first handshake sends it again at once, as a new delivery', async () => {
    const { host, sent } = preview_();
    const answer = host.shrink(shrinkRequest());
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'ready' });
    assert.deepEqual(deliveries(sent), [1, 2, 3]);
    host.close();
    await assert.rejects(answer, /closed/);
  });

  it('taken by a page that then reloaded: sent again at once, on every reload', async () => {
    const { host, sent } = preview_();
    const answer = host.shrink(shrinkRequest());
    const requestId = ofType(sent, 'shrink')[0]?.requestId;
    await host.receive({ type: 'shrinking', requestId, delivery: 1 });
    await host.receive({ type: 'ready' });
    assert.deepEqual(deliveries(sent), [1, 2], 'the page that took it is gone');
    await host.receive({ type: 'ready' });
    assert.deepEqual(deliveries(sent), [1, 2, 3]);
    host.close();
    await assert.rejects(answer, /closed/);
  });

  it('reloaded before the first page took it: sent again at once, and the check a second after the handshake still stands', async () => {
    const { host, sent, clock } = preview_();
    const answer = host.shrink(shrinkRequest());
    await host.receive({ type: 'ready' });
    await host.receive({ type: 'ready' });
    assert.deepEqual(deliveries(sent), [1, 2]);
    await clock.advance(1100);
    assert.deepEqual(deliveries(sent), [1, 2, 3]);
    host.close();
    await assert.rejects(answer, /closed/);
  });
});

describe('recognition preview: a page that does not load', () => {
  it('start() loads the page once; a page that says "ready" in time is never loaded again', async () => {
    const { host, clock, loads } = preview_();
    host.start();
    assert.deepEqual(loads, [true]);
    await clock.advance(LOAD_MS - 1);
    await host.receive({ type: 'ready' });
    await clock.advance(LOAD_MS * 10);
    assert.deepEqual(loads, [true]);
  });

  it(`a shown page silent for ${LOAD_MS} ms is loaded again, the wait doubled each time, ${RELOADS} times at most; its late "ready" gets the state`, async () => {
    const { host, sent, clock, loads } = preview_();
    const loading: HostMessage = { type: 'loading', run: 1, title: 't', recognitionType: 'tea_count', message: 'm' };
    host.start();
    host.post(loading);
    for (let reload = 0; reload < RELOADS; reload++) {
      const wait = LOAD_MS * 2 ** reload;
      assert.equal(loadWait(reload), wait);
      await clock.advance(wait - 1);
      assert.equal(loads.length, 1 + reload, `reload ${reload + 1}: still waiting 1 ms before ${wait} ms`);
      await clock.advance(1);
      assert.equal(loads.length, 2 + reload, `reload ${reload + 1}: loaded again ${wait} ms after the last load`);
    }
    await clock.advance(LOAD_MS * 100);
    assert.equal(loads.length, 1 + RELOADS, 'then no more');
    assert.deepEqual(sent, [], 'nothing is sent to a page that never said ready');
    await host.receive({ type: 'ready' });
    assert.deepEqual(sent, [INIT, loading]);
  });

  it('a page that says "ready" after a reload is not loaded again', async () => {
    const { host, clock, loads } = preview_();
    host.start();
    await clock.advance(LOAD_MS);
    assert.equal(loads.length, 2);
    await host.receive({ type: 'ready' });
    await clock.advance(LOAD_MS * 100);
    assert.equal(loads.length, 2);
  });

  it('a load while the webview is hidden does not count; the check goes on until it is shown and loads', async () => {
    const { host, clock, loads, view } = preview_();
    host.start();
    view.shown = false;
    await clock.advance(LOAD_MS * 5);
    assert.deepEqual(loads, [true, false, false, false, false, false]);
    view.shown = true;
    await clock.advance(LOAD_MS * 2 ** (RELOADS + 1));
    assert.deepEqual(
      loads.slice(6),
      Array(RELOADS).fill(true),
      'shown: loaded again, as many times as a shown page is',
    );
  });

  it('a page that said "ready" once is not checked again; a closed panel is not loaded again', async () => {
    const first = preview_();
    first.host.start();
    await first.host.receive({ type: 'ready' });
    await first.clock.advance(LOAD_MS * 3);
    assert.equal(first.loads.length, 1);
    const second = preview_();
    second.host.start();
    second.host.close();
    await second.clock.advance(LOAD_MS * 3);
    assert.equal(second.loads.length, 1);
  });
});
