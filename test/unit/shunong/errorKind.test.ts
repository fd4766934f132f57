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

describe('what each platform failure says (its message, name and details, as the CLI envelope and the log show them)', () => {
  const cases: [errors.ShunongError, string, string, Record<string, unknown>][] = [
    [
      new errors.AuthError('missing-key'),
      'AuthError',
      'No Shunong API key is configured (the endpoint answered "missing api key").',
      { reason: 'missing-key', status: 401 },
    ],
    [
      new errors.AuthError('invalid-key'),
      'AuthError',
      'The Shunong API key was rejected by the endpoint (invalid or revoked key).',
      { reason: 'invalid-key', status: 401 },
    ],
    [
      new errors.AuthError('missing-key', 'own words'),
      'AuthError',
      'own words',
      { reason: 'missing-key', status: 401 },
    ],
    [
      new errors.InsecureEndpointError('http://example.com/mcp'),
      'InsecureEndpointError',
      'Refusing to send the API key over plain HTTP to http://example.com/mcp: use https://, a loopback address, or allow insecure HTTP explicitly.',
      { endpoint: 'http://example.com/mcp' },
    ],
    [new errors.ConfigurationError('bad'), 'ConfigurationError', 'bad', {}],
    [
      new errors.RateLimitedError(1500, 4),
      'RateLimitedError',
      'The Shunong endpoint is rate limiting requests (HTTP 429) after 4 attempt(s); it asks to retry after 2 s.',
      { status: 429, retryAfterMs: 1500, attempts: 4 },
    ],
    [
      new errors.RateLimitedError(undefined, 1),
      'RateLimitedError',
      'The Shunong endpoint is rate limiting requests (HTTP 429) after 1 attempt(s).',
      { status: 429, retryAfterMs: undefined, attempts: 1 },
    ],
    [
      new errors.ServerError(503, 4, 'down'),
      'ServerError',
      'The Shunong endpoint failed with HTTP 503 after 4 attempt(s): down',
      { status: 503, attempts: 4 },
    ],
    [
      new errors.ServerError(500, 2),
      'ServerError',
      'The Shunong endpoint failed with HTTP 500 after 2 attempt(s).',
      { status: 500, attempts: 2 },
    ],
    [
      new errors.TimeoutError(20000),
      'TimeoutError',
      'The Shunong request timed out after 20000 ms.',
      { timeoutMs: 20000 },
    ],
    [new errors.CancelledError(), 'CancelledError', 'The Shunong request was cancelled.', {}],
    [new errors.NetworkError('gone', 'ECONNREFUSED'), 'NetworkError', 'gone', { code: 'ECONNREFUSED' }],
    [new errors.NetworkError('gone'), 'NetworkError', 'gone', {}],
    [new errors.ProtocolError('odd', 418, -32602), 'ProtocolError', 'odd', { status: 418, rpcCode: -32602 }],
    [new errors.ProtocolError('odd'), 'ProtocolError', 'odd', {}],
    [
      new errors.KnowledgeMissError('none', 1, 2, 0.7, 3, 0.5),
      'KnowledgeMissError',
      'No knowledge passage matched: none',
      { vectorCandidates: 1, fulltextCandidates: 2, threshold: 0.7, filtered: 3, bestScore: 0.5 },
    ],
    [
      new errors.ImageDownloadError('HTTP 404', 404, 'https://example.com/a.jpg', false),
      'ImageDownloadError',
      'The platform could not download the image: HTTP 404',
      { status: 404, url: 'https://example.com/a.jpg', timedOut: false },
    ],
    [
      new errors.InputValidationError('weather_search', 'location is required'),
      'InputValidationError',
      'Tool weather_search rejected its input: location is required',
      { tool: 'weather_search', detail: 'location is required' },
    ],
    [
      new errors.ToolFailureError('knowledgeSearch', 'boom'),
      'ToolFailureError',
      'knowledgeSearch failed: boom',
      { method: 'knowledgeSearch' },
    ],
    [new errors.ToolFailureError('', 'boom'), 'ToolFailureError', 'The tool failed: boom', { method: '' }],
    [
      new errors.ResultShapeError('get_current_time', 'date', 'is missing'),
      'ResultShapeError',
      'Unexpected result from get_current_time: field "date" is missing',
      { tool: 'get_current_time', field: 'date' },
    ],
    [
      new errors.UnknownToolError('wether', [{ name: 'weather_search', score: 0.857 }], ['weather_search']),
      'UnknownToolError',
      'No tool named "wether". Did you mean weather_search (0.86)?',
      { requested: 'wether', suggestions: [{ name: 'weather_search', score: 0.857 }] },
    ],
    [
      new errors.UnknownToolError(
        'search',
        [
          { name: 'weather_search', score: 0.5 },
          { name: 'knowledge_search', score: 0.4 },
        ],
        ['weather_search', 'knowledge_search'],
      ),
      'UnknownToolError',
      'No tool named "search". Did you mean weather_search (0.50), knowledge_search (0.40)?',
      {
        requested: 'search',
        suggestions: [
          { name: 'weather_search', score: 0.5 },
          { name: 'knowledge_search', score: 0.4 },
        ],
      },
    ],
    [
      new errors.UnknownToolError('x', [], ['weather_search', 'get_current_time']),
      'UnknownToolError',
      'No tool named "x". Available tools: weather_search, get_current_time.',
      { requested: 'x', suggestions: [] },
    ],
    [
      new errors.UnknownToolError('x', [], []),
      'UnknownToolError',
      'No tool named "x". Available tools: (none).',
      { requested: 'x', suggestions: [] },
    ],
    [
      new errors.AmbiguousToolError('search', ['weather_search', 'knowledge_search']),
      'AmbiguousToolError',
      'The tool name "search" is ambiguous: it matches weather_search, knowledge_search.',
      { requested: 'search', candidates: ['weather_search', 'knowledge_search'] },
    ],
    [new errors.InvalidArgumentsError('not JSON'), 'InvalidArgumentsError', 'not JSON', {}],
  ];

  for (const [e, name, message, details] of cases) {
    it(`${name}: ${message}`, () => {
      assert.equal(e.name, name);
      assert.equal(e.message, message);
      assert.deepEqual(e.details(), details);
    });
  }

  it('a failure the tool reported is a tool failure, with its reason; the transport’s are not', () => {
    const reported = cases.map(([e]) => e).filter((e) => e.isToolFailure);
    assert.deepEqual(
      [...new Set(reported.map((e) => e.name))],
      ['KnowledgeMissError', 'ImageDownloadError', 'InputValidationError', 'ToolFailureError'],
    );
    assert.equal((reported[2] as errors.InputValidationError).reason, 'location is required');
  });

  it('an endpoint the key may not go to: insecure http, not a URL, or not http(s)', () => {
    assert.ok(errors.endpointError('insecure-http', 'http://a.cn/mcp') instanceof errors.InsecureEndpointError);
    assert.equal(errors.endpointError('invalid-url', 'a b').message, 'The endpoint is not a valid URL: a b');
    assert.equal(
      errors.endpointError('unsupported-scheme', 'ftp://a.cn').message,
      'The endpoint must be an http(s) URL: ftp://a.cn',
    );
    assert.ok(errors.endpointError('invalid-url', 'a b') instanceof errors.ConfigurationError);
  });
});

describe('the reading of a tool’s failure text (parseToolFailure), at its edges', () => {
  const { parseToolFailure } = errors;
  const failure = (text: string): errors.ToolFailureError => {
    const e = parseToolFailure(text);
    assert.ok(e instanceof errors.ToolFailureError, text);
    return e;
  };

  it('the method line is trimmed; a reason left empty is “<method> failed”; the text around is trimmed', () => {
    const a = failure('Error invoking method:   weatherSearch  \n   ');
    assert.equal(a.method, 'weatherSearch');
    assert.equal(a.reason, 'weatherSearch failed');
    const b = failure('Error invoking method:weatherSearch');
    assert.equal(b.method, 'weatherSearch');
    assert.equal(b.reason, 'weatherSearch failed');
    const c = failure('  \n something odd \n');
    assert.deepEqual([c.method, c.reason], ['', 'something odd']);
  });

  it('a reason of several lines is kept whole, blanks inside included', () => {
    const e = failure('Error invoking method: weatherSearch\n城市不存在:\n  火星 \n第三行');
    assert.equal(e.reason, '城市不存在:\n  火星 \n第三行');
  });

  it('the invoke line and the input validation count only at the start of the text', () => {
    const a = failure('note: Error invoking method: weatherSearch\n城市不存在');
    assert.deepEqual([a.method, a.reason], ['', 'note: Error invoking method: weatherSearch\n城市不存在']);
    const b = failure('see Tool (weather_search) input validation failed: location');
    assert.equal(b.method, '');
  });

  it('the invoke line reads the same with blanks around the text, CRLF line breaks, blanks after the method, or blank lines before the reason', () => {
    const e = parseToolFailure('\r\n Error invoking method: weatherSearch  \r\n\r\n   城市不存在\r\n');
    assert.ok(e instanceof errors.ToolFailureError);
    assert.deepEqual([e.method, e.reason], ['weatherSearch', '城市不存在']);
  });

  it('an input validation behind the invoke line is one too; its detail trimmed, and of several lines', () => {
    const e = parseToolFailure(
      'Error invoking method: knowledgeSearch\nTool (knowledge_search) input validation failed:   query is required\n  and topK  ',
    );
    assert.ok(e instanceof errors.InputValidationError);
    assert.equal(e.tool, 'knowledge_search');
    assert.equal(e.detail, 'query is required\n  and topK');
    const padded = parseToolFailure('\r\n  Tool (weather_search) input validation failed: location\r\n');
    assert.ok(padded instanceof errors.InputValidationError, 'blanks around the text are not part of it');
    assert.deepEqual([padded.tool, padded.detail], ['weather_search', 'location']);
    const bare = parseToolFailure('Tool () input validation failed:');
    assert.ok(bare instanceof errors.InputValidationError);
    assert.deepEqual([bare.tool, bare.detail], ['', '']);
  });

  it('a knowledge miss: either wording, numbers with or without blanks, “全部” optional, a number that is no number left out', () => {
    const a = parseToolFailure(
      '未命中相关片段(候选: 向量32条 / 全文  17  条); score_threshold = 0.5 过滤掉 5 条(最高分0.41)',
    );
    assert.ok(a instanceof errors.KnowledgeMissError);
    assert.deepEqual(
      [a.vectorCandidates, a.fulltextCandidates, a.threshold, a.filtered, a.bestScore],
      [32, 17, 0.5, 5, 0.41],
    );
    const tight = parseToolFailure(
      '知识库未命中相关片段(候选: 向量 3 条 / 全文 12 条); score_threshold=0.7 过滤掉全部15条候选',
    );
    assert.ok(tight instanceof errors.KnowledgeMissError);
    assert.equal(tight.filtered, 15);
    const b = parseToolFailure('知识库未命中; score_threshold=0.7.1 最高分 ..');
    assert.ok(b instanceof errors.KnowledgeMissError);
    assert.deepEqual(
      [b.vectorCandidates, b.fulltextCandidates, b.threshold, b.filtered, b.bestScore],
      [undefined, undefined, undefined, undefined, undefined],
    );
  });

  it('an image download failure: said of an image, or a timeout of the recognition method (any case); else a plain failure', () => {
    const a = parseToolFailure('Error invoking method: weatherSearch\nupstream TIMED OUT');
    assert.ok(a instanceof errors.ToolFailureError, 'a timeout of another tool is not about an image');
    const b = parseToolFailure('Error invoking method: CROPGROWTHRECOGNIZE\nupstream Timed Out');
    assert.ok(b instanceof errors.ImageDownloadError);
    assert.equal(b.timedOut, true);
    const c = parseToolFailure('Error invoking method: recognize\n图片下载失败: 超时');
    assert.ok(c instanceof errors.ImageDownloadError);
    assert.equal(c.timedOut, true);
    const d = parseToolFailure('Error invoking method: recognize\n图片读取 timed out');
    assert.ok(d instanceof errors.ImageDownloadError, 'a timeout said of an image');
    const e = parseToolFailure('Error invoking method: recognize\n图片下载失败: time out');
    assert.ok(e instanceof errors.ImageDownloadError);
    assert.equal(e.timedOut, true);
    const g = parseToolFailure('Error invoking method: recognize\n图片下载失败: read timeout');
    assert.equal(g instanceof errors.ImageDownloadError && g.timedOut, true, 'a timeout written as one word');
    const f = parseToolFailure('Error invoking method: recognize\n图片不存在');
    assert.ok(f instanceof errors.ToolFailureError, 'an image, but neither a download failure nor a timeout');
  });

  it('an image download failure: a status of three digits only, the URL up to the first blank', () => {
    const a = parseToolFailure(
      'Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP 4040 at http://a.cn/x.png then',
    );
    assert.ok(a instanceof errors.ImageDownloadError);
    assert.equal(a.status, undefined);
    assert.equal(a.url, 'http://a.cn/x.png');
    assert.equal(a.timedOut, false);
    const b = parseToolFailure('Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP  503');
    assert.ok(b instanceof errors.ImageDownloadError);
    assert.equal(b.status, 503);
  });
});
