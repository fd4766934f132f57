/**
 * Our own download of a picture (the fallback when the platform cannot fetch a URL), against a
 * loopback server on 127.0.0.1: the rules of `src/recognition/download.ts`'s header — no
 * credentials, http(s) only, redirects followed, a size cap (declared and streamed), an image
 * content type and magic bytes, a timeout on the project's Scheduler that also covers a server that
 * accepts and never answers — each with what the user is told when it refuses.
 */
import * as assert from 'node:assert/strict';
import { DownloadError, downloadImage, type DownloadFailure } from '../../../src/recognition/download';
import { MAX_INPUT_BYTES } from '../../../src/recognition/image';
import { ManualScheduler } from '../../support/manual-scheduler';
import { cat, png } from './fixtures';
import { loopback, type Handler } from '../../support/loopback';

/** Rejects with a {@link DownloadError} of `reason`, and returns it. */
async function refused(p: Promise<unknown>, reason: DownloadFailure): Promise<DownloadError> {
  let caught: unknown;
  await p.then(
    () => assert.fail(`resolved, expected a ${reason} refusal`),
    (e: unknown) => (caught = e),
  );
  assert.ok(caught instanceof DownloadError, `a DownloadError, got ${String(caught)}`);
  assert.equal(caught.reason, reason, caught.message);
  return caught;
}

/** A PNG with `extra` bytes after its end: the magic bytes hold, and every byte is distinct enough to compare. */
function picture(extra: number): Uint8Array {
  const tail = new Uint8Array(extra);
  for (let i = 0; i < extra; i++) tail[i] = (i * 7 + 3) & 0xff;
  return cat(
    png(2, 2, () => [10, 120, 40]),
    tail,
  );
}

describe('recognition: our own download of a picture', function () {
  let host: Awaited<ReturnType<typeof loopback>>;
  beforeEach(async () => (host = await loopback()));
  afterEach(() => host.close());

  it('returns the bytes exactly as served, however many chunks they come in', async () => {
    const body = picture(200_000);
    host.routes.set('/p.png', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      for (let at = 0; at < body.length; at += 8_192) res.write(body.subarray(at, at + 8_192));
      res.end();
    });
    const got = await downloadImage(`${host.origin}/p.png`);
    assert.equal(got.format, 'png');
    assert.equal(got.bytes.length, body.length);
    assert.deepEqual(Buffer.from(got.bytes), Buffer.from(body));
  });

  it('names the content type without its parameters, lower case', async () => {
    host.routes.set('/p', (_req, res) =>
      res.writeHead(200, { 'content-type': ' Image/PNG ; charset=binary' }).end(picture(0)),
    );
    const got = await downloadImage(`${host.origin}/p`);
    assert.equal(got.contentType, 'image/png');
  });

  it('follows redirects and reports the URL it ended at', async () => {
    host.routes.set('/moved', (_req, res) => res.writeHead(302, { location: '/here.png' }).end());
    host.routes.set('/here.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(picture(0)));
    const got = await downloadImage(`${host.origin}/moved`);
    assert.equal(got.finalUrl, `${host.origin}/here.png`);
  });

  it('asks for an image and sends no credentials', async () => {
    host.routes.set('/p.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(picture(0)));
    await downloadImage(`${host.origin}/p.png`);
    const [request] = host.seen;
    assert.equal(request?.headers.accept, 'image/*');
    assert.equal(request?.headers.authorization, undefined);
    assert.equal(request?.headers.cookie, undefined);
  });

  for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/p.png', 'data:image/png;base64,iVBORw0KGgo=', 'not a url'])
    it(`refuses ${url} without a request`, async () => {
      const err = await refused(downloadImage(url), 'bad-url');
      assert.equal(err.url, url);
      assert.equal(err.message, `Download of ${url} failed (bad-url)`, 'no status, no detail');
      assert.equal(host.seen.length, 0);
    });

  for (const [who, auth] of [
    ['a user and a password', 'user:pw@'],
    ['a user only', 'user@'],
    ['a password only', ':pw@'],
  ])
    it(`refuses a URL carrying ${who}, and says the credentials are not sent`, async () => {
      const err = await refused(downloadImage(host.origin.replace('//', `//${auth}`) + '/p.png'), 'bad-url');
      assert.match(err.message, /credentials in the URL are not sent/);
      assert.equal(host.seen.length, 0);
    });

  it('accepts https as well as http (refused here only by the network: nothing serves TLS on the port)', async () => {
    const err = await refused(downloadImage(`${host.origin.replace('http:', 'https:')}/p.png`), 'network');
    assert.ok(err.message.length > 0);
  });

  it('an HTTP error is reported with its status, and the log line names URL, reason and status', async () => {
    host.routes.set('/gone', (_req, res) => res.writeHead(410, { 'content-type': 'image/png' }).end('gone'));
    const err = await refused(downloadImage(`${host.origin}/gone`), 'http');
    assert.equal(err.status, 410);
    assert.equal(String(err), `DownloadError: Download of ${host.origin}/gone failed (http 410)`);
  });

  it('a page that is not an image is refused by its content type, which the log line names', async () => {
    host.routes.set('/page', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'));
    const err = await refused(downloadImage(`${host.origin}/page`), 'not-image');
    assert.equal(err.message, `Download of ${host.origin}/page failed (not-image 200): text/html`);
  });

  it('a reply without a content type is refused, and the log line says there was none', async () => {
    host.routes.set('/bare', (_req, res) => {
      // node adds no content type of its own
      res.writeHead(200).end(picture(0));
    });
    const err = await refused(downloadImage(`${host.origin}/bare`), 'not-image');
    assert.match(err.message, /: no content type$/);
  });

  it('bytes that are not an image are refused even under an image content type', async () => {
    host.routes.set('/fake.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('not a png'));
    const err = await refused(downloadImage(`${host.origin}/fake.png`), 'not-image');
    assert.match(err.message, /the bytes are not an image$/);
  });

  it('an empty image reply is not an image', async () => {
    host.routes.set('/empty.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end());
    await refused(downloadImage(`${host.origin}/empty.png`), 'not-image');
  });

  describe('the size cap', () => {
    const size = picture(1_000).length;
    const serve =
      (declare: boolean, bytes: Uint8Array): Handler =>
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', ...(declare ? { 'content-length': bytes.length } : {}) });
        res.end(bytes);
      };

    it('a picture of exactly the cap is downloaded, declared or streamed', async () => {
      host.routes.set('/declared', serve(true, picture(1_000)));
      host.routes.set('/streamed', serve(false, picture(1_000)));
      assert.equal((await downloadImage(`${host.origin}/declared`, { maxBytes: size })).bytes.length, size);
      assert.equal((await downloadImage(`${host.origin}/streamed`, { maxBytes: size })).bytes.length, size);
    });

    it('one byte over is refused, streamed without a declared length', async () => {
      host.routes.set('/streamed', serve(false, picture(1_001)));
      await refused(downloadImage(`${host.origin}/streamed`, { maxBytes: size }), 'too-large');
    });

    it('a declared length over the cap is refused before any of the body arrives', async () => {
      // headers promising one byte too many, then nothing: only the declared length can answer
      host.routes.set('/huge', (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': size + 1 });
        res.flushHeaders();
      });
      const err = await refused(downloadImage(`${host.origin}/huge`, { maxBytes: size }), 'too-large');
      assert.equal(err.status, 200);
    });

    it('by default the cap is the 64 MB the extension takes in', async () => {
      host.routes.set('/huge', (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': MAX_INPUT_BYTES + 1 });
        res.flushHeaders();
      });
      await refused(downloadImage(`${host.origin}/huge`), 'too-large');
    });
  });

  describe('time and cancellation (a ManualScheduler: no wall clock)', () => {
    it('a server that accepts and never answers times out after 20 s by default', async () => {
      host.routes.set('/silent', () => undefined);
      const clock = new ManualScheduler();
      const p = downloadImage(`${host.origin}/silent`, { scheduler: clock });
      let settled = false;
      void p.catch(() => undefined).finally(() => (settled = true));
      await until(() => host.seen.length === 1);
      await clock.advance(19_999);
      await new Promise((r) => setImmediate(r));
      assert.equal(settled, false, 'still waiting at 19.999 s');
      await clock.advance(1);
      await refused(p, 'timeout');
    });

    it('a body that stalls half way also times out', async () => {
      host.routes.set('/stall.png', (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(picture(10));
      });
      const clock = new ManualScheduler();
      const p = downloadImage(`${host.origin}/stall.png`, { scheduler: clock, timeoutMs: 5_000 });
      await until(() => host.seen.length === 1);
      const timedOut = refused(p, 'timeout');
      await clock.advance(5_000);
      await timedOut;
    });

    it('a finished download leaves no timer behind', async () => {
      host.routes.set('/p.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(picture(0)));
      host.routes.set('/page', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('x'));
      const clock = new ManualScheduler();
      await downloadImage(`${host.origin}/p.png`, { scheduler: clock });
      await refused(downloadImage(`${host.origin}/page`, { scheduler: clock }), 'not-image');
      assert.equal(clock.pending, 0);
    });

    it('is cancelled by its signal, while waiting and before it starts', async () => {
      host.routes.set('/silent', () => undefined);
      const ac = new AbortController();
      const p = downloadImage(`${host.origin}/silent`, { signal: ac.signal, scheduler: new ManualScheduler() });
      await until(() => host.seen.length === 1);
      ac.abort();
      const err = await refused(p, 'cancelled');
      assert.equal(
        err.message,
        `Download of ${host.origin}/silent failed (cancelled)`,
        'the abort is no network detail',
      );
      await refused(
        downloadImage(`${host.origin}/silent`, { signal: AbortSignal.abort(), scheduler: new ManualScheduler() }),
        'cancelled',
      );
    });
  });

  it('a refused connection is a network failure whose log line says why', async () => {
    const closed = await loopback();
    await closed.close();
    const err = await refused(downloadImage(`${closed.origin}/p.png`), 'network');
    assert.match(err.message, /ECONNREFUSED/);
  });
});

/** Polls (on the event loop, not a clock) until `ok()` holds. */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setImmediate(r));
}
