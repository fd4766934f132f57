/**
 * Starter integration test: the extension is loaded into a real VS Code extension host and
 * activates; the host is what we think it is. Runs under code-server (web workbench, Node
 * extension host on the server) and under @vscode/test-electron (desktop) alike.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { StandIn } from '../../../src/features/shared/standIn';
import { LazyCommands, type ExtensionExports } from '../../../src/extension';
import { api, displayed } from './helpers';

const EXTENSION_ID = 'shunong-authors.shunong-vscode';

/** `1.100.3` → [1, 100, 3] (pre-release suffixes ignored). */
function versionParts(v: string): number[] {
  return v
    .split(/[.-]/)
    .slice(0, 3)
    .map((p) => Number.parseInt(p, 10));
}

suite('Activation', () => {
  test('the extension is present', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    const pkg = ext.packageJSON as { name: string; publisher: string; main: string };
    assert.equal(pkg.publisher, 'shunong-authors');
    assert.equal(pkg.name, 'shunong-vscode');
    assert.equal(pkg.main, './dist/extension.js');
  });

  test('it activates, and its features load without error', async () => {
    const ext = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
    assert.ok(ext);
    const exports = await ext.activate();
    assert.equal(ext.isActive, true);
    await exports.loaded;
    // A getter of the features' API loads them again if they failed to: it throws what they threw.
    assert.ok(exports.connection, 'the features are loaded');
  });

  test('it runs in the Node extension host, and never activates on "*"', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    assert.equal(ext.extensionKind, vscode.ExtensionKind.Workspace);
    assert.equal(typeof process.versions.node, 'string');
    const events = (ext.packageJSON as { activationEvents?: string[] }).activationEvents ?? [];
    assert.ok(!events.includes('*'), 'activation must come from contributions, not "*"');
  });

  test('the host is a real VS Code no older than our engines.vscode', () => {
    const [major = 0, minor = 0] = versionParts(vscode.version);
    assert.ok(major > 1 || (major === 1 && minor >= 100), `VS Code ${vscode.version} is older than 1.100`);
    assert.ok([vscode.UIKind.Desktop, vscode.UIKind.Web].includes(vscode.env.uiKind));
    assert.ok(vscode.env.appName.length > 0);
    assert.ok(vscode.env.machineId.length > 0);
    assert.match(vscode.env.language, /^[a-z]{2}/);
  });

  test("the sample workspace is open (the run's own copy of test/fixtures/workspace)", () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1, 'exactly one workspace folder');
    const sample = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'workspace');
    const open = path(folders[0]!.uri);
    assert.notEqual(open, sample, 'a copy, not the tracked folder');
    for (const entry of fs.readdirSync(sample, { recursive: true, encoding: 'utf8' }))
      if (!entry.startsWith('.')) assert.ok(fs.existsSync(join(open, entry)), `the copy holds ${entry}`);
  });
});

/** A URI's path without a trailing slash. */
function path(uri: vscode.Uri): string {
  return uri.path.replace(/\/$/, '');
}

suite('Activation: one path, one copy of the error classes', () => {
  test('the suite runs the activation users get: Test mode, the features loaded after activation', async () => {
    const exports = await api();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    assert.ok(ext.isActive);
    const loaded = Object.keys(require.cache).filter((f) => f.startsWith(join(ext.extensionPath, 'dist')));
    assert.ok(
      loaded.some((f) => f.endsWith('features.js')),
      `the features bundle is loaded: ${loaded.join(', ')}`,
    );
    assert.notEqual(exports.connection.state, 'checking', 'the idle state is known once `loaded` settles');
  });

  test('a failure thrown by the platform bundle is an instance of the class every other bundle sees', () => {
    const dist = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'dist');
    const load = (name: string): Record<string, unknown> =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(join(dist, name)) as Record<string, unknown>;
    const errors = load('errors.js');
    const platform = load('platform.js');
    assert.equal(platform['CancelledError'], errors['CancelledError']);
    const Cancelled = errors['CancelledError'] as new () => Error;
    const Base = errors['ShunongError'] as abstract new () => Error;
    assert.ok(new Cancelled() instanceof Base);
    // Only dist/errors.js holds the classes (the command line, its own process, keeps its copy).
    const copies = fs
      .readdirSync(dist)
      .filter((f) => f.endsWith('.js') && f !== 'cli.js')
      .filter((f) => fs.readFileSync(join(dist, f), 'utf8').includes('The Shunong request was cancelled.'));
    assert.deepEqual(copies, ['errors.js']);
  });
});

suite('Activation: command stand-ins', () => {
  // The features load after activation, once the open bulletins' Problems are published; a command
  // run before that goes through a stand-in. Exercised here on commands of our own, in the real
  // command registry.
  const ids = ['shunong.test.lazyA', 'shunong.test.lazyB'];
  const disposables: vscode.Disposable[] = [];
  teardown(() => {
    for (const d of disposables.splice(0)) d.dispose();
  });

  test('a stand-in loads once, the real commands take over, and the call gets the real result', async () => {
    let loads = 0;
    const lazy = new LazyCommands(ids, () => {
      loads++;
      disposables.push(
        vscode.commands.registerCommand('shunong.test.lazyA', (x: number) => x * 2),
        vscode.commands.registerCommand('shunong.test.lazyB', () => 'b'),
      );
      return { loads };
    });
    lazy.stubCommands();
    const registered = await vscode.commands.getCommands(true);
    assert.ok(
      ids.every((id) => registered.includes(id)),
      'the stand-ins are registered',
    );
    assert.equal(loads, 0, 'nothing is loaded before a command runs');

    assert.equal(await vscode.commands.executeCommand<number>('shunong.test.lazyA', 21), 42);
    assert.equal(await vscode.commands.executeCommand<string>('shunong.test.lazyB'), 'b');
    assert.equal(loads, 1, 'loaded exactly once');
    assert.deepEqual(lazy.load(), { loads: 1 });
  });

  test('a stand-in whose load fails reports the error, and leaves no stand-in behind', async () => {
    const lazy = new LazyCommands(['shunong.test.lazyBroken'], () => {
      throw new Error('bundle missing');
    });
    lazy.stubCommands();
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand('shunong.test.lazyBroken')), /bundle missing/);
    assert.ok(!(await vscode.commands.getCommands(true)).includes('shunong.test.lazyBroken'));
  });

  test('every command the manifest contributes is registered by the features once they have loaded', async () => {
    // Waiting for `loaded`: until then the stand-ins answer for every contributed command, and
    // loading the features disposes them, so what is registered after it is the features' own.
    await api();
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    const contributed = (
      ext.packageJSON as { contributes: { commands: { command: string }[] } }
    ).contributes.commands.map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((c) => !registered.has(c)),
      [],
    );
    // …and by the one registry: exactly the manifest's commands, both ways.
    assert.deepEqual([...(await api()).commands].sort(), [...contributed].sort());
  });
});

suite('Activation: chat stand-ins', () => {
  // VS Code's chat may call a tool, the participant or the MCP provider the moment activation
  // returns, before the features have loaded: a stand-in registered at activation loads the
  // features and delegates to what they take it over with. Exercised here with a command of our
  // own as the registration.
  const id = 'shunong.test.standIn';
  const disposables: vscode.Disposable[] = [];
  teardown(() => {
    for (const d of disposables.splice(0)) d.dispose();
  });

  test('the first call loads once; the registration is the same before and after the take-over', async () => {
    let loads = 0;
    let registrations = 0;
    const standIn: StandIn<(x: number) => number> = new StandIn(
      () => {
        loads++;
        disposables.push(standIn.take((x) => x * 2)!);
      },
      (current) => {
        registrations++;
        return vscode.commands.registerCommand(id, (x: number) => current()(x));
      },
    );
    disposables.push(standIn);
    assert.equal(loads, 0, 'nothing is loaded before a call');
    assert.equal(await vscode.commands.executeCommand<number>(id, 21), 42);
    assert.equal(await vscode.commands.executeCommand<number>(id, 2), 4);
    assert.equal(loads, 1, 'loaded exactly once');
    assert.equal(registrations, 1, 'never registered a second time');
    assert.equal(
      standIn.take((x) => x),
      undefined,
      'taken only once',
    );
    disposables.pop()!.dispose(); // the features remove it (their setting turned off)
    assert.ok(!(await vscode.commands.getCommands(true)).includes(id));
  });

  test('features that do not take it over (their setting off): the call says so; released, it is gone', async () => {
    const standIn = new StandIn<() => string>(
      () => undefined,
      (current) => vscode.commands.registerCommand(id, () => current()()),
    );
    disposables.push(standIn);
    // (In the display language once the extension is active: the host loads an extension's l10n
    // bundle when it activates it, and this suite may run before anything activated it.)
    const why = "This part of Shunong's chat support is turned off or not available here.";
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand(id)), (e: Error) =>
      [why, displayed(why)].includes(e.message),
    );
    standIn.dispose();
    assert.ok(!(await vscode.commands.getCommands(true)).includes(id));
  });
});
