/**
 * Account and connection: "Set API Key", "Clear API Key", "Show Connection Status" and the
 * status bar item. The key lives only in SecretStorage (see Connection).
 */
import vscode = require('vscode');
import { endpointProblem } from '../../shunong/endpoint';
import { plainForMarkdown } from '../../text/plain';
import type { CommandRegistry } from '../shared/commands';
import type { Connection, ConnectionState } from '../shared/connection';
import { settings } from '../shared/settings';
import { withCancellableProgress } from '../shared/progress';

/** Text, icon and accessible label of each connection state. */
function statusPresentation(state: ConnectionState): { icon: string; label: string; error: boolean } {
  switch (state) {
    case 'connected':
      return { icon: '$(pass-filled)', label: vscode.l10n.t('Shunong: connected'), error: false };
    case 'no-key':
      return { icon: '$(key)', label: vscode.l10n.t('Shunong: no API key'), error: true };
    case 'key-rejected':
      return { icon: '$(error)', label: vscode.l10n.t('Shunong: key rejected'), error: true };
    case 'offline':
      return { icon: '$(cloud-offline)', label: vscode.l10n.t('Shunong: offline'), error: true };
    case 'rate-limited':
      return { icon: '$(watch)', label: vscode.l10n.t('Shunong: rate limited'), error: true };
    case 'insecure':
      return { icon: '$(shield)', label: vscode.l10n.t('Shunong: endpoint not allowed'), error: true };
    case 'checking':
      return { icon: '$(sync~spin)', label: vscode.l10n.t('Shunong: checking…'), error: false };
    case 'unchecked':
      return { icon: '$(cloud)', label: vscode.l10n.t('Shunong: key set, not checked yet'), error: false };
  }
}

/** What the account feature registered. */
export interface Account {
  /** The connection's status bar item. */
  readonly statusBar: vscode.StatusBarItem;
}

/** Registers the account commands and the status bar item. */
export function activate(
  context: vscode.ExtensionContext,
  services: { readonly connection: Connection; readonly commands: CommandRegistry },
): Account {
  const { connection } = services;
  const item = vscode.window.createStatusBarItem('shunong.connection', vscode.StatusBarAlignment.Right, 100);
  item.name = vscode.l10n.t('Shunong connection');
  item.command = 'shunong.showConnectionStatus';
  const render = (): void => {
    const p = statusPresentation(connection.state);
    item.text = `${p.icon} ${vscode.l10n.t('Shunong')}`;
    item.accessibilityInformation = { label: p.label, role: 'button' };
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(plainForMarkdown(`${p.label}\n\n${connection.endpoint}`));
    if (connection.lastErrorMessage) tooltip.appendText(plainForMarkdown(`\n\n${connection.lastErrorMessage}`));
    tooltip.appendText(plainForMarkdown(`\n\n${vscode.l10n.t('Click for details.')}`));
    item.tooltip = tooltip;
    item.backgroundColor =
      p.error && connection.state !== 'no-key' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    void vscode.commands.executeCommand('setContext', 'shunong.state', connection.state);
    void vscode.commands.executeCommand(
      'setContext',
      'shunong.hasKey',
      connection.state !== 'no-key' && connection.state !== 'insecure',
    );
  };
  render();
  item.show();

  context.subscriptions.push(item, connection.onDidChangeState(render));
  services.commands.register(
    { id: 'shunong.setApiKey', run: () => setApiKey(connection) },
    { id: 'shunong.clearApiKey', run: () => clearApiKey(connection) },
    { id: 'shunong.showConnectionStatus', run: () => showConnectionStatus(connection) },
  );
  return { statusBar: item };
}

/**
 * Asks for the key in a password box, checks it with a real initialize against the configured
 * endpoint, and stores it only when the endpoint accepts it. Returns true when a key was stored.
 */
async function setApiKey(connection: Connection): Promise<boolean> {
  const s = settings.connection();
  const problem = endpointProblem(s.endpoint, s.allowInsecureHttp);
  if (problem) {
    await connection.reset();
    void vscode.window.showErrorMessage(connection.lastErrorMessage ?? s.endpoint);
    return false;
  }
  const input = keyInput(s.endpoint);
  try {
    return await askForKey(input, connection, s.endpoint);
  } finally {
    input.dispose();
  }
}

/** Creates the password box that asks for the key of `endpoint`. */
function keyInput(endpoint: string): vscode.InputBox {
  const input = vscode.window.createInputBox();
  input.title = vscode.l10n.t('Shunong: Set API Key');
  input.prompt = vscode.l10n.t('API key for {0}. It is stored in VS Code SecretStorage only.', endpoint);
  input.placeholder = 'sk_…';
  input.password = true;
  input.ignoreFocusOut = true;
  return input;
}

/** What is wrong with a typed key before it is sent, or undefined when nothing is. */
function keyProblem(key: string): string | undefined {
  if (!key) return vscode.l10n.t('Enter the API key (it usually starts with sk_).');
  if (/\s/.test(key)) return vscode.l10n.t('An API key has no spaces. Paste the key only.');
  return undefined;
}

/** Shows the box until a key the endpoint accepts is stored (true) or the box is hidden (false). */
function askForKey(input: vscode.InputBox, connection: Connection, endpoint: string): Promise<boolean> {
  let abort: AbortController | undefined;
  return new Promise<boolean>((resolve) => {
    let done = false;
    const finish = (v: boolean): void => {
      if (done) return;
      done = true;
      resolve(v);
      input.hide();
    };
    input.onDidChangeValue(() => {
      input.validationMessage = undefined;
    });
    input.onDidHide(() => {
      abort?.abort();
      finish(false);
    });
    input.onDidAccept(async () => {
      const key = input.value.trim();
      const problem = keyProblem(key);
      if (problem) {
        input.validationMessage = problem;
        return;
      }
      input.busy = true;
      input.enabled = false;
      abort = new AbortController();
      const result = await connection.verifyKey(key, endpoint, abort.signal);
      input.busy = false;
      input.enabled = true;
      if (done) return;
      if (!result.ok) {
        input.validationMessage = result.message;
        return;
      }
      await connection.storeKey(key, endpoint);
      await connection.check();
      finish(true);
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Connected to {0}. Tools: {1}.', endpoint, result.tools.map((t) => t.name).join(', ')),
      );
    });
    input.show();
  });
}

/** Deletes the key of the configured endpoint after confirmation. */
async function clearApiKey(connection: Connection, confirm = true): Promise<boolean> {
  if (!(await connection.getKey())) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No API key is stored for {0}.', connection.endpoint));
    return false;
  }
  if (confirm) {
    const clear = vscode.l10n.t('Clear');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the API key for {0} from this machine?', connection.endpoint),
      { modal: true },
      clear,
    );
    if (choice !== clear) return false;
  }
  await connection.clearKey();
  void vscode.window.showInformationMessage(vscode.l10n.t('The API key for {0} was removed.', connection.endpoint));
  return true;
}

/** Checks the connection and shows the endpoint, the state and the tools it sees. */
async function showConnectionStatus(connection: Connection): Promise<ConnectionState> {
  const state = await withCancellableProgress(vscode.l10n.t('Checking the Shunong connection…'), async (signal) =>
    connection.state === 'no-key' || connection.state === 'insecure' ? connection.state : connection.check(signal),
  );
  const p = statusPresentation(state);
  const lines = [p.label, vscode.l10n.t('Endpoint: {0}', connection.endpoint)];
  if (state === 'connected') lines.push(vscode.l10n.t('Tools: {0}', connection.tools.map((t) => t.name).join(', ')));
  if (connection.lastErrorMessage) lines.push(connection.lastErrorMessage);
  const actions: string[] = [];
  const setKey = vscode.l10n.t('Set API Key');
  const openSettings = vscode.l10n.t('Open Settings');
  if (state !== 'connected') actions.push(setKey);
  actions.push(openSettings);
  const show = p.error ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void show(lines.join(' — '), ...actions).then((choice) => {
    if (choice === setKey) return vscode.commands.executeCommand('shunong.setApiKey');
    if (choice === openSettings) return vscode.commands.executeCommand('workbench.action.openSettings', 'shunong.');
    return undefined;
  });
  return state;
}
