import * as assert from 'node:assert/strict';
import { DEFAULT_ENDPOINT, endpointId, endpointProblem, isLoopbackHost } from '../../../src/shunong/endpoint';
import * as platform from '../../../src/shunong/index';

describe('endpoint rules for the API key', () => {
  it('keys SecretStorage by a normalised endpoint', () => {
    assert.equal(endpointId('https://ai.agriwis.com/mcp'), 'https://ai.agriwis.com/mcp');
    assert.equal(endpointId(' https://AI.agriwis.com/mcp/ '), 'https://ai.agriwis.com/mcp');
    assert.notEqual(endpointId('http://127.0.0.1:7331/mcp'), endpointId('https://ai.agriwis.com/mcp'));
    // trimmed as a string first: a no-break space (pasted from a web page) is not the URL parser's to drop
    assert.equal(endpointId('\u00a0https://ai.agriwis.com/mcp/#top\u00a0'), 'https://ai.agriwis.com/mcp');
    assert.equal(endpointId('  not a url\u00a0'), 'not a url', 'what is not a URL is its trimmed text');
    assert.equal(endpointProblem('\u00a0https://ai.agriwis.com/mcp\u00a0', false), undefined);
  });

  it('knows loopback hosts', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '127.10.200.255', 'localhost', '[::1]', '::1'])
      assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.0.0.1', '192.168.1.2', 'example.com', '127.0.0.1.example.com', 'x127.0.0.1', '1127.0.0.1'])
      assert.ok(!isLoopbackHost(h), h);
  });

  it('treats *.localhost as loopback (RFC 6761), and only that suffix', () => {
    for (const h of ['app.localhost', 'A.B.LOCALHOST']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['localhost.example.com', 'notlocalhost', 'localhost.evil', 'xlocalhost.com'])
      assert.ok(!isLoopbackHost(h), h);
    assert.equal(endpointProblem('http://app.localhost:7331/mcp', false), undefined);
    assert.equal(endpointProblem('http://localhost.example.com/mcp', false), 'insecure-http');
  });

  it('is the one rule the platform exports', () => {
    assert.equal(platform.isLoopbackHost, isLoopbackHost);
    assert.equal(platform.DEFAULT_ENDPOINT, DEFAULT_ENDPOINT);
  });

  it('never sends the key over plain http to a non-loopback host unless opted in', () => {
    assert.equal(endpointProblem('https://ai.agriwis.com/mcp', false), undefined);
    assert.equal(endpointProblem('http://127.0.0.1:7331/mcp', false), undefined);
    assert.equal(endpointProblem('http://localhost:7331/mcp', false), undefined);
    assert.equal(endpointProblem('http://ai.agriwis.com/mcp', false), 'insecure-http');
    assert.equal(endpointProblem('http://ai.agriwis.com/mcp', true), undefined);
    assert.equal(endpointProblem('ftp://ai.agriwis.com/mcp', true), 'unsupported-scheme');
    assert.equal(endpointProblem('not a url', false), 'invalid-url');
  });
});
