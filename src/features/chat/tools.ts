/**
 * The language model tools (`contributes.languageModelTools` + `vscode.lm.registerTool`): VS Code's
 * chat and agent mode call the platform through the shared connection. Each asks for confirmation
 * naming the endpoint and the arguments it will send (the search's with the settings it adds to the
 * model's); each result is one text part (see calls.ts). The manifest
 * offers them only while a key is set (`when: shunong.hasKey`); `shunong.chat.tools` off
 * unregisters them.
 */
import vscode = require('vscode');
import {
  currentTime,
  recognizeCrop,
  searchKnowledge,
  searchOptionsOf,
  weather,
  type CallAnswer,
  type CallServices,
  type RecognizeInput,
  type SearchInput,
  type TimeInput,
  type WeatherInput,
} from './calls';

/** The tool names, as package.json declares them. */
export const TOOL_NAMES = {
  search: 'shunong_searchKnowledge',
  weather: 'shunong_weather',
  time: 'shunong_currentTime',
  recognize: 'shunong_recognizeCrop',
} as const;

type Call<I> = (services: CallServices, input: I, token: vscode.CancellationToken) => Promise<CallAnswer>;

/** The arguments as the confirmation shows them: one `name: value` line each, as plain text. */
function argumentLines(input: object): string {
  const lines = Object.entries(input)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return lines.length ? lines.join('\n') : vscode.l10n.t('(no arguments)');
}

/** One tool: a title for its confirmation, and the call. */
class ShunongTool<I extends object> implements vscode.LanguageModelTool<I> {
  constructor(
    private readonly services: CallServices,
    private readonly title: () => string,
    private readonly call: Call<I>,
    /** The arguments the call will send, when it adds to the model's (the search's settings). */
    private readonly sent: (input: I) => object = (input) => input,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<I>): vscode.PreparedToolInvocation {
    const endpoint = this.services.connection.endpoint;
    const message = new vscode.MarkdownString();
    message.appendText(vscode.l10n.t('Send this request to the Shunong platform at {0}?', endpoint));
    message.appendMarkdown('\n\n');
    message.appendCodeblock(argumentLines(this.sent(options.input)), 'text');
    return {
      invocationMessage: vscode.l10n.t('Asking the Shunong platform at {0}…', endpoint),
      confirmationMessages: { title: this.title(), message },
    };
  }

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<I>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const answer = await this.call(this.services, options.input ?? ({} as I), token);
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(answer.text)]);
  }
}

/** The four tools, by name. */
export function createTools(services: CallServices): ReadonlyMap<string, vscode.LanguageModelTool<object>> {
  const tools: [string, vscode.LanguageModelTool<object>][] = [
    [
      TOOL_NAMES.search,
      new ShunongTool<SearchInput>(
        services,
        () => vscode.l10n.t('Search the Shunong knowledge base'),
        searchKnowledge,
        (input) => {
          const search = searchOptionsOf(input);
          return 'options' in search ? search.options : input;
        },
      ),
    ],
    [TOOL_NAMES.weather, new ShunongTool<WeatherInput>(services, () => vscode.l10n.t('Shunong weather'), weather)],
    [
      TOOL_NAMES.time,
      new ShunongTool<TimeInput>(services, () => vscode.l10n.t('Shunong date and solar term'), currentTime),
    ],
    [
      TOOL_NAMES.recognize,
      new ShunongTool<RecognizeInput>(services, () => vscode.l10n.t('Recognise a crop photo'), recognizeCrop),
    ],
  ];
  return new Map(tools);
}

/** Registers the tools; dispose to unregister them. */
export function registerTools(tools: ReadonlyMap<string, vscode.LanguageModelTool<object>>): vscode.Disposable {
  return vscode.Disposable.from(...[...tools].map(([name, tool]) => vscode.lm.registerTool(name, tool)));
}
