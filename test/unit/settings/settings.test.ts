import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as util from 'node:util';
import { DEFAULT_ENDPOINT } from '../../../src/shunong/endpoint';
import {
  bulletinSettings,
  calendarSettings,
  citationSettings,
  connectionSettings,
  doseSettings,
  exportSettings,
  GROUP_SECTIONS,
  knowledgeSettings,
  languageSettings,
  READERS,
  recognitionSettings,
  safetySettings,
  SETTING_DEFAULTS,
  weatherSettings,
  type RawSettings,
} from '../../../src/settings/index';

interface Contributed {
  default: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Contributed> } };
};
const contributed = new Map(
  Object.entries(manifest.contributes.configuration.properties).map(([k, v]) => [k.replace(/^shunong\./, ''), v]),
);

/** Raw values from a plain object (unset keys are undefined, as for a setting nobody wrote). */
const raw =
  (values: Record<string, unknown>): RawSettings =>
  (key) =>
    values[key];
/** Raw values as VS Code gives them for unset settings: package.json's defaults. */
const manifestDefaults: RawSettings = (key) => contributed.get(key)?.default;

describe('settings', () => {
  it("every default equals package.json's, and every contributed setting has one", () => {
    assert.deepEqual(Object.keys(SETTING_DEFAULTS).sort(), [...contributed.keys()].sort());
    for (const [key, value] of Object.entries(SETTING_DEFAULTS))
      assert.deepEqual(value, contributed.get(key)?.default, `shunong.${key}`);
    assert.equal(SETTING_DEFAULTS.endpoint, DEFAULT_ENDPOINT);
    // Empty: the heading of the document's language (参考资料 or References).
    assert.equal(SETTING_DEFAULTS['citations.referencesHeading'], '');
  });

  it('reads the same settings whether a value is unset or set to its default', () => {
    for (const read of Object.values(READERS)) assert.deepEqual(read(raw({})), read(manifestDefaults));
    assert.deepEqual(connectionSettings(raw({})), {
      endpoint: DEFAULT_ENDPOINT,
      allowInsecureHttp: false,
      requestTimeoutMs: 30000,
    });
    assert.deepEqual(knowledgeSettings(raw({})), {
      topK: 5,
      scoreThreshold: 0.7,
      useRerank: false,
      defaultKbCode: '',
      searchAsYouType: true,
      vocabulary: {},
    });
    assert.deepEqual(citationSettings(raw({})), {
      style: 'footnote',
      referencesHeading: '',
      snippetAs: 'blockquote',
      diagnostics: true,
    });
    assert.deepEqual(recognitionSettings(raw({})), { defaultType: 'ask', saveFolder: 'images/recognition' });
    assert.deepEqual(weatherSettings(raw({})), {
      defaultLocation: '',
      farmNotes: true,
      frostBelowC: 2,
      heatAboveC: 35,
      humidPercent: 85,
      minRunDays: 3,
    });
    assert.deepEqual(calendarSettings(raw({})), { statusBar: true, format: '' });
    assert.deepEqual(bulletinSettings(raw({})), { template: '' });
    assert.deepEqual(languageSettings(raw({})), { insertLanguage: 'auto' });
  });

  it("clamps numbers to package.json's ranges (topK rounded, the same for the search and the draft)", () => {
    assert.equal(knowledgeSettings(raw({ 'knowledge.topK': 0 })).topK, 1);
    assert.equal(knowledgeSettings(raw({ 'knowledge.topK': 99 })).topK, 20);
    assert.equal(knowledgeSettings(raw({ 'knowledge.topK': 7.6 })).topK, 8);
    assert.equal(knowledgeSettings(raw({ 'knowledge.topK': Number.NaN })).topK, 5);
    assert.equal(knowledgeSettings(raw({ 'knowledge.topK': '7' })).topK, 5);
    assert.equal(knowledgeSettings(raw({ 'knowledge.scoreThreshold': 1.5 })).scoreThreshold, 1);
    assert.equal(knowledgeSettings(raw({ 'knowledge.scoreThreshold': -1 })).scoreThreshold, 0);
    assert.equal(knowledgeSettings(raw({ 'knowledge.scoreThreshold': 0.42 })).scoreThreshold, 0.42);
    assert.equal(connectionSettings(raw({ requestTimeoutMs: 5 })).requestTimeoutMs, 1000);
    assert.equal(connectionSettings(raw({ requestTimeoutMs: 1e9 })).requestTimeoutMs, 600000);
    assert.equal(connectionSettings(raw({ requestTimeoutMs: Infinity })).requestTimeoutMs, 30000);
    assert.equal(weatherSettings(raw({ 'weather.humidPercent': 120 })).humidPercent, 100);
    assert.equal(weatherSettings(raw({ 'weather.minRunDays': 1 })).minRunDays, 2);
    assert.equal(weatherSettings(raw({ 'weather.minRunDays': 4.4 })).minRunDays, 4);
    assert.equal(weatherSettings(raw({ 'weather.frostBelowC': -3 })).frostBelowC, -3);
    for (const [key, c] of contributed) {
      if (typeof c.minimum !== 'number' && typeof c.maximum !== 'number') continue;
      for (const v of [-1e12, 1e12]) {
        const all = Object.values(READERS).map((read) => read(raw({ [key]: v })) as object);
        const field = key.split('.').pop() ?? key;
        const got = all.map((g) => (g as Record<string, unknown>)[field]).find((x) => typeof x === 'number');
        assert.ok(typeof got === 'number', key);
        if (typeof c.minimum === 'number') assert.ok(got >= c.minimum, `${key} ${got} >= ${c.minimum}`);
        if (typeof c.maximum === 'number') assert.ok(got <= c.maximum, `${key} ${got} <= ${c.maximum}`);
      }
    }
  });

  it('falls back to the default for a value of the wrong type or outside an enum', () => {
    assert.equal(citationSettings(raw({ 'citations.style': 'endnote' })).style, 'footnote');
    assert.equal(citationSettings(raw({ 'citations.style': 'inline' })).style, 'inline');
    assert.equal(citationSettings(raw({ 'citations.snippetAs': 'paragraph' })).snippetAs, 'paragraph');
    assert.equal(citationSettings(raw({ 'citations.snippetAs': 3 })).snippetAs, 'blockquote');
    assert.equal(citationSettings(raw({ 'citations.diagnostics': 'no' })).diagnostics, true);
    assert.equal(exportSettings(raw({ 'export.refuseUnsafe': true })).refuseUnsafe, true);
    assert.equal(exportSettings(raw({ 'export.refuseUnsafe': 'yes' })).refuseUnsafe, false);
    assert.equal(doseSettings(raw({ 'dose.sourceNeeded': 'warning' })).sourceNeeded, 'warning');
    assert.equal(doseSettings(raw({ 'dose.sourceNeeded': 'error' })).sourceNeeded, 'hint');
    assert.equal(doseSettings(raw({})).sourceNeeded, 'hint');
    assert.equal(recognitionSettings(raw({ 'recognition.defaultType': 'tea_stage' })).defaultType, 'tea_stage');
    assert.equal(recognitionSettings(raw({ 'recognition.defaultType': 'rice' })).defaultType, 'ask');
    assert.deepEqual(
      contributed.get('recognition.defaultType')?.enum,
      ['ask', 'tea_count', 'tea_stage', 'wheat_stage'].filter(
        (t) => recognitionSettings(raw({ 'recognition.defaultType': t })).defaultType === t,
      ),
    );
    assert.equal(calendarSettings(raw({ 'calendar.statusBar': false })).statusBar, false);
    assert.equal(languageSettings(raw({ insertLanguage: 'zh-CN' })).insertLanguage, 'zh-CN');
    assert.equal(languageSettings(raw({ insertLanguage: 'en' })).insertLanguage, 'en');
    assert.equal(languageSettings(raw({ insertLanguage: 'fr' })).insertLanguage, 'auto');
    assert.deepEqual(
      contributed.get('insertLanguage')?.enum,
      ['auto', 'zh-CN', 'en'].filter((v) => languageSettings(raw({ insertLanguage: v })).insertLanguage === v),
    );
    assert.equal(connectionSettings(raw({ allowInsecureHttp: 'yes' })).allowInsecureHttp, false);
  });

  it('trims and defaults strings once', () => {
    assert.equal(connectionSettings(raw({ endpoint: '' })).endpoint, DEFAULT_ENDPOINT);
    assert.equal(
      connectionSettings(raw({ endpoint: ' http://127.0.0.1:7331/mcp ' })).endpoint,
      'http://127.0.0.1:7331/mcp',
    );
    assert.equal(knowledgeSettings(raw({ 'knowledge.defaultKbCode': ' TEA ' })).defaultKbCode, 'TEA');
    assert.equal(citationSettings(raw({ 'citations.referencesHeading': '' })).referencesHeading, '');
    assert.equal(citationSettings(raw({ 'citations.referencesHeading': '  ' })).referencesHeading, '');
    assert.equal(
      citationSettings(raw({ 'citations.referencesHeading': '## 参考文献 ' })).referencesHeading,
      '参考文献',
    );
    assert.equal(
      citationSettings(raw({ 'citations.referencesHeading': 'References' })).referencesHeading,
      'References',
    );
    assert.equal(recognitionSettings(raw({ 'recognition.saveFolder': '  ' })).saveFolder, 'images/recognition');
    assert.equal(recognitionSettings(raw({ 'recognition.saveFolder': ' shots ' })).saveFolder, 'shots');
    assert.equal(bulletinSettings(raw({ 'bulletin.template': ' t.md ' })).template, 't.md');
    assert.deepEqual(safetySettings(raw({})), { rulesFile: '' });
    assert.equal(safetySettings(raw({ 'safety.rulesFile': ' rules/station.json ' })).rulesFile, 'rules/station.json');
    assert.equal(safetySettings(raw({ 'safety.rulesFile': 42 })).rulesFile, '', 'a non-string is the default');
    const base = (v: unknown): string => exportSettings(raw({ 'export.imageBaseUrl': v })).imageBaseUrl;
    assert.equal(base(' https://img.example.cn/tea/ '), 'https://img.example.cn/tea', 'trimmed, no trailing slash');
    assert.deepEqual(
      [base('ftp://x'), base('images/'), base('https://a b'), base(3)],
      ['', '', '', ''],
      'only http(s)',
    );
    const fonts = (v: unknown): unknown => exportSettings(raw({ 'export.officialFonts': v })).officialFonts;
    assert.deepEqual(fonts(undefined), {}, "absent: the standard's fonts");
    assert.deepEqual(
      fonts({ body: ' 仿宋 ', title: '华文中宋', heading: '  ', subheading: 3, italic: 'x' }),
      { body: '仿宋', title: '华文中宋' },
      'trimmed; blank, non-string and unknown keys left out',
    );
    assert.deepEqual([fonts('仿宋'), fonts(['仿宋']), fonts(null)], [{}, {}, {}], 'only an object');
    const vocabulary = { crops: [{ id: 'rice' }] };
    assert.equal(knowledgeSettings(raw({ 'knowledge.vocabulary': vocabulary })).vocabulary, vocabulary);
  });

  it('names, for each group, the settings whose change affects it', () => {
    for (const key of contributed.keys()) {
      const groups = Object.entries(GROUP_SECTIONS).filter(([, sections]) =>
        sections.some((s) => key === s || key.startsWith(`${s}.`)),
      );
      assert.equal(groups.length, 1, `shunong.${key} belongs to exactly one group`);
    }
  });

  it('every contributed setting is read under its own key: a valid value other than its default changes what its group reads', () => {
    const groupOf = (key: string): keyof typeof READERS =>
      (Object.keys(GROUP_SECTIONS) as (keyof typeof READERS)[]).find((g) =>
        GROUP_SECTIONS[g].some((section) => key === section || key.startsWith(`${section}.`)),
      )!;
    /** Values a user could set, other than the default (the reader keeps the first it accepts). */
    const others = (c: Contributed): unknown[] => {
      const d = c.default;
      if (typeof d === 'boolean') return [!d];
      if (c.enum) return c.enum.filter((v) => v !== d);
      if (typeof d === 'number') return [d + 1, d - 1, c.minimum, c.maximum].filter((v) => v !== undefined && v !== d);
      if (typeof d === 'string')
        return [
          'https://img.example.cn/bulletins',
          'http://127.0.0.1:1/mcp',
          '成都',
          'templates/站.docx',
          'TEA_MANAGER_001',
          '{date} {term}',
        ];
      return [{ 茶: { kbCode: 'TEA_MANAGER_001' } }, { 茶树: ['修剪'] }, { body: '仿宋' }];
    };
    for (const [key, c] of contributed) {
      const group = groupOf(key);
      assert.ok(group, `shunong.${key} belongs to a group`);
      const read = READERS[group];
      const unset = read(raw({}));
      assert.ok(
        others(c).some((v) => !util.isDeepStrictEqual(read(raw({ [key]: v })), unset)),
        `shunong.${key}: no other value changes what the ${group} settings read`,
      );
    }
  });

  it('a references heading is read without its # marks and blanks; a # inside it stays', () => {
    const heading = (v: string): string =>
      citationSettings(raw({ 'citations.referencesHeading': v })).referencesHeading;
    assert.equal(heading('  ##   参考资料 '), '参考资料');
    assert.equal(heading('##参考资料'), '参考资料');
    assert.equal(heading('参考#资料'), '参考#资料');
  });

  it('an image base URL is an http(s) address with a host, its trailing slashes dropped; a Word template path is trimmed', () => {
    const base = (v: string): string => exportSettings(raw({ 'export.imageBaseUrl': v })).imageBaseUrl;
    assert.equal(base(' https://img.example.cn/b// '), 'https://img.example.cn/b');
    assert.equal(base('http://img.example.cn'), 'http://img.example.cn');
    for (const bad of ['ftp://img.example.cn', 'xhttps://img.example.cn', 'https://', 'https:///b', 'https://a.cn/x y'])
      assert.equal(base(bad), '', bad);
    assert.equal(
      exportSettings(raw({ 'export.docxTemplate': ' templates/站.docx ' })).docxTemplate,
      'templates/站.docx',
    );
  });
});
