/**
 * Every `shunong.*` setting: its type, its default (the same as package.json's
 * `contributes.configuration`, checked by a unit test) and its validation. Raw values come in as
 * `unknown` (whatever the user wrote in settings.json) and typed settings come out, each one
 * validated, clamped to the range package.json declares, and defaulted here, once. No `vscode`:
 * src/features/shared/settings.ts is the one place that reads the configuration and hands the raw
 * values to these functions.
 */
import { DEFAULT_THRESHOLDS } from '../bulletin/thresholds';
import type { InsertLanguageSetting } from '../bulletin/language';
import { DEFAULT_ENDPOINT } from '../shunong/endpoint';
import type { RecognitionType } from '../shunong/schemas';

/** Reads one raw value by its key below `shunong.` (e.g. `knowledge.topK`); undefined when unset. */
export type RawSettings = (key: string) => unknown;

/** The connection (application scope, so a workspace cannot redirect the key). */
export interface ConnectionSettings {
  readonly endpoint: string;
  readonly allowInsecureHttp: boolean;
  readonly requestTimeoutMs: number;
}

/** The knowledge search (`shunong.knowledge.*`). */
export interface KnowledgeSettings {
  /** 1–20, rounded. */
  readonly topK: number;
  /** 0–1. */
  readonly scoreThreshold: number;
  readonly useRerank: boolean;
  /** Trimmed; '' = the endpoint's default knowledge base. */
  readonly defaultKbCode: string;
  /** Results update while the query is typed in the free-text search. */
  readonly searchAsYouType: boolean;
  /** The user's additions to the vocabulary, as written (the knowledge layer validates it and reports problems). */
  readonly vocabulary: unknown;
}

/** How citations are written (`shunong.citations.*`). */
export interface CitationSettings {
  readonly style: 'footnote' | 'inline';
  /** As the author set it, trimmed of a leading `#`s; '' = by the document's language (参考资料 or References). */
  readonly referencesHeading: string;
  readonly snippetAs: 'blockquote' | 'paragraph';
  readonly diagnostics: boolean;
}

/** Image recognition (`shunong.recognition.*`). */
export interface RecognitionSettings {
  /** The model to use, or `ask` to ask each time. */
  readonly defaultType: 'ask' | RecognitionType;
  /** Relative to the workspace folder as written (trimmed, never empty); the feature checks it stays inside. */
  readonly saveFolder: string;
}

/** The weather brief (`shunong.weather.*`). */
export interface WeatherSettings {
  readonly defaultLocation: string;
  readonly farmNotes: boolean;
  readonly frostBelowC: number;
  readonly heatAboveC: number;
  /** 0–100. */
  readonly humidPercent: number;
  /** 2–7, rounded. */
  readonly minRunDays: number;
}

/** The calendar line and its status bar item (`shunong.calendar.*`). */
export interface CalendarSettings {
  /** Application scope. */
  readonly statusBar: boolean;
  /** '' = the built-in line. */
  readonly format: string;
}

/** New bulletins (`shunong.bulletin.*`). */
export interface BulletinSettings {
  /** Trimmed path of the template ('' = the built-in template). */
  readonly template: string;
}

/** The language of text written into documents (`shunong.insertLanguage`). */
export interface LanguageSettings {
  /** `auto`: the document's `lang:`, else its prose, else the UI language. */
  readonly insertLanguage: InsertLanguageSetting;
}

/** `export.officialFonts`: 仿宋 (`body`), 小标宋 (`title`), 黑体 (`heading`), 楷体 (`subheading`). */
export interface OfficialFontSettings {
  readonly body?: string;
  readonly title?: string;
  readonly heading?: string;
  readonly subheading?: string;
}

/** The keys of `export.officialFonts`. */
const OFFICIAL_FONT_KEYS = ['body', 'title', 'heading', 'subheading'] as const;

/** Publishing (`shunong.export.*`). */
export interface ExportSettings {
  /** `footnotes`: Word footnotes; `list`: a numbered references list. */
  readonly citations: 'footnotes' | 'list';
  /** The layout of a Word or PDF export (a bulletin's front matter `layout:` wins over it). */
  readonly layout: 'standard' | 'official';
  /** The station's fonts in place of the official layout's (trimmed; a blank or absent key keeps the standard's). */
  readonly officialFonts: OfficialFontSettings;
  /** Trimmed workspace-relative path of a .docx whose styles Word exports use ('' = the built-in styles). */
  readonly docxTemplate: string;
  /** Refuse to export a bulletin with broken citations (else export it with a warning that lists them). */
  readonly refuseBrokenCitations: boolean;
  /** Refuse to export a bulletin that recommends a pesticide banned on its date (else ask before exporting it). */
  readonly refuseUnsafe: boolean;
  /** Where a station hosts a WeChat article's pictures (http(s), no trailing slash; '' = pictures embedded). */
  readonly imageBaseUrl: string;
  /** The browser that prints PDF (trimmed; '' = the one found where browsers install). Machine scope. */
  readonly browserPath: string;
  /** How long the browser may take to print a PDF before it is stopped: 1000–600000 ms. */
  readonly pdfTimeoutMs: number;
}

/** Pesticide safety (`shunong.safety.*`). */
export interface SafetySettings {
  /** Trimmed workspace-relative path of a station's own rules file ('' = the shipped rules only). */
  readonly rulesFile: string;
}

/** The dose check (`shunong.dose.*`). */
export interface DoseSettings {
  /** How a dose recommended without a source, and a cited passage not at hand, show in the Problems. */
  readonly sourceNeeded: 'hint' | 'warning' | 'off';
}

/** What is offered to VS Code's chat (`shunong.chat.*`, application scope). */
export interface ChatSettings {
  /** The language model tools (`shunong_searchKnowledge` and the others). */
  readonly tools: boolean;
  /** The `@shunong` chat participant. */
  readonly participant: boolean;
  /** The platform's MCP server in VS Code's MCP list (agent mode). */
  readonly mcpServer: boolean;
}

/** The groups of settings, each read by one function below. */
export interface SettingGroups {
  connection: ConnectionSettings;
  knowledge: KnowledgeSettings;
  citations: CitationSettings;
  recognition: RecognitionSettings;
  weather: WeatherSettings;
  calendar: CalendarSettings;
  bulletin: BulletinSettings;
  language: LanguageSettings;
  export: ExportSettings;
  chat: ChatSettings;
  safety: SafetySettings;
  dose: DoseSettings;
}

export type SettingGroup = keyof SettingGroups;

/** The recognition types the `recognition.defaultType` setting offers besides `ask`. */
const RECOGNITION_DEFAULT_TYPES: readonly ('ask' | RecognitionType)[] = [
  'ask',
  'tea_count',
  'tea_stage',
  'wheat_stage',
];

/** Every setting's default, by its key below `shunong.` (equal to package.json's). */
export const SETTING_DEFAULTS = {
  endpoint: DEFAULT_ENDPOINT,
  allowInsecureHttp: false,
  requestTimeoutMs: 30000,
  'knowledge.topK': 5,
  'knowledge.scoreThreshold': 0.7,
  'knowledge.useRerank': false,
  'knowledge.defaultKbCode': '',
  'knowledge.searchAsYouType': true,
  'knowledge.vocabulary': {},
  'citations.style': 'footnote',
  'citations.referencesHeading': '',
  'citations.snippetAs': 'blockquote',
  'citations.diagnostics': true,
  'recognition.defaultType': 'ask',
  'recognition.saveFolder': 'images/recognition',
  'weather.defaultLocation': '',
  'weather.farmNotes': true,
  'weather.frostBelowC': DEFAULT_THRESHOLDS.frostBelowC,
  'weather.heatAboveC': DEFAULT_THRESHOLDS.heatAboveC,
  'weather.humidPercent': DEFAULT_THRESHOLDS.humidPercent,
  'weather.minRunDays': DEFAULT_THRESHOLDS.minRunDays,
  'calendar.statusBar': true,
  'calendar.format': '',
  'bulletin.template': '',
  insertLanguage: 'auto',
  'export.citations': 'footnotes',
  'export.layout': 'standard',
  'export.officialFonts': {},
  'export.docxTemplate': '',
  'export.refuseBrokenCitations': false,
  'export.refuseUnsafe': false,
  'export.imageBaseUrl': '',
  'export.browserPath': '',
  'export.pdfTimeoutMs': 60000,
  'safety.rulesFile': '',
  'dose.sourceNeeded': 'hint',
  'chat.tools': true,
  'chat.participant': true,
  'chat.mcpServer': true,
} as const;

/** The keys (below `shunong.`) whose change affects each group. */
export const GROUP_SECTIONS: Readonly<Record<SettingGroup, readonly string[]>> = {
  connection: ['endpoint', 'allowInsecureHttp', 'requestTimeoutMs'],
  knowledge: ['knowledge'],
  citations: ['citations'],
  recognition: ['recognition'],
  weather: ['weather'],
  calendar: ['calendar'],
  bulletin: ['bulletin'],
  language: ['insertLanguage'],
  export: ['export'],
  chat: ['chat'],
  safety: ['safety'],
  dose: ['dose'],
};

function bool(v: unknown, fallback: boolean): boolean {
  return typeof v === 'boolean' ? v : fallback;
}

/** An http(s) URL without its trailing slashes; anything else is '' (pictures stay embedded). */
function baseUrl(v: string): string {
  const t = v.trim().replace(/\/+$/, '');
  return /^https?:\/\/[^\s/]/i.test(t) && !/[\s"'<>]/.test(t) ? t : '';
}

function str(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

function num(v: unknown, fallback: number, min = -Infinity, max = Infinity, integer = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) return fallback;
  const n = integer ? Math.round(v) : v;
  return Math.min(max, Math.max(min, n));
}

function oneOf<T extends string>(v: unknown, values: readonly T[], fallback: T): T {
  return typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : fallback;
}

const D = SETTING_DEFAULTS;

/** The connection settings. An empty endpoint is the default endpoint. */
export function connectionSettings(get: RawSettings): ConnectionSettings {
  return {
    endpoint: (str(get('endpoint'), '') || D.endpoint).trim(),
    allowInsecureHttp: bool(get('allowInsecureHttp'), D.allowInsecureHttp),
    requestTimeoutMs: num(get('requestTimeoutMs'), D.requestTimeoutMs, 1000, 600000),
  };
}

/** The knowledge search settings, clamped to what knowledge_search accepts. */
export function knowledgeSettings(get: RawSettings): KnowledgeSettings {
  return {
    topK: num(get('knowledge.topK'), D['knowledge.topK'], 1, 20, true),
    scoreThreshold: num(get('knowledge.scoreThreshold'), D['knowledge.scoreThreshold'], 0, 1),
    useRerank: bool(get('knowledge.useRerank'), D['knowledge.useRerank']),
    defaultKbCode: str(get('knowledge.defaultKbCode'), D['knowledge.defaultKbCode']).trim(),
    searchAsYouType: bool(get('knowledge.searchAsYouType'), D['knowledge.searchAsYouType']),
    vocabulary: get('knowledge.vocabulary') ?? {},
  };
}

/** The citation settings. An empty (or blank) references heading is the document language's heading. */
export function citationSettings(get: RawSettings): CitationSettings {
  return {
    style: oneOf(get('citations.style'), ['footnote', 'inline'], D['citations.style']),
    referencesHeading: str(get('citations.referencesHeading'), '').trim().replace(/^#+/, '').trim(),
    snippetAs: oneOf(get('citations.snippetAs'), ['blockquote', 'paragraph'], D['citations.snippetAs']),
    diagnostics: bool(get('citations.diagnostics'), D['citations.diagnostics']),
  };
}

/** The recognition settings. */
export function recognitionSettings(get: RawSettings): RecognitionSettings {
  return {
    defaultType: oneOf(get('recognition.defaultType'), RECOGNITION_DEFAULT_TYPES, D['recognition.defaultType']),
    saveFolder: str(get('recognition.saveFolder'), '').trim() || D['recognition.saveFolder'],
  };
}

/** The weather brief settings, clamped to package.json's ranges. */
export function weatherSettings(get: RawSettings): WeatherSettings {
  return {
    defaultLocation: str(get('weather.defaultLocation'), D['weather.defaultLocation']),
    farmNotes: bool(get('weather.farmNotes'), D['weather.farmNotes']),
    frostBelowC: num(get('weather.frostBelowC'), D['weather.frostBelowC']),
    heatAboveC: num(get('weather.heatAboveC'), D['weather.heatAboveC']),
    humidPercent: num(get('weather.humidPercent'), D['weather.humidPercent'], 0, 100),
    minRunDays: num(get('weather.minRunDays'), D['weather.minRunDays'], 2, 7, true),
  };
}

/** The calendar settings. */
export function calendarSettings(get: RawSettings): CalendarSettings {
  return {
    statusBar: bool(get('calendar.statusBar'), D['calendar.statusBar']),
    format: str(get('calendar.format'), D['calendar.format']),
  };
}

/** The bulletin settings. */
export function bulletinSettings(get: RawSettings): BulletinSettings {
  return { template: str(get('bulletin.template'), D['bulletin.template']).trim() };
}

/** The language settings. */
export function languageSettings(get: RawSettings): LanguageSettings {
  return { insertLanguage: oneOf(get('insertLanguage'), ['auto', 'zh-CN', 'en'], D.insertLanguage) };
}

/** `export.officialFonts`: its known keys whose value is a non-blank string, trimmed; anything else is left out. */
function officialFonts(v: unknown): OfficialFontSettings {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const raw = v as Record<string, unknown>;
  const out: { -readonly [K in keyof OfficialFontSettings]: string } = {};
  for (const key of OFFICIAL_FONT_KEYS) {
    const name = typeof raw[key] === 'string' ? raw[key].trim() : '';
    if (name) out[key] = name;
  }
  return out;
}

/** The export settings. */
export function exportSettings(get: RawSettings): ExportSettings {
  return {
    citations: oneOf(get('export.citations'), ['footnotes', 'list'], D['export.citations']),
    layout: oneOf(get('export.layout'), ['standard', 'official'], D['export.layout']),
    officialFonts: officialFonts(get('export.officialFonts')),
    docxTemplate: str(get('export.docxTemplate'), D['export.docxTemplate']).trim(),
    refuseBrokenCitations: bool(get('export.refuseBrokenCitations'), D['export.refuseBrokenCitations']),
    refuseUnsafe: bool(get('export.refuseUnsafe'), D['export.refuseUnsafe']),
    imageBaseUrl: baseUrl(str(get('export.imageBaseUrl'), D['export.imageBaseUrl'])),
    browserPath: str(get('export.browserPath'), D['export.browserPath']).trim(),
    pdfTimeoutMs: num(get('export.pdfTimeoutMs'), D['export.pdfTimeoutMs'], 1000, 600000, true),
  };
}

/** The chat settings. */
function chatSettings(get: RawSettings): ChatSettings {
  return {
    tools: bool(get('chat.tools'), D['chat.tools']),
    participant: bool(get('chat.participant'), D['chat.participant']),
    mcpServer: bool(get('chat.mcpServer'), D['chat.mcpServer']),
  };
}

/** The pesticide safety settings. */
export function safetySettings(get: RawSettings): SafetySettings {
  return { rulesFile: str(get('safety.rulesFile'), D['safety.rulesFile']).trim() };
}

/** The dose check's settings. */
export function doseSettings(get: RawSettings): DoseSettings {
  return { sourceNeeded: oneOf(get('dose.sourceNeeded'), ['hint', 'warning', 'off'], D['dose.sourceNeeded']) };
}

/** Each group's reader. */
export const READERS: { readonly [G in SettingGroup]: (get: RawSettings) => SettingGroups[G] } = {
  connection: connectionSettings,
  knowledge: knowledgeSettings,
  citations: citationSettings,
  recognition: recognitionSettings,
  weather: weatherSettings,
  calendar: calendarSettings,
  bulletin: bulletinSettings,
  language: languageSettings,
  export: exportSettings,
  chat: chatSettings,
  safety: safetySettings,
  dose: doseSettings,
};
