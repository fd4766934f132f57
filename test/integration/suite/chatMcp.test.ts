/**
 * The platform's MCP server in VS Code's MCP list: the provider's definitions and their resolution
 * (key present, absent, changed), and VS Code's own MCP client listing and calling the local
 * endpoint's tools through what we provide (the platform answers its GET with 400).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, enableAIFeatures, endpointRequests, localEndpoint, until } from './helpers';

const SERVER_ID = 'shunong-authors.shunong-vscode/Shunong';
const none = new vscode.CancellationTokenSource().token;

suite('chat: MCP server definition provider', function () {
  suiteSetup(async function () {
    const lm = vscode.lm as unknown as { registerMcpServerDefinitionProvider?: unknown };
    let has = false;
    try {
      has = typeof lm.registerMcpServerDefinitionProvider === 'function';
    } catch {
      has = false;
    }
    // 1.100: the API is a proposed one (mcpConfigurationProvider) that throws for us.
    const { chat } = await api();
    if (!has || !chat.registered().mcpServer) {
      assert.ok(vscode.version.startsWith('1.100.'), `no MCP provider on ${vscode.version}`);
      this.skip();
    }
    await enableAIFeatures();
  });

  test('one definition for the endpoint, without the key; resolution adds the key as the Authorization header', async () => {
    const { chat } = await api();
    const local = localEndpoint();
    const provider = chat.mcpProvider()!;
    const defs = await provider.provideMcpServerDefinitions();
    assert.equal(defs.length, 1);
    const def = defs[0]!;
    assert.equal(def.label, 'Shunong');
    assert.equal(def.uri.toString(), vscode.Uri.parse(local.url).toString());
    assert.deepEqual(def.headers, {});
    const resolved = await provider.resolveMcpServerDefinition(def);
    assert.deepEqual(resolved?.headers, { Authorization: `Bearer ${local.key}` });
  });

  // Before the key changes below: a definition changed while VS Code starts the server replaces it.
  test("VS Code's own MCP client lists and calls the endpoint's tools through our definition (its GET answered 400)", async function () {
    this.timeout(60_000);
    const before = (await endpointRequests()).length;
    await vscode.commands.executeCommand('workbench.mcp.startServer', SERVER_ID, { waitForLiveTools: true });
    try {
      let names: string[] = [];
      for (let i = 0; i < 400 && names.length === 0; i++) {
        names = vscode.lm.tools.map((t) => t.name).filter((n) => /knowledge_search/.test(n));
        if (names.length === 0) await new Promise((r) => setTimeout(r, 50));
      }
      const log = (await endpointRequests()).slice(before).map((r) => `${r.rpcMethod ?? r.path}:${r.status}`);
      assert.ok(names.length > 0, `no MCP tool in vscode.lm.tools; the endpoint saw ${log.join(', ')}`);
      const mcpTools = vscode.lm.tools.filter((t) =>
        /weather_search|get_current_time|crop_growth_recognize|knowledge_search/.test(t.name),
      );
      assert.equal(mcpTools.length, 4, mcpTools.map((t) => t.name).join(', '));
      const result = await vscode.lm.invokeTool(
        names[0]!,
        { input: { query: '茶树修剪技术要点', kbCode: 'TEA_MANAGER_001', topK: 2 }, toolInvocationToken: undefined },
        none,
      );
      const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      assert.match(text, /"kb_code":\s*"TEA_MANAGER_001"/);
      const seen = (await endpointRequests()).slice(before);
      assert.ok(
        seen.some((r) => r.rpcMethod === 'initialize' && r.status === 200),
        'initialize',
      );
      assert.ok(
        seen.some((r) => r.rpcMethod === 'tools/call' && r.tool === 'knowledge_search' && r.status === 200),
        'the call',
      );
      const get = seen.find((r) => r.rpcMethod === undefined && r.status === 400);
      assert.ok(get, `the GET answered 400: ${JSON.stringify(seen.map((r) => [r.rpcMethod, r.status]))}`);
    } finally {
      await vscode.commands.executeCommand('workbench.mcp.stopServer', SERVER_ID);
    }
  });
  test('no key: no definition, nothing resolved, and a change is announced both ways', async () => {
    const { chat, connection } = await api();
    const local = localEndpoint();
    const provider = chat.mcpProvider()!;
    const [def] = await provider.provideMcpServerDefinitions();
    let changes = 0;
    const sub = provider.onDidChangeMcpServerDefinitions(() => changes++);
    try {
      await connection.clearKey();
      await until(() => changes >= 1, 'a change when the key is cleared');
      assert.deepEqual(await provider.provideMcpServerDefinitions(), []);
      assert.equal(await provider.resolveMcpServerDefinition(def!), undefined);
    } finally {
      await connection.storeKey(local.key, local.url);
    }
    await until(() => changes >= 2, 'a change when the key is back');
    sub.dispose();
    assert.equal((await provider.provideMcpServerDefinitions()).length, 1);
  });

  test('a changed key: a new version, and resolution hands the new key', async () => {
    const { chat, connection } = await api();
    const local = localEndpoint();
    const provider = chat.mcpProvider()!;
    const [before] = await provider.provideMcpServerDefinitions();
    try {
      await connection.storeKey('sk_changed_for_test', local.url);
      await until(
        async () => (await provider.provideMcpServerDefinitions())[0]?.version !== before!.version,
        'a new version',
      );
      const [after] = await provider.provideMcpServerDefinitions();
      assert.deepEqual((await provider.resolveMcpServerDefinition(after!))?.headers, {
        Authorization: 'Bearer sk_changed_for_test',
      });
    } finally {
      // Back to the suite's key, and wait for its change to be announced: a change arriving while VS
      // Code starts the server (next test) replaces the server it is starting.
      const announced = new Promise<void>((resolve) => {
        const sub = provider.onDidChangeMcpServerDefinitions(() => {
          sub.dispose();
          resolve();
        });
      });
      await connection.storeKey(local.key, local.url);
      await announced;
    }
  });
});
