/**
 * The preview's host side with a fake webview: what a run posts and in which order (src/recognition/run.ts),
 * and the handshake, replay and annotated-picture requests (src/recognition/panelHost.ts).
 */
import * as assert from 'node:assert/strict';
import type { FlowOutcome, PreviewImage } from '../../../src/recognition/flow';
import { PreviewHost, type ActionMessage } from '../../../src/recognition/panelHost';
import type { HostMessage, ImageView, ResultView } from '../../../src/recognition/protocol';
import { runPreview, type RunHost } from '../../../src/recognition/run';
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
      await new Promise((r) => setTimeout(r, 5));
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
    await new Promise((r) => setTimeout(r, 5));
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

/** A preview host over a fake webview. */
function preview_(): { host: PreviewHost; sent: HostMessage[]; actions: ActionMessage[] } {
  const sent: HostMessage[] = [];
  const actions: ActionMessage[] = [];
  const host = new PreviewHost(
    { postMessage: (m) => sent.push(m) },
    () => INIT,
    async (m) => {
      actions.push(m);
    },
  );
  return { host, sent, actions };
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
    const { host, sent } = preview_();
    await host.receive({ type: 'ready' });
    const refused = host.annotatedPng(2000);
    const ask = sent.at(-1);
    assert.ok(ask?.type === 'renderAnnotated');
    await host.receive({ type: 'annotated', requestId: ask.requestId, error: 'Error: no image' });
    await assert.rejects(refused, /no image/);
    await assert.rejects(host.annotatedPng(30), /did not answer/);
    const pending = host.annotatedPng(2000);
    host.close();
    await assert.rejects(pending, /closed/);
    await assert.rejects(host.annotatedPng(), /closed/);
    const count = sent.length;
    host.post(status);
    assert.equal(sent.length, count, 'nothing is sent once closed');
  });
});
