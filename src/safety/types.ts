/** The pesticide safety lint's values: rules, the rule set in force and what the lint finds. Pure. */

/** A rule's kind: banned outright, banned within a scope (crops or uses), or restricted use. */
export type SafetyKind = 'banned' | 'scope' | 'restricted';

/** One rule of the rules file. */
export interface SafetyRule {
  /** Stable (e.g. `carbofuran-736`); a diagnostic's code, and what a station file overrides. */
  id: string;
  /** The canonical Chinese name (克百威). */
  substance: string;
  /** The English common name, shown in English messages. */
  en?: string | undefined;
  /** Every name the lint recognises: Chinese, English, codes and trade names (呋喃丹, carbofuran…). */
  names: string[];
  kind: SafetyKind;
  /**
   * For `scope`: the crops and uses it is banned on. `except`: words that lift the rule where they
   * stand in the mention's sentence (拌种, 检疫熏蒸); `exceptOn`: the crops on which they lift it
   * (玉米 and the other 旱田作物 for fipronil's seed coating), any crop (or none named) when absent.
   */
  scope?:
    | {
        crops?: string[] | undefined;
        uses?: string[] | undefined;
        except?: string[] | undefined;
        exceptOn?: string[] | undefined;
      }
    | undefined;
  /** YYYY-MM-DD, the day from which the rule is in force. */
  effective: string;
  /** The announcement (农业农村部公告第736号). */
  announcement: string;
  /** What is less certain, exceptions, trade names. */
  note?: string | undefined;
  /** The note in Chinese. */
  noteZh?: string | undefined;
}

/** A crop of the hierarchy the scopes name (白菜 is a 十字花科蔬菜 is a 蔬菜 is a 作物). */
export interface Crop {
  name: string;
  en?: string | undefined;
  parents: string[];
  aliases: string[];
}

/** A use a scope names (卫生害虫, 水生植物). */
export interface Use {
  name: string;
  en?: string | undefined;
  aliases: string[];
}

/** The rules in force: the shipped file, with a station's file over it. */
export interface RuleSet {
  asOf: string;
  version: number;
  sources: string;
  rules: readonly SafetyRule[];
  crops: readonly Crop[];
  uses: readonly Use[];
  /** Names of active ingredients no rule names, known so a longer allowed name is not read as a shorter banned one. */
  otherNames: readonly string[];
  /** Ordinary words that hold a name's characters (快乐 holds 乐). */
  ordinaryWords: readonly string[];
}

/** A problem of a station's rules file; `line` and `column` are 1-based. */
export interface RulesProblem {
  line: number;
  column?: number;
  message: string;
}

/** A mention of a pesticide that a rule in force (or coming into force) concerns. */
export interface SafetyFinding {
  rule: SafetyRule;
  /** The text as written. */
  mention: string;
  /** In the linted text, UTF-16. */
  offset: number;
  length: number;
  /** 0-based, as a `vscode.Position`. */
  line: number;
  character: number;
  /** error: a ban in force that applies here; warning: a scope ban where no crop could be told;
   * information: a ban coming into force within six months, or a restricted-use pesticide. */
  severity: 'error' | 'warning' | 'information';
  /** A ban taking effect within six months after the bulletin's date. */
  upcoming: boolean;
  /** The crop (or use) that put a scope rule in force. */
  crop?: string | undefined;
  /** No crop could be told, so the finding reads "if used on …". */
  conditional: boolean;
  /** The bulletin's date the rules were applied on. */
  date: string;
}
