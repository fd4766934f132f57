/**
 * Telling a prohibition from a recommendation. "严禁在茶园使用克百威、氧乐果等高毒农药" names banned
 * pesticides to forbid them, which is the advice a bulletin should give. The unit is the clause: a
 * block is cut at sentence ends, semicolons and commas (not the 、 of a list, not the comma of
 * 2,4-滴). A mention is not a recommendation when, in its clause,
 * - a prohibition comes before it (严禁…, 不得使用…, do not use…, avoid…);
 * - it is what is replaced (以吡虫啉替代克百威, use X instead of carbofuran);
 * - a prohibition is the clause's predicate after it, with no word of use between them
 *   (克百威、氧乐果等高毒农药禁止在蔬菜上使用; carbofuran is banned).
 * Pure.
 */

const CLAUSE_END = /[。！？；;!?]|[，,](?!\d)|\.(?=\s|$)/g;

/** Chinese words of prohibition, forbidding what comes before them as well as what follows. */
const FORBIDDING = ['严禁', '禁止', '禁用', '不得', '不准', '不能', '不可', '不要', '切勿', '已禁', '被禁', '淘汰'];

const BEFORE = new RegExp(
  [
    ...FORBIDDING,
    ...['不宜', '勿', '杜绝', '避免', '停止', '停用', '不再', '禁限用', '替代', '代替', '取代', '替换'],
    "\\b(?:do not|don't|never|must not|mustn't|may not|should not|shouldn't|cannot|can't|no longer|avoid|avoiding|not|prohibit\\w*|ban|bans|banned|forbid\\w*|instead of|rather than|replac\\w*|substitut\\w*)\\b",
  ].join('|'),
  'i',
);

const AFTER = new RegExp(
  [
    ...FORBIDDING,
    '已被',
    '\\b(?:banned|prohibited|forbidden|must not|may not|must never|not be used|no longer)\\b',
  ].join('|'),
  'i',
);

/** Words of use: between a mention and a later prohibition they make the mention the advice. */
const USE = /可|选用|使用|施用|喷|撒|用|推荐|防治|\b(?:use|used|apply|applied|spray|recommend\w*|can|control)\b/i;

/** Whether the mention at [start, end) of `block` is forbidden or replaced rather than recommended. */
export function isProhibited(block: string, start: number, end: number): boolean {
  let from = 0;
  let to = block.length;
  CLAUSE_END.lastIndex = 0;
  for (let m = CLAUSE_END.exec(block); m; m = CLAUSE_END.exec(block)) {
    if (m.index < start) from = m.index + m[0].length;
    else if (m.index >= end) {
      to = m.index;
      break;
    }
  }
  if (BEFORE.test(block.slice(from, start))) return true;
  const after = block.slice(end, to);
  const a = AFTER.exec(after);
  return a !== null && !USE.test(after.slice(0, a.index));
}
