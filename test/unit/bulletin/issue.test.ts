/**
 * The issue number of a bulletin (`issue: 2026年第12期`) and the next one New Bulletin offers: one
 * more than the highest of the year among the workspace's bulletins; a new year starts at 1. And
 * the built-in pest forecast's front matter: a forecast, dated, its issue filled in, its issuer
 * left for the author (the forecast check names it until then).
 */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { issueLabel, nextIssueNumber, readIssue } from '../../../src/bulletin/issue';
import { frontMatter } from '../../../src/bulletin/frontMatter';
import { builtinForecastTemplate, builtinTemplate, fillTemplate, usesValue } from '../../../src/bulletin/template';
import { missingForecastParts, shippedRules } from '../../../src/safety/index';

describe('bulletin/issue: the issue numbers of a year', () => {
  it('the next issue is one more than the highest of its year; other years and other values do not count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2100 }),
        fc.array(fc.integer({ min: 1, max: 99 }), { maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 99 }), { maxLength: 6 }),
        (year, ours, others) => {
          const issues = [
            ...ours.map((n) => `${year}年第${n}期`),
            ...others.map((n) => `${year - 1}年第${n}期`),
            '第99期',
            'draft',
          ];
          assert.equal(nextIssueNumber(issues, year), Math.max(0, ...ours) + 1);
        },
      ),
    );
  });

  it('reads an issue as authors write it: full-width digits, spaces, the English form', () => {
    assert.deepEqual(readIssue('２０２６年第１２期'), { year: 2026, number: 12 });
    assert.deepEqual(readIssue(' 2026 年 第 3 期 '), { year: 2026, number: 3 });
    assert.deepEqual(readIssue('2026 No. 7'), { year: 2026, number: 7 });
    assert.equal(readIssue('2026年12月'), undefined);
    assert.equal(nextIssueNumber(['２０２６年第１２期', '2026 No. 13'], 2026), 14);
  });

  it('writes an issue in the bulletin’s language, and reads back what it writes', () => {
    assert.equal(issueLabel(2026, 13, 'zh'), '2026年第13期');
    assert.equal(issueLabel(2026, 13, 'en'), '2026 No. 13');
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 999 }),
        fc.constantFrom('zh', 'en'),
        (y, n, lang) => {
          assert.deepEqual(readIssue(issueLabel(y, n, lang as 'zh' | 'en')), { year: y, number: n });
        },
      ),
    );
  });
});

describe('bulletin/template: the built-in pest forecast', () => {
  const values = {
    title: '成都病虫情报 2026-08-05',
    lang: 'zh-CN',
    date: '2026-08-05',
    weekday: '星期三',
    solarTerm: '立秋',
    nextSolarTerm: '处暑',
    daysToNextSolarTerm: '18',
    calendarLine: '',
    place: '成都',
    referencesHeading: '参考资料',
    issue: '2026年第13期',
  };

  for (const lang of ['zh', 'en'] as const)
    it(`is a forecast with its issue and date; its issuer is left for the author (${lang})`, () => {
      const text = fillTemplate(builtinForecastTemplate(lang), values);
      const { fields } = frontMatter(text);
      assert.equal(fields['type'], 'forecast');
      assert.equal(fields['issue'], '2026年第13期');
      assert.equal(fields['date'], '2026-08-05');
      assert.equal(fields['issuer'], '');
      assert.ok(fields['masthead'], 'a masthead');
      const parts = missingForecastParts(text, shippedRules(), { today: '2026-08-05' }).map((m) => m.part);
      assert.ok(parts.includes('issuer'), 'the check names the issuer until it is filled in');
      assert.ok(!parts.includes('date'), 'the date is filled in');
    });
});

describe('bulletin/template: which values a template writes', () => {
  it('reads a placeholder as fillTemplate does (spaces inside the braces), and only that name', () => {
    assert.equal(usesValue(builtinForecastTemplate('zh'), 'issue'), true);
    assert.equal(
      usesValue(builtinTemplate('zh'), 'issue'),
      false,
      'the farm bulletin writes no issue: none is looked for',
    );
    assert.equal(usesValue('第{{ issue }}期', 'issue'), true);
    assert.equal(usesValue('{{issues}} {{ place }}', 'issue'), false);
    assert.equal(usesValue('{{issues}} {{ place }}', 'place'), true);
  });
});
