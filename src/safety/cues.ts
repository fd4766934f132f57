/**
 * The words that tell what a sentence does with a pesticide it names: forbids it, lists it (a
 * restricted-use list, a residue-monitoring list, a list of registrations revoked), recommends it
 * (an instruction of use), or only tells of it (history, misuse reported, chemistry, a trial). The
 * text read here is already folded to simplified script. Pure.
 */

/** Chinese words of prohibition, forbidding what comes before them as well as what follows. */
const FORBIDDING = ['严禁', '禁止', '禁用', '不得', '不准', '不能', '不可', '不要', '切勿', '已禁', '被禁', '淘汰'];

/** A prohibition (or a replacement) before a mention, in its clause: 严禁…, 不得使用…, do not use…, 以…替代…. */
export const FORBIDS_BEFORE = new RegExp(
  [
    ...FORBIDDING,
    ...['不宜', '勿', '杜绝', '避免', '停止', '停用', '不再', '禁限用', '替代', '代替', '取代', '替换', '撤销', '注销'],
    "\\b(?:do not|don't|never|must not|mustn't|may not|should not|shouldn't|cannot|can't|no longer|avoid|avoiding|not|prohibit\\w*|ban|bans|banned|forbid\\w*|instead of|rather than|replac\\w*|substitut\\w*)\\b",
  ].join('|'),
  'i',
);

/** A prohibition as the predicate after a mention: 克百威、氧乐果等高毒农药禁止在蔬菜上使用; carbofuran is banned. */
export const FORBIDS_AFTER = new RegExp(
  [
    ...FORBIDDING,
    '已被',
    '停止',
    '撤销',
    '注销',
    '\\b(?:banned|prohibited|forbidden|must not|may not|must never|not be used|no longer)\\b',
  ].join('|'),
  'i',
);

/** Words of use: between a mention and a later prohibition they make the mention the advice. */
export const USE_BETWEEN =
  /可|选用|使用|施用|喷|撒|用|推荐|防治|\b(?:use|used|apply|applied|spray|recommend\w*|can|control)\b/i;

/** What a lead-in (a heading, or a line ending with a colon) says of the names listed under it. */
export type LeadIn = 'forbids' | 'lists' | 'recommends';

const LEAD_FORBIDS = new RegExp([...FORBIDDING, '禁限用', '撤销', '注销', '停止', '不再'].join('|'));
const LEAD_LISTS =
  /限制使用|限用|定点经营|监测|检测|抽检|抽查|残留|名单|名录|清单|目录|以下农药|下列农药|如下|包括|品种|剧毒|高毒|\b(?:restricted|monitor\w*|list)\b/i;
const LEAD_RECOMMENDS = /推荐|可选用|选用|可用|可选择|药剂有|药剂：|轮换|交替使用|\b(?:recommend\w*|use)\b/i;

/** What a lead-in says of what is listed under it; undefined when it says none of these. */
export function leadIn(text: string): LeadIn | undefined {
  // A prohibition wins: 禁止使用的农药 (the use is what is forbidden), 下列农药禁止销售和使用.
  if (LEAD_FORBIDS.test(text) || /\b(?:banned|prohibited|forbidden)\b/i.test(text)) return 'forbids';
  if (LEAD_LISTS.test(text)) return 'lists';
  if (LEAD_RECOMMENDS.test(text)) return 'recommends';
  return undefined;
}

/** A name explained rather than used: 1605是对硫磷, 克无踪就是百草枯, 乐斯本的有效成分是毒死蜱, 俗称3911. */
export const NAMED_BEFORE = /(?:是|即|就是|指|又称|又名|俗称|学名|通用名|成分为?)\s*[“"「(（]?\s*$/;
export const NAMED_AFTER = /^\s*[”"」)）]?\s*(?:是|即|就是|又称|又名|俗称|的有效成分|的成分|属于|属)/;

/** A clause that gives examples of what the clause before it said: 严禁使用禁用农药，如甲胺磷、对硫磷…. */
export const EXAMPLES = /^\s*(?:如|例如|比如|包括|像|特别是|尤其是|诸如)/;

/** A paragraph about the past: every mention in it is history unless its sentence gives a dose. */
export const HISTORY = /年代|上世纪|那些年|早年|历史上|\b(?:history|historically|in the \d{4}s)\b/i;

/**
 * An instruction of use: how much per 亩, the dilution, what to do with it (亩用, 选用, 可用, 拌种,
 * 灌根, 撒施, 兑水, 喷雾…). Beside a mention in its sentence it makes the mention a recommendation.
 */
export const USE =
  /亩用|每亩|选用|可用|采用|改用|应用|用药|施药|喷雾|喷施|喷洒|弥雾|撒施|沟施|穴施|条施|拌种|拌土|拌细土|浸种|灌根|灌心|浇灌|涂茎|涂抹|熏蒸|毒土|毒饵|兑水|对水|防治|使用|施用|喷|(?:^|[，,\s])用|用\d|\b(?:apply|applied|spray\w*|use|used|treat\w*|fumigat\w*|per mu|drench)\b/i;

/**
 * A sentence that tells of a pesticide rather than tells anyone to use it: history (上世纪五十年代,
 * 曾经), misuse reported (仍使用, 被罚, 查处, 检出), chemistry (降解, 代谢), what it is (属于, 毒性),
 * a registration's fate (已于…), a trial's comparison (对照药剂, 试验).
 */
export const TELLS_OF =
  /年代|上世纪|世纪|曾经|曾|过去|以前|早年|那些年|历史上|当年|仍在?使用|仍有|仍然|还在|私自|违规|违法|非法|被罚|罚款|处罚|查处|查获|立案|据调查|经查|反映|执法|某|个别|少数|经营者|摊贩|商贩|劝阻|准备用|打算用|老习惯|检出|中毒|死亡|事件|事故|误食|误用|剩余|用完|库存|降解|代谢|分解为|转化|毒性|属于|属剧毒|属高毒|俗称|是一种|已于|对照|试验|供试|比较|对比|研究|报道|案例|[？?]|\b(?:history|historically|once|used to|was used|were used|residue|metabolite|degrad\w*|trial|compared|comparison)\b/i;
