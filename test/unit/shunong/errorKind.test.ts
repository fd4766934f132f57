import * as assert from 'node:assert/strict';
import * as errors from '../../../src/shunong/errors';

const { isPlatformError, platformErrorKind } = errors;

describe('recognising a platform failure and its kind', () => {
  const samples: errors.ShunongError[] = [
    new errors.AuthError('missing-key'),
    new errors.InsecureEndpointError('http://example.com/mcp'),
    new errors.ConfigurationError('x'),
    new errors.RateLimitedError(1000, 4),
    new errors.ServerError(503, 4),
    new errors.TimeoutError(10),
    new errors.CancelledError(),
    new errors.NetworkError('x', 'ECONNREFUSED'),
    new errors.ProtocolError('x'),
    new errors.KnowledgeMissError('x', 1, 2, 0.7, 3, 0.5),
    new errors.ImageDownloadError('x', 404, 'https://example.com/a.jpg', false),
    new errors.InputValidationError('t', 'd'),
    new errors.ToolFailureError('m', 'r'),
    new errors.ResultShapeError('t', 'f', 'p'),
    new errors.UnknownToolError('t', [], []),
    new errors.AmbiguousToolError('t', ['a', 'b']),
    new errors.InvalidArgumentsError('x'),
  ];

  it('knows every kind of every error class', () => {
    const kinds = new Set(samples.map((e) => e.kind));
    assert.equal(kinds.size, samples.length);
    for (const e of samples) {
      assert.equal(platformErrorKind(e), e.kind);
      assert.ok(isPlatformError(e));
      assert.ok(isPlatformError(e, e.kind));
    }
  });

  it('narrows to the kinds asked for, and nothing else', () => {
    const miss: unknown = samples.find((e) => e.kind === 'knowledge-miss');
    assert.ok(isPlatformError(miss, 'knowledge-miss') && miss.bestScore === 0.5);
    assert.ok(!isPlatformError(miss, 'cancelled', 'auth'));
    assert.ok(isPlatformError(new errors.AuthError('invalid-key'), 'cancelled', 'auth'));
  });

  it('recognises no plain object, other error or foreign kind', () => {
    for (const v of [
      undefined,
      null,
      'auth',
      { kind: 'auth', reason: 'missing-key' },
      new Error('plain'),
      Object.assign(new Error('ours'), { kind: 'image-refused' }),
      // the shape of a platform failure is not one: only the client's classes are
      Object.assign(new Error('forged'), { kind: 'cancelled' }),
      Object.assign(new Error('forged'), { kind: 'auth', reason: 'missing-key' }),
      Object.assign(new Error('ours'), { kind: 'hasOwnProperty' }),
    ]) {
      assert.equal(platformErrorKind(v), undefined);
      assert.ok(!isPlatformError(v));
    }
  });
});
