/**
 * `crop_growth_recognize`: downloads (`imageUrl`, no redirects followed) or decodes
 * (`imageBase64`, bare or data URI) one picture of at most 4 MB (decoded bytes), analyses its
 * pixels (see ../vision.ts), keeps an expiring copy and answers in the vendor's shape.
 * The endpoint never leaves the machine: an `imageUrl` whose host is not 127.0.0.1 is answered
 * like an unreachable host (`图片下载失败: HTTP connect timed out <url>`).
 */
import { z } from 'zod';
import type { ImageStore } from '../images';
import { ToolFailure } from '../validation';
import { classify, decodeImage, detectBuds, shares, teaStage, wheatStage } from '../vision';
import type { ToolDef } from './types';

/** The decoded size limit (4 MB). */
export const MAX_IMAGE_BYTES = 4 * 1024 * 1024;

/** Input schema of crop_growth_recognize. */
export const recognizeSchema = z
  .strictObject({
    imageUrl: z.string().min(1).optional().describe('图片直链（服务端直接下载，不跟随重定向）；与 imageBase64 二选一'),
    imageBase64: z
      .string()
      .min(1)
      .optional()
      .describe(
        '图片 base64（不带前缀）或完整 data URI（data:image/jpeg;base64,…）；与 imageUrl 二选一；解码后不超过 4 MB',
      ),
    recognitionType: z
      .enum(['wheat_stage', 'tea_count', 'tea_stage'])
      .default('wheat_stage')
      .describe('识别类型：wheat_stage 小麦生育期（默认）、tea_count 茶芽计数、tea_stage 茶树生育期'),
  })
  .refine((v) => (v.imageUrl === undefined) !== (v.imageBase64 === undefined), {
    message: "exactly one of 'imageUrl' or 'imageBase64' is required",
  });

const MODEL_NAMES: Record<string, string> = {
  wheat_stage: '小麦生育时期',
  tea_count: '茶叶数量检测',
  tea_stage: '茶树生育时期',
};

/** What the tool needs from the server. */
export interface RecognizeDeps {
  images: ImageStore;
  origin: () => string;
  downloadTimeoutMs: number;
}

/** Downloads an image without following redirects; every failure is `图片下载失败: …`. */
export async function downloadImage(url: string, timeoutMs: number, signal: AbortSignal): Promise<Buffer> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolFailure(`图片下载失败: 无效的地址 ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ToolFailure(`图片下载失败: 不支持的协议 ${url}`);
  // Loopback only: any other host behaves like a host the service cannot reach.
  if (parsed.hostname !== '127.0.0.1') throw new ToolFailure(`图片下载失败: HTTP connect timed out ${url}`);
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  try {
    const res = await fetch(parsed, { redirect: 'manual', signal: both });
    if (res.status < 200 || res.status >= 300) {
      await res.body?.cancel();
      throw new ToolFailure(`图片下载失败: HTTP ${res.status} ${url}`);
    }
    const type = res.headers.get('content-type') ?? '';
    if (!type.toLowerCase().startsWith('image/')) {
      await res.body?.cancel();
      throw new ToolFailure(`图片下载失败: Content-Type 不是图片类型(${type || '无'}) ${url}`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (;;) {
      if (!reader) break;
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MAX_IMAGE_BYTES) {
        await reader.cancel().catch(() => undefined);
        throw new ToolFailure(`图片过大: 超过 4 MB 上限(${MAX_IMAGE_BYTES} 字节)`);
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  } catch (e) {
    if (e instanceof ToolFailure) throw e;
    if (signal.aborted) throw new Error('cancelled');
    if (timeout.aborted) throw new ToolFailure(`图片下载失败: HTTP connect timed out ${url}`);
    throw new ToolFailure(`图片下载失败: HTTP connect failed ${url}`);
  }
}

/** Decodes bare base64 or a data URI. */
export function decodeBase64Image(input: string): Buffer {
  const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(input.trim());
  if (m && !m[2]) throw new ToolFailure('图片解码失败: data URI 必须是 base64 编码');
  const payload = (m ? (m[3] ?? '') : input).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload) || payload.length === 0)
    throw new ToolFailure('图片解码失败: base64 无效');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw new ToolFailure(`图片过大: 超过 4 MB 上限(${MAX_IMAGE_BYTES} 字节)`);
  return bytes;
}

/** Builds the tool. */
export function recognizeTool(deps: RecognizeDeps): ToolDef<typeof recognizeSchema> {
  return {
    name: 'crop_growth_recognize',
    method: 'cropGrowthRecognize',
    description:
      '作物生长周期图像识别：传入图片地址 imageUrl 或 imageBase64，recognitionType 为 wheat_stage（默认）、tea_count 或 tea_stage。',
    schema: recognizeSchema,
    async run(input, ctx) {
      await ctx.progress(0, 3, '读取图片');
      const bytes =
        input.imageUrl !== undefined
          ? await downloadImage(input.imageUrl, deps.downloadTimeoutMs, ctx.signal)
          : decodeBase64Image(input.imageBase64 ?? '');
      await ctx.progress(1, 3, '识别中');
      const started = performance.now();
      const img = decodeImage(bytes);
      const grid = classify(img);
      const s = shares(grid);
      const type = input.recognitionType;
      const detections = type === 'tea_count' && s.green >= 0.3 ? detectBuds(grid, img.width, img.height) : [];
      const recognized = type === 'tea_count' ? detections.length : type === 'tea_stage' ? teaStage(s) : wheatStage(s);
      const inference = Math.round(((performance.now() - started) / 1000) * 10_000) / 10_000;
      if (ctx.signal.aborted) throw new Error('cancelled');
      const original = deps.images.put(deps.origin(), bytes, img.contentType);
      await ctx.progress(2, 3, '完成');
      return {
        status: 'success',
        data: {
          task_type: 'detect',
          detections,
          count: detections.length,
          inference_time: inference,
          input_size: [640, 640],
          model_id: type,
          model_name: MODEL_NAMES[type],
          recognized_result: recognized,
          original_image: original,
          original_compressed: false,
        },
        message: '检测成功',
        error: null,
      };
    },
  };
}
