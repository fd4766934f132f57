/**
 * Account and connection inside a real VS Code, against the local Shunong endpoint:
 * the three account commands (right key, wrong key, no key, endpoint down), the status bar
 * states, the http opt-in, and the single "Set API Key" offer on a rejected key.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { secretName, type Connection, type ConnectionState } from '../../../src/features/shared/connection';
import { admin, api, displayed, localEndpoint, setSetting, stub, until } from './helpers';

/** The extension's own SecretStorage (what another window of the same profile writes to). */
function secretsOf(connection: Connection): vscode.SecretStorage {
  return (connection as unknown as { context: vscode.ExtensionContext }).context.secrets;
}

/** Runs `change` and resolves once SecretStorage has reported it to the extension host. */
async function reported(secrets: vscode.SecretStorage, change: () => Thenable<void>): Promise<void> {
  const seen = new Promise<void>((resolve) => {
    const sub = secrets.onDidChange(() => {
      sub.dispose();
      resolve();
    });
  });
  await change();
  await seen;
}

/** Drives the real password input box of "Set API Key": types `key` and accepts. */
async function runSetApiKey(key: string): Promise<{ done: Promise<unknown>; box: vscode.InputBox }> {
  let box: vscode.InputBox | undefined;
  const s = stub(vscode.window, 'createInputBox', (() => {
    s.restore();
    box = vscode.window.createInputBox();
    return box;
  }) as typeof vscode.window.createInputBox);
  const done = Promise.resolve(vscode.commands.executeCommand('shunong.setApiKey'));
  await until(() => box !== undefined, 'the input box');
  const b = box as vscode.InputBox;
  assert.equal(b.password, true, 'the key is typed into a password box');
  b.value = key;
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  return { done, box: b };
}

suite('Account and connection', () => {
  const local = localEndpoint();

  teardown(async () => {
    await setSetting('endpoint', local.url);
    await setSetting('allowInsecureHttp', undefined);
    await admin({ rateLimit: null, fail5xx: null, latencyMs: 0 });
    const { connection } = await api();
    await connection.storeKey(local.key, local.url);
  });

  test('the development key is stored for the configured endpoint and the connection works', async () => {
    const { connection } = await api();
    assert.equal(connection.endpoint, local.url);
    assert.equal(await connection.getKey(), local.key);
    const state = await connection.check();
    assert.equal(state, 'connected');
    assert.deepEqual(connection.tools.map((t) => t.name).sort(), [
      'crop_growth_recognize',
      'get_current_time',
      'knowledge_search',
      'weather_search',
    ]);
  });

  test('"Show Connection Status" reports connected with the endpoint and the tools', async () => {
    const info = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    try {
      const state = await vscode.commands.executeCommand('shunong.showConnectionStatus');
      assert.equal(state, 'connected');
      const text = String(info.calls.at(-1)?.[0]);
      assert.match(text, /connected|已连接/);
      assert.ok(text.includes(local.url));
      assert.ok(text.includes('knowledge_search'));
      assert.ok(!text.includes(local.key), 'never the key');
    } finally {
      info.restore();
    }
  });

  test('"Set API Key" refuses a wrong key in the input box and keeps the old one', async () => {
    const { connection } = await api();
    const { done, box } = await runSetApiKey('sk_wrong_key_123');
    await until(() => Boolean(box.validationMessage), 'a validation message');
    const message = String(
      typeof box.validationMessage === 'string' ? box.validationMessage : box.validationMessage?.message,
    );
    assert.match(message, /rejected|拒绝/);
    assert.ok(!message.includes('sk_wrong_key_123'), 'the message never contains the key');
    box.hide();
    assert.equal(await done, false);
    assert.equal(await connection.getKey(), local.key, 'the stored key is unchanged');
  });

  test('"Set API Key" stores a right key after a real initialize, and the status turns connected', async () => {
    const { connection } = await api();
    await connection.clearKey();
    assert.equal(connection.state, 'no-key');
    const info = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    try {
      const secrets = secretsOf(connection);
      let reports = 0;
      const sub = secrets.onDidChange(() => reports++);
      try {
        const { done } = await runSetApiKey(local.key);
        assert.equal(await done, true);
        assert.equal(await connection.getKey(), local.key);
        assert.equal(connection.state, 'connected');
        // SecretStorage reports the store on its own schedule, possibly after the check: it must not undo it.
        await until(() => reports > 0, 'SecretStorage reporting the stored key');
        await connection.getKey();
        await new Promise((r) => setImmediate(r));
        assert.equal(connection.state, 'connected', 'still connected after SecretStorage reported the store');
      } finally {
        sub.dispose();
      }
    } finally {
      info.restore();
    }
  });

  test('a key stored by another window: the same key leaves the connection alone, a different one resets it', async () => {
    const { connection } = await api();
    const secrets = secretsOf(connection);
    assert.equal(await connection.check(), 'connected');
    const client = await connection.getClient();
    const states: ConnectionState[] = [];
    const sub = connection.onDidChangeState((s) => states.push(s));
    try {
      await reported(secrets, () => secrets.store(secretName(local.url), local.key));
      await connection.getKey();
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(states, [], 'no state change for the same key');
      assert.equal(connection.state, 'connected');
      assert.equal(await connection.getClient(), client, 'the client in use is kept');

      await reported(secrets, () => secrets.store(secretName(local.url), 'sk_from_another_window'));
      await until(() => connection.state === 'unchecked', 'the state to go back to "key set, not checked yet"');
      assert.equal(await connection.getKey(), 'sk_from_another_window');
      assert.notEqual(await connection.getClient(), client, 'a new client for the new key');
    } finally {
      sub.dispose();
    }
  });

  test('a call started while a new key is being stored runs with it and is not cut off by the reset', async () => {
    const { connection } = await api();
    await connection.clearKey();
    assert.equal(connection.state, 'no-key');
    // The key is known at once; SecretStorage's round trip and the reset after it come later,
    // while the call below is already talking to the endpoint with the new key.
    const storing = connection.storeKey(local.key);
    const call = connection.run((c) => c.listTools({ refresh: true }));
    await storing;
    const tools = await call;
    assert.equal(tools.length, 4, 'the call was answered');
    assert.equal(connection.state, 'connected', 'the reset kept the client made for that key');
    const client = await connection.getClient();
    await connection.reset();
    assert.equal(await connection.getClient(), client, 'a reset with nothing changed keeps the client');
    await setSetting('requestTimeoutMs', 12345);
    await until(async () => (await connection.getClient()) !== client, 'a new client for the new timeout');
    await setSetting('requestTimeoutMs', undefined);
  });

  test('"Clear API Key" removes only the key of the configured endpoint', async () => {
    const { connection } = await api();
    const other = 'https://ai.agriwis.com/mcp';
    await connection.storeKey('sk_platform_key', other);
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async (_m: string, _o: unknown, clear: string) => clear) as unknown as typeof vscode.window.showWarningMessage,
    );
    const info = stub(
      vscode.window,
      'showInformationMessage',
      (async () => undefined) as typeof vscode.window.showInformationMessage,
    );
    try {
      assert.equal(await vscode.commands.executeCommand('shunong.clearApiKey'), true);
    } finally {
      warn.restore();
      info.restore();
    }
    assert.equal(await connection.getKey(), undefined);
    assert.equal(connection.state, 'no-key');
    assert.equal(await connection.getKey(other), 'sk_platform_key', 'the platform key is kept');
    await connection.clearKey(other);
  });

  test('no key: a call fails with an actionable message and the state is "no key"', async () => {
    const { connection } = await api();
    await connection.clearKey();
    await assert.rejects(
      connection.run((c) => c.listTools()),
      (e: Error) => /Set API Key|设置 API 密钥/.test(e.message),
    );
    assert.equal(connection.state, 'no-key');
  });

  test('a command that fails: told once in the user\'s words (with "Set API Key"), and the command resolves', async () => {
    // The registry's guard: the weather brief's call fails for want of a key; the failure is not
    // thrown out of the command (VS Code's own "command failed" would follow) but said, once.
    const { connection } = await api();
    await connection.clearKey();
    const error = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as unknown as typeof vscode.window.showErrorMessage,
    );
    try {
      assert.equal(await vscode.commands.executeCommand('shunong.insertWeatherBrief', '成都'), undefined);
      await until(() => error.calls.length > 0, 'the error message');
      assert.deepEqual(error.calls, [
        [displayed('No API key is set for {0}. Run "Shunong: Set API Key".', local.url), displayed('Set API Key')],
      ]);
    } finally {
      error.restore();
    }
  });

  test('endpoint down: the state is "offline" and the message says what to check', async () => {
    const { connection } = await api();
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    const down = `http://127.0.0.1:${port}/mcp`;
    await setSetting('endpoint', down);
    await connection.storeKey(local.key, down);
    assert.equal(await connection.check(), 'offline');
    assert.match(connection.lastErrorMessage ?? '', /Cannot reach|无法连接/);
    await connection.clearKey(down);
  });

  test('rate limited: the state says so', async () => {
    const { connection } = await api();
    await connection.check();
    await admin({ rateLimit: { next: 50, retryAfterSec: 0 } });
    await assert.rejects(connection.run((c) => c.currentTime()));
    assert.equal(connection.state, 'rate-limited');
  });

  test('http to a non-loopback host is refused unless the user opted in', async () => {
    const { connection } = await api();
    const remote = 'http://shunong.test/mcp';
    await setSetting('endpoint', remote);
    await until(() => connection.state === 'insecure', 'the insecure state');
    await assert.rejects(
      connection.run((c) => c.listTools()),
      (e: Error) => /allowInsecureHttp/.test(e.message),
    );
    await setSetting('allowInsecureHttp', true);
    await until(() => connection.state === 'no-key', 'the opt-in to take effect');
  });

  test('a search with a rejected key shows one message, with "Set API Key", not a second offer beside it', async () => {
    const { connection } = await api();
    await connection.storeKey('sk_revoked_key_456');
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    const error = stub(
      vscode.window,
      'showErrorMessage',
      (async () => undefined) as typeof vscode.window.showErrorMessage,
    );
    try {
      const result = await vscode.commands.executeCommand<{ status: string }>('shunong.searchKnowledge', {
        query: '茶树修剪技术要点',
        kbCode: 'TEA_MANAGER_001',
      });
      assert.equal(result.status, 'error');
      assert.equal(connection.state, 'key-rejected');
      await until(() => error.calls.length === 1, 'the error message');
      assert.match(String(error.calls[0]?.[1]), /Set API Key|设置 API 密钥/, 'the button');
      assert.deepEqual(warn.calls, [], 'no second offer');
    } finally {
      warn.restore();
      error.restore();
    }
  });

  test('a rejected key offers "Set API Key" once, not once per call', async () => {
    const { connection } = await api();
    await connection.storeKey('sk_revoked_key_456');
    const warn = stub(
      vscode.window,
      'showWarningMessage',
      (async () => undefined) as typeof vscode.window.showWarningMessage,
    );
    try {
      for (let i = 0; i < 3; i++) await assert.rejects(connection.run((c) => c.currentTime()));
      assert.equal(connection.state, 'key-rejected');
      assert.equal(warn.calls.length, 1);
      assert.ok(!JSON.stringify(warn.calls).includes('sk_revoked_key_456'));
    } finally {
      warn.restore();
    }
  });
});
