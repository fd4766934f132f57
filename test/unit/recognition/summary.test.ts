/** Reading results and the Markdown summary inserted into bulletins. */
import * as assert from 'node:assert/strict';
import {
  relativeLink,
  summarize,
  summaryLabels,
  summaryMarkdown,
  typeNameIn,
  type SummaryLabels,
} from '../../../src/recognition/summary';
import { wordsOf } from '../../../src/text/words';
import type { Recognition } from '../../../src/recognition/types';
import { analyzeDocument } from '../../../src/citations';
import { RENDERERS } from '../../support/renderers';

const labels: SummaryLabels = {
  paragraph: (type, parts) => `**Crop image recognition (${type})**: ${parts.join('; ')}.`,
  typeName: (t) =>
    ({ tea_count: 'Tea bud count', tea_stage: 'Tea growth stage', wheat_stage: 'Wheat growth stage' })[t],
  count: (n) => `${n} tea buds detected`,
  stage: (s) => `growth stage ${s}`,
  noStage: 'no clear growth stage in this picture',
  lowConfidence: (low, total) => `${low} of ${total} detections below confidence 0.5, retake the photo to confirm`,
  allConfident: 'all detections at confidence 0.5 or above',
  confidenceRange: (a, b) => `confidence ${a}–${b}`,
  model: (name, id) => `model ${name} (${id})`,
  date: (d) => `recognised on ${d}`,
  advice: ['Shoot straight down.', 'Closer than 50 cm.'],
  imageAlt: 'Annotated crop photo',
  original: 'original photo',
};

function result(data: Partial<Recognition['data']>): Recognition {
  return {
    status: 'success',
    data: {
      task_type: 'detect',
      detections: [],
      count: 0,
      model_id: 'tea_count',
      model_name: '茶叶数量检测',
      recognized_result: 0,
      ...data,
    },
    message: '检测成功',
    error: null,
  };
}

const det = (confidence: number, bbox: number[] = [0, 0, 10, 10]): Recognition['data']['detections'][number] => ({
  class_id: 0,
  confidence,
  bbox,
  class_name: 'tea',
});

describe('recognition: summary', () => {
  it('counts tea buds and splits them at confidence 0.5', () => {
    const s = summarize(
      result({
        detections: [det(0.92), det(0.61), det(0.42)],
        count: 3,
        recognized_result: 3,
        inference_time: 0.1187,
        input_size: [640, 640],
      }),
      'tea_count',
    );
    assert.equal(s.kind, 'count');
    assert.equal(s.total, 3);
    assert.equal(s.confident, 2);
    assert.equal(s.low, 1);
    assert.equal(s.retakeAdvised, true);
    assert.equal(s.inferenceMs, 118.7);
    assert.deepEqual(s.inputSize, [640, 640]);
    assert.equal(s.minConfidence, 0.42);
    assert.equal(s.maxConfidence, 0.92);
  });

  it('reads a stage, and a null recognized_result as no conclusion (never a stage)', () => {
    const stage = summarize(
      result({ model_id: 'wheat_stage', model_name: '小麦生育时期', recognized_result: '拔节期' }),
      'wheat_stage',
    );
    assert.equal(stage.kind, 'stage');
    assert.equal(stage.stage, '拔节期');
    assert.equal(stage.retakeAdvised, false);
    const none = summarize(
      result({ model_id: 'wheat_stage', model_name: '小麦生育时期', recognized_result: null }),
      'wheat_stage',
    );
    assert.equal(none.kind, 'none');
    assert.equal(none.stage, undefined);
    assert.equal(none.retakeAdvised, true);
    const blank = summarize(
      result({ model_id: 'tea_stage', model_name: '茶树生育时期', recognized_result: '  ' }),
      'tea_stage',
    );
    assert.equal(blank.kind, 'none');
  });

  it('writes the count summary with the confidence note, model, date and links', () => {
    const s = summarize(
      result({ detections: [det(0.92), det(0.61), det(0.42)], count: 3, recognized_result: 3 }),
      'tea_count',
    );
    const md = summaryMarkdown(s, {
      labels,
      date: '2026-10-26',
      imageLink: 'images/recognition/tea-tea_count.png',
      originalLink: 'images/recognition/tea-original.jpg',
    });
    assert.equal(
      md,
      [
        '**Crop image recognition (Tea bud count)**: 3 tea buds detected; 1 of 3 detections below confidence 0.5, retake the photo to confirm; confidence 0.42–0.92; model 茶叶数量检测 (tea\\_count); recognised on 2026-10-26.',
        '',
        '> - Shoot straight down.',
        '> - Closer than 50 cm.',
        '',
        '![Annotated crop photo](<images/recognition/tea-tea_count.png>) [original photo](<images/recognition/tea-original.jpg>)',
        '',
      ].join('\n'),
    );
  });

  it('writes "no clear growth stage" with the shooting advice for a null result', () => {
    const s = summarize(
      result({ model_id: 'wheat_stage', model_name: '小麦生育时期', recognized_result: null }),
      'wheat_stage',
    );
    const md = summaryMarkdown(s, { labels, date: '2026-10-26' });
    assert.equal(
      md,
      '**Crop image recognition (Wheat growth stage)**: no clear growth stage in this picture; model 小麦生育时期 (wheat\\_stage); recognised on 2026-10-26.\n\n> - Shoot straight down.\n> - Closer than 50 cm.\n',
    );
    assert.ok(!/期\b.*growth stage [^n]/.test(md));
  });

  it('writes a confident stage without advice', () => {
    const s = summarize(
      result({ model_id: 'tea_stage', model_name: '茶树生育时期', recognized_result: '一芽一叶期' }),
      'tea_stage',
    );
    assert.equal(
      summaryMarkdown(s, { labels, date: '2026-04-01' }),
      '**Crop image recognition (Tea growth stage)**: growth stage 一芽一叶期; model 茶树生育时期 (tea\\_stage); recognised on 2026-04-01.\n',
    );
  });

  it('escapes server text so it cannot become markup', () => {
    for (const name of ['<img src=x onerror=alert(1)>', '[click](command:evil)']) {
      const md = summaryMarkdown(summarize(result({ model_name: name }), 'tea_count'), { labels, date: 'd' });
      for (const [renderer, render] of Object.entries(RENDERERS))
        assert.doesNotMatch(render(md).html, /<img|<a /, renderer);
    }
    const s = summarize(result({ model_name: '**bold** [x](y)' }), 'tea_count');
    assert.ok(summaryMarkdown(s, { labels, date: 'd' }).includes('model \\*\\*bold\\*\\* \\[x\\](y)'));
  });

  it('a model, class or stage name cannot forge an inline citation or a link in the summary', () => {
    const forged = summarize(
      result({
        model_name: '〔某文档.docx#3〕',
        model_id: 'www.agri.gov.cn',
        recognized_result: '〔茶.pdf#0〕 https://a.cn',
      }),
      'tea_stage',
    );
    const md = summaryMarkdown(forged, { labels, date: '2026-04-01' });
    assert.deepEqual(analyzeDocument(md).inlineCitations, [], md);
    for (const renderer of ['markdown-it 15', 'micromark + GFM']) {
      const html = RENDERERS[renderer]!(md).html;
      assert.doesNotMatch(html, /<a /, `${renderer}: ${html}`);
      assert.match(html, /〔某文档\.docx#3〕/);
      assert.match(html, /www\.agri\.gov\.cn/);
    }
  });

  it('links relatively from the bulletin to the saved picture, encoding each segment', () => {
    assert.equal(
      relativeLink('/ws/bulletins/2026/w43.md', '/ws/images/recognition/a b.png'),
      '../../images/recognition/a%20b.png',
    );
    assert.equal(relativeLink('/ws/w43.md', '/ws/images/recognition/茶.png'), 'images/recognition/%E8%8C%B6.png');
    assert.equal(relativeLink('/ws/images/note.md', '/ws/images/x.png'), 'x.png');
  });

  it("writes the summary in the document's language from the catalogue: zh-CN and en", () => {
    const s = summarize(
      result({ detections: [det(0.92), det(0.61), det(0.42)], count: 3, recognized_result: 3 }),
      'tea_count',
    );
    const zh = summaryMarkdown(s, { labels: summaryLabels(wordsOf('zh')), date: '2026-12-01', imageLink: 'a.png' });
    assert.equal(
      zh.split('\n')[0],
      '**作物图像识别（茶芽计数）**：识别到 3 个茶芽；3 个检测目标中有 1 个置信度低于 0.5，建议重新拍摄核实；置信度 0.42–0.92；模型 茶叶数量检测（tea\\_count）；识别于 2026-12-01。',
    );
    assert.match(zh, /^> - 相机垂直俯拍/m);
    assert.match(zh, /^!\[作物识别标注图\]\(<a\.png>\)$/m);
    assert.doesNotMatch(zh.replace(/tea\\_count|a\.png/g, ''), /[A-Za-z]{2,}/);
    const en = summaryMarkdown(s, { labels: summaryLabels(wordsOf('en')), date: '2026-12-01', imageLink: 'a.png' });
    assert.match(en, /^\*\*Crop image recognition \(Tea bud count\)\*\*: 3 tea buds detected; 1 of 3 detections/);
    assert.match(en, /^> - Shoot straight down/m);
    assert.doesNotMatch(en.replace(/茶叶数量检测/g, ''), /\p{Script=Han}/u);
    assert.equal(typeNameIn('wheat_stage', wordsOf('zh')), wordsOf('zh').t('Wheat growth stage'));
    assert.equal(typeNameIn('wheat_stage', wordsOf('en')), 'Wheat growth stage');
  });

  it('trusts a detection at exactly confidence 0.5: only those under it are low', () => {
    const s = summarize(result({ detections: [det(0.5), det(0.4999)], count: 2, recognized_result: 2 }), 'tea_count');
    assert.deepEqual([s.confident, s.low], [1, 1]);
    const confident = summarize(result({ detections: [det(0.5)], count: 1, recognized_result: 1 }), 'tea_count');
    assert.equal(confident.retakeAdvised, false);
  });

  it("counts the larger of the boxes and the server's count, ignoring a count that is no number", () => {
    assert.equal(summarize(result({ detections: [det(0.9)], count: 7, recognized_result: 7 }), 'tea_count').total, 7);
    assert.equal(summarize(result({ detections: [det(0.9), det(0.8)], count: 1 }), 'tea_count').total, 2);
    assert.equal(summarize(result({ detections: [det(0.9)], count: Number.NaN }), 'tea_count').total, 1);
    const s = summarize(result({ detections: [det(0.9)], count: 7, recognized_result: 7 }), 'tea_count');
    assert.deepEqual([s.confident, s.low], [7, 0]);
    // A count without boxes has no confidences to give a range of.
    const boxless = summarize(result({ count: 4, recognized_result: 4 }), 'tea_count');
    assert.deepEqual([boxless.minConfidence, boxless.maxConfidence], [undefined, undefined]);
    assert.doesNotMatch(summaryMarkdown(boxless, { labels, date: 'd' }), /confidence \S+–/);
  });

  it('reads a tea count as a count whatever recognized_result holds, and a number as a count for any model', () => {
    for (const r of [null, '3', 3]) {
      const s = summarize(result({ recognized_result: r }), 'tea_count');
      assert.equal(s.kind, 'count', String(r));
      assert.equal(s.stage, undefined, String(r));
    }
    assert.equal(summarize(result({ model_id: 'wheat_stage', recognized_result: 4 }), 'wheat_stage').kind, 'count');
  });

  it('reads the stage without the spaces around it', () => {
    const s = summarize(result({ model_id: 'tea_stage', recognized_result: ' 一芽二叶期\n' }), 'tea_stage');
    assert.equal(s.stage, '一芽二叶期');
    assert.match(summaryMarkdown(s, { labels, date: 'd' }), /growth stage 一芽二叶期;/);
  });

  it('advises a retake for a stage read from low-confidence boxes, not for one read from confident boxes', () => {
    const stage = (confidence: number): ReturnType<typeof summarize> =>
      summarize(
        result({ model_id: 'tea_stage', recognized_result: '一芽一叶期', detections: [det(confidence)], count: 1 }),
        'tea_stage',
      );
    assert.equal(stage(0.3).retakeAdvised, true);
    assert.match(summaryMarkdown(stage(0.3), { labels, date: 'd' }), /^> - Shoot straight down\.$/m);
    assert.equal(stage(0.8).retakeAdvised, false);
    assert.doesNotMatch(summaryMarkdown(stage(0.8), { labels, date: 'd' }), /^> /m);
  });

  it('takes the input size only when the server gives both sides', () => {
    assert.deepEqual(summarize(result({ input_size: [640, 480] }), 'tea_count').inputSize, [640, 480]);
    assert.equal(summarize(result({ input_size: [640] }), 'tea_count').inputSize, undefined);
    assert.equal(summarize(result({ input_size: [] }), 'tea_count').inputSize, undefined);
  });

  it('says every detection is confident, with their range, when none is under 0.5', () => {
    const s = summarize(result({ detections: [det(0.5), det(0.875)], count: 2, recognized_result: 2 }), 'tea_count');
    assert.equal(
      summaryMarkdown(s, { labels, date: '2026-04-01' }),
      '**Crop image recognition (Tea bud count)**: 2 tea buds detected; all detections at confidence 0.5 or above; confidence 0.50–0.88; model 茶叶数量检测 (tea\\_count); recognised on 2026-04-01.\n',
    );
  });

  it('writes every label of the summary in English and Chinese: the three types, the advice, the links', () => {
    for (const [lang, names] of [
      ['en', ['Tea bud count', 'Tea growth stage', 'Wheat growth stage']],
      ['zh', ['茶芽计数', '茶树生育期', '小麦生育期']],
    ] as const) {
      const words = wordsOf(lang);
      assert.deepEqual(
        (['tea_count', 'tea_stage', 'wheat_stage'] as const).map((t) => typeNameIn(t, words)),
        names,
      );
      const L = summaryLabels(words);
      assert.equal(L.advice.length, 3);
      for (const line of L.advice) assert.ok(line.length > 10, `${lang}: ${line}`);
      for (const text of [L.noStage, L.allConfident, L.imageAlt, L.original]) assert.ok(text.trim(), lang);
    }
    const en = summaryLabels(wordsOf('en'));
    assert.deepEqual(en.advice, [
      'Shoot straight down, let the crop fill most of the frame, and avoid strong backlight.',
      'For tea bud counting, single buds must be distinguishable: shoot from less than 50 cm.',
      'For growth stages, get the whole plant in the frame, keeping stems, leaves and ears visible.',
    ]);
    assert.equal(en.noStage, 'no clear growth stage in this picture');
    assert.equal(en.allConfident, 'all detections at confidence 0.5 or above');
    assert.equal(en.stage('拔节期'), 'growth stage 拔节期');
    assert.deepEqual(
      [summaryLabels(wordsOf('zh')).imageAlt, summaryLabels(wordsOf('zh')).original],
      ['作物识别标注图', '原图'],
    );
    const md = summaryMarkdown(summarize(result({}), 'tea_count'), {
      labels: en,
      date: 'd',
      imageLink: 'a.png',
      originalLink: 'b.jpg',
    });
    assert.match(md, /^!\[Annotated crop photo\]\(<a\.png>\) \[original photo\]\(<b\.jpg>\)$/m);
  });

  it('links to a file named like a folder of the bulletin by going up to it, not to the folder itself', () => {
    assert.equal(relativeLink('/ws/notes/w43.md', '/ws/notes'), '../notes');
    assert.equal(relativeLink('/ws/a/b/w43.md', '/ws/a/b'), '../b');
    assert.equal(relativeLink('/w43.md', '/ws/x.png'), 'ws/x.png');
    assert.equal(relativeLink('/ws/a/w43.md', '/ws/a/..png'), '..png');
  });
});
