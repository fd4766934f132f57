import * as assert from 'node:assert/strict';
import { endpointId, endpointProblem, isLoopbackHost } from '../../../src/features/account/endpoint';

describe('endpoint rules for the API key', () => {
  it('keys SecretStorage by a normalised endpoint', () => {
    assert.equal(endpointId('https://ai.agriwis.com/mcp'), 'https://ai.agriwis.com/mcp');
    assert.equal(endpointId(' https://AI.agriwis.com/mcp/ '), 'https://ai.agriwis.com/mcp');
    assert.notEqual(endpointId('http://127.0.0.1:7331/mcp'), endpointId('https://ai.agriwis.com/mcp'));
  });

  it('knows loopback hosts', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '[::1]', '::1']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.0.0.1', '192.168.1.2', 'example.com', '127.0.0.1.example.com'])
      assert.ok(!isLoopbackHost(h), h);
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
