/**
 * The messages the "Copy for WeChat" webview may send its host: anything else (the webview runs the
 * article's HTML, so its messages are not trusted) is dropped before the host reads it.
 */
import * as assert from 'node:assert/strict';
import { isCopyWebviewMessage } from '../../../src/publish/copyProtocol';

describe('publish: the copy panel’s messages from its webview', () => {
  it('takes ready, copied by clipboard or selection, and copy-failed with its reason', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'copied', how: 'clipboard' },
      { type: 'copied', how: 'selection' },
      { type: 'copy-failed', reason: 'NotAllowedError: Document is not focused.' },
      { type: 'copy-failed', reason: '' },
    ])
      assert.equal(isCopyWebviewMessage(m), true, JSON.stringify(m));
  });

  it('drops anything else: other types (with a reason too), a copy by another way, a failure without a text reason, non-objects', () => {
    for (const m of [
      null,
      undefined,
      'ready',
      42,
      [],
      {},
      { type: 'show', article: '<p>x</p>', file: 'a.html', pictures: [] },
      { type: 'Ready' },
      { type: 'copied' },
      { type: 'copied', how: 'paste' },
      { type: 'copied', how: ['clipboard'] },
      { type: 'copy-failed' },
      { type: 'copy-failed', reason: 404 },
      { type: 'copy-failed', reason: { message: 'x' } },
      { type: 'show', reason: 'a reason does not make a failure' },
      { reason: 'NotAllowedError' },
    ])
      assert.equal(isCopyWebviewMessage(m), false, JSON.stringify(m) ?? String(m));
  });
});
