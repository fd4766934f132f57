/** crop_growth_recognize against the page "MCP 工具参考" (000) and the decisions table. */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLES_DIR } from '../../emulator/images';
import {
  BLURRED_BUDS,
  TEA_BUDS,
  WORKSPACE_PHOTOS,
  WORKSPACE_PHOTOS_DIR,
  writeSamples,
  writeWorkspacePhotos,
} from '../../emulator/make-sample-images';
import type { Emulator } from '../../emulator/server';
import { callOk, callTool, openSession, start } from './helpers';

interface Recognition {
  status: string;
  data: {
    task_type: string;
    detections: { class_id: number; confidence: number; bbox: [number, number, number, number]; class_name: string }[];
    count: number;
    inference_time: number;
    input_size: [number, number];
    model_id: string;
    model_name: string;
    recognized_result: number | string | null;
    original_image: string;
    original_compressed: boolean;
  };
  message: string;
  error: null;
}

const sample = (f: string): Buffer => readFileSync(join(SAMPLES_DIR, f));

describe('emulator crop_growth_recognize', function () {
  let emu: Emulator;
  let sid: string;
  before(async () => {
    emu = await start({ downloadTimeoutMs: 300, imageTtlMs: 60_000 });
    sid = await openSession(emu);
  });
  after(() => emu.close());

  it('the committed sample pictures are what make-sample-images.ts generates (deterministic)', async () => {
    const tmp = join(tmpdir(), `samples-${process.pid}`);
    try {
      for (const { file } of await writeSamples(tmp))
        assert.ok(readFileSync(join(tmp, file)).equals(sample(file)), file);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('tea_count finds the 7 drawn buds, boxes in input coordinates, the page shape', async () => {
    const r = await callOk<Recognition>(emu, sid, 'crop_growth_recognize', {
      imageBase64: sample('tea_buds.png').toString('base64'),
      recognitionType: 'tea_count',
    });
    assert.deepEqual(Object.keys(r), ['status', 'data', 'message', 'error']);
    assert.deepEqual(Object.keys(r.data), [
      'task_type',
      'detections',
      'count',
      'inference_time',
      'input_size',
      'model_id',
      'model_name',
      'recognized_result',
      'original_image',
      'original_compressed',
    ]);
    assert.equal(r.status, 'success');
    assert.equal(r.message, '检测成功');
    assert.equal(r.error, null);
    assert.equal(r.data.task_type, 'detect');
    assert.equal(r.data.model_id, 'tea_count');
    assert.equal(r.data.model_name, '茶叶数量检测');
    assert.equal(r.data.count, 7);
    assert.equal(r.data.recognized_result, 7);
    assert.deepEqual(r.data.input_size, [640, 640]);
    assert.equal(r.data.original_compressed, false);
    for (const [x, y] of TEA_BUDS) {
      const d = r.data.detections.find((q) => q.bbox[0] <= x && x <= q.bbox[2] && q.bbox[1] <= y && y <= q.bbox[3]);
      assert.ok(d, `no box around bud at ${x},${y}`);
      assert.equal(d.class_id, 0);
      assert.equal(d.class_name, 'tea');
      assert.ok(d.confidence >= 0.5 && d.confidence < 1);
    }
  });

  it('tea_count scores blurred buds under 0.5 (tea_buds_blurry: the 7 clear buds and 3 blurred ones)', async () => {
    const r = await callOk<Recognition>(emu, sid, 'crop_growth_recognize', {
      imageBase64: sample('tea_buds_blurry.png').toString('base64'),
      recognitionType: 'tea_count',
    });
    assert.equal(r.data.count, 10);
    const inBox = (x: number, y: number) =>
      r.data.detections.find((q) => q.bbox[0] <= x && x <= q.bbox[2] && q.bbox[1] <= y && y <= q.bbox[3]);
    for (const [x, y] of TEA_BUDS) assert.ok((inBox(x, y)?.confidence ?? 0) >= 0.5, `clear bud at ${x},${y}`);
    for (const [x, y] of BLURRED_BUDS) {
      const d = inBox(x, y);
      assert.ok(d, `no box around the blurred bud at ${x},${y}`);
      assert.ok(d.confidence >= 0.2 && d.confidence < 0.5, `blurred bud at ${x},${y}: ${d.confidence}`);
    }
    // the clear picture is unchanged by the weak-bud class: 7 confident buds
    const clear = await callOk<Recognition>(emu, sid, 'crop_growth_recognize', {
      imageBase64: sample('tea_buds.png').toString('base64'),
      recognitionType: 'tea_count',
    });
    assert.ok(clear.data.detections.every((d) => d.confidence >= 0.5));
  });

  it('decodes JPEG and data URIs the same way', async () => {
    const r = await callOk<Recognition>(emu, sid, 'crop_growth_recognize', {
      imageBase64: `data:image/jpeg;base64,${sample('tea_buds.jpg').toString('base64')}`,
      recognitionType: 'tea_count',
    });
    assert.equal(r.data.count, 7);
    assert.match(r.data.original_image, /\.jpg\?Expires=\d+&Signature=/);
  });

  it('stage decisions: wheat tillering 分蘖期, ripe wheat 成熟期, tea 萌芽期, not a crop → null', async () => {
    const run = async (file: string, type?: string): Promise<Recognition> =>
      callOk<Recognition>(emu, sid, 'crop_growth_recognize', {
        imageUrl: `${emu.origin}/samples/${file}`,
        ...(type ? { recognitionType: type } : {}),
      });
    const till = await run('wheat_tillering.png');
    assert.equal(till.data.model_id, 'wheat_stage'); // default when omitted
    assert.equal(till.data.model_name, '小麦生育时期');
    assert.equal(till.data.recognized_result, '分蘖期');
    assert.deepEqual(till.data.detections, []);
    assert.equal(till.data.count, 0);
    assert.equal((await run('wheat_mature.png', 'wheat_stage')).data.recognized_result, '成熟期');
    assert.equal((await run('sky_bricks.png', 'wheat_stage')).data.recognized_result, null);
    const tea = await run('tea_buds.png', 'tea_stage');
    assert.equal(tea.data.model_name, '茶树生育时期');
    assert.equal(tea.data.recognized_result, '萌芽期');
    assert.equal((await run('sky_bricks.png', 'tea_stage')).data.recognized_result, null);
    assert.equal((await run('sky_bricks.png', 'tea_count')).data.count, 0);
  });

  it('the sample workspace photos are what make-sample-images.ts generates, small JPEGs', () => {
    const tmp = join(tmpdir(), `photos-${process.pid}`);
    try {
      const written = writeWorkspacePhotos(tmp);
      assert.deepEqual(
        written.map((w) => w.file),
        WORKSPACE_PHOTOS.map((p) => p.file),
      );
      for (const { file, bytes } of written) {
        const committed = readFileSync(join(WORKSPACE_PHOTOS_DIR, file));
        assert.ok(readFileSync(join(tmp, file)).equals(committed), file);
        assert.deepEqual([...committed.subarray(0, 3)], [0xff, 0xd8, 0xff], `${file} is a JPEG`);
        assert.ok(bytes < 50_000, `${file}: ${bytes} bytes`);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('the sample workspace photos are recognised meaningfully: 7 buds, 7 + 3 blurred, 分蘖期, 成熟期', async () => {
    const run = (file: string, recognitionType: string): Promise<Recognition> =>
      callOk<Recognition>(emu, sid, 'crop_growth_recognize', {
        imageBase64: readFileSync(join(WORKSPACE_PHOTOS_DIR, file)).toString('base64'),
        recognitionType,
      });
    const confidences = (r: Recognition): number[] => r.data.detections.map((d) => d.confidence);
    const buds = await run('tea-buds.jpg', 'tea_count');
    assert.equal(buds.data.count, 7);
    assert.ok(confidences(buds).every((c) => c >= 0.5));
    for (const [x, y] of TEA_BUDS)
      assert.ok(
        buds.data.detections.some((q) => q.bbox[0] <= x && x <= q.bbox[2] && q.bbox[1] <= y && y <= q.bbox[3]),
        `a box around the bud at ${x},${y}`,
      );
    assert.equal((await run('tea-buds.jpg', 'tea_stage')).data.recognized_result, '萌芽期');
    const blurry = await run('tea-buds-blurry.jpg', 'tea_count');
    assert.equal(blurry.data.count, 10);
    assert.equal(confidences(blurry).filter((c) => c < 0.5).length, 3, 'the three blurred buds score under 0.5');
    assert.equal((await run('wheat-tillering.jpg', 'wheat_stage')).data.recognized_result, '分蘖期');
    assert.equal((await run('wheat-ripe.jpg', 'wheat_stage')).data.recognized_result, '成熟期');
  });

  it('original_image is served by the endpoint until it expires (emulator clock)', async () => {
    await emu.admin({ now: '2026-10-26T13:48:28+08:00' });
    const r = await callOk<Recognition>(emu, sid, 'crop_growth_recognize', {
      imageUrl: `${emu.origin}/samples/wheat_mature.png`,
    });
    const url = new URL(r.data.original_image);
    assert.equal(url.origin, emu.origin);
    assert.equal(url.searchParams.get('Expires'), String(Date.parse('2026-10-26T13:48:28+08:00') / 1000 + 60));
    const ok = await fetch(url);
    assert.equal(ok.status, 200);
    assert.ok(Buffer.from(await ok.arrayBuffer()).equals(sample('wheat_mature.png')));
    await emu.admin({ now: '2026-10-26T13:49:29+08:00' });
    const gone = await fetch(url);
    assert.equal(gone.status, 403);
    await gone.text();
    await emu.admin({ now: null });
  });

  it('404 → the page text "图片下载失败: HTTP 404 <url>"', async () => {
    const url = `${emu.origin}/samples/a.jpg`;
    const r = await callTool(emu, sid, 'crop_growth_recognize', { imageUrl: url });
    assert.equal(r.isError, true);
    assert.equal(r.text, `Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP 404 ${url}`);
  });

  it('does not follow redirects: 302 → "图片下载失败: HTTP 302 <url>"', async () => {
    const url = `${emu.origin}/samples-redirect/tea_buds.png`;
    const before = emu.requests.length;
    const r = await callTool(emu, sid, 'crop_growth_recognize', { imageUrl: url });
    assert.equal(r.text, `Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP 302 ${url}`);
    assert.deepEqual(
      emu.requests.slice(before).map((q) => q.path),
      ['/mcp', '/samples-redirect/tea_buds.png'],
    );
  });

  it('a download that does not answer in time → "HTTP connect timed out"', async () => {
    const url = `${emu.origin}/samples-slow/tea_buds.png`;
    const r = await callTool(emu, sid, 'crop_growth_recognize', { imageUrl: url, recognitionType: 'tea_count' });
    assert.equal(r.text, `Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP connect timed out ${url}`);
  });

  it('never leaves the machine: a non-loopback host is answered as unreachable', async () => {
    const r = await callTool(emu, sid, 'crop_growth_recognize', { imageUrl: 'https://example.com/a.jpg' });
    assert.equal(
      r.text,
      'Error invoking method: cropGrowthRecognize\n图片下载失败: HTTP connect timed out https://example.com/a.jpg',
    );
  });

  it('refuses a non-image Content-Type and undecodable bytes', async () => {
    const html = await callTool(emu, sid, 'crop_growth_recognize', {
      imageUrl: `${emu.origin}/samples-html/tea_buds.png`,
    });
    assert.match(
      html.text,
      /^Error invoking method: cropGrowthRecognize\n图片下载失败: Content-Type 不是图片类型\(text\/html/,
    );
    const junk = await callTool(emu, sid, 'crop_growth_recognize', {
      imageBase64: Buffer.from('hello world').toString('base64'),
    });
    assert.equal(
      junk.text,
      'Error invoking method: cropGrowthRecognize\n图片解码失败: 不支持的图片格式(仅支持 JPEG、PNG)',
    );
  });

  it('refuses more than 4 MB of decoded bytes', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 7).toString('base64');
    const r = await callTool(emu, sid, 'crop_growth_recognize', { imageBase64: big });
    assert.equal(r.text, 'Error invoking method: cropGrowthRecognize\n图片过大: 超过 4 MB 上限(4194304 字节)');
  });

  it('needs exactly one of imageUrl and imageBase64', async () => {
    const none = await callTool(emu, sid, 'crop_growth_recognize', {});
    assert.equal(
      none.text,
      "Tool (crop_growth_recognize) input validation failed: Validation failed: JSON schema validation errors: [: exactly one of 'imageUrl' or 'imageBase64' is required]",
    );
    const both = await callTool(emu, sid, 'crop_growth_recognize', {
      imageUrl: 'http://127.0.0.1/x.png',
      imageBase64: 'AAAA',
    });
    assert.equal(both.isError, true);
    const badType = await callTool(emu, sid, 'crop_growth_recognize', {
      imageBase64: 'AAAA',
      recognitionType: 'rice_stage',
    });
    assert.equal(
      badType.text,
      'Tool (crop_growth_recognize) input validation failed: Validation failed: JSON schema validation errors: [recognitionType: does not have a value in the enumeration [wheat_stage, tea_count, tea_stage]]',
    );
  });
});
