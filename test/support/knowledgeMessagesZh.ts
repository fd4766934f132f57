/** The knowledge messages in zh-CN as the extension shows them: each English template's translation in the l10n bundle. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { messagesEn, type MessageKey } from '../../src/knowledge/messages';

const bundle = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8'),
) as Record<string, string>;

export const messagesZhCn = Object.fromEntries(
  (Object.keys(messagesEn) as MessageKey[]).map((k) => [k, bundle[messagesEn[k]] ?? '']),
) as Record<MessageKey, string>;
