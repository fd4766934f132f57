/**
 * A table row's doses, read under its header: a cell of the `亩用量（毫升）` column (`30-40`) is a rate
 * per 亩 in mL, one of `稀释倍数` (`1500`) a dilution, one of `安全间隔期（天）` (`14`) the 安全间隔期, one
 * of `每季最多使用次数` (`2`) the uses per season. Each cell is read with the words its header gives
 * it, and every span found maps back to the row as written. Pure.
 */
import { fold, type Dictionary } from './dictionary';
import { readFolded, type DoseReading } from './dose';
import { foldForDoses } from './doseProducts';

/** A cell of a row: its text and where it starts in the row. */
interface Cell {
  text: string;
  start: number;
}

/** The cells of a Markdown table row, trimmed, with their offsets. */
export function cellsOf(row: string): Cell[] {
  const cells: Cell[] = [];
  let from = row.indexOf('|') + 1;
  for (let i = from; i <= row.length; i++) {
    if (i < row.length && (row[i] !== '|' || row[i - 1] === '\\')) continue;
    const raw = row.slice(from, i);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    if (i < row.length || text) cells.push({ text, start: from + lead });
    from = i + 1;
  }
  return cells;
}

/** Whether a row is a table's delimiter row (`| --- | :-: |`). */
export function isDelimiterRow(row: string): boolean {
  return /^\s*\|?(?:\s*:?-+:?\s*\|)+\s*:?-*:?\s*$/.test(row);
}

const UNIT_IN = /(毫升|ml|千克|公斤|kg|克|g|升|l)(?![a-z])/;
const HAS_UNIT = /(毫升|ml|千克|公斤|kg|克|g|升|l|斤)(?![a-z])/;

/** The words a header puts before and after its cells' text. */
function wordsFor(header: string, cell: string): [string, string] {
  const h = foldForDoses(fold(header));
  if (/安全间隔期/.test(h)) return [/安全间隔期/.test(cell) ? '' : '安全间隔期', /天|d|日/.test(cell) ? '' : '天'];
  if (/最多|次数/.test(h)) return [/最多/.test(cell) ? '' : '最多使用', /次/.test(cell) ? '' : '次'];
  if (/倍/.test(h)) return ['', /倍/.test(cell) ? '' : '倍'];
  if (/间隔/.test(h)) return [/隔/.test(cell) ? '' : '间隔', /天|d|日/.test(cell) ? '' : '天'];
  if (/兑水|对水|喷液量|药液量|用水量/.test(h))
    return [/水|液量/.test(cell) ? '' : '兑水', HAS_UNIT.test(cell) ? '' : '公斤'];
  if (/亩|公顷|hm|用量|用药量|剂量|制剂量/.test(h)) {
    const area = /公顷|hm/.test(h) ? '每公顷' : '亩用';
    const ai = /有效成分/.test(h) && !/有效成分/.test(cell) ? '有效成分' : '';
    const unit = HAS_UNIT.test(cell) ? '' : (UNIT_IN.exec(h)?.[1] ?? '');
    return [`${area}${ai}`, unit];
  }
  return ['', ''];
}

/**
 * The doses of a table row (`row`, as written) under its `header` row. Spans are the row's: a
 * number in a cell is where it is written.
 */
export function readTableRow(
  row: string,
  header: string,
  dictionary: Dictionary,
  targets: RegExp | undefined,
): DoseReading {
  const cells = cellsOf(row);
  const heads = cellsOf(header);
  let text = '';
  // Where each character read starts and ends in the row: the header's words stand at the cell's edges.
  const starts: number[] = [];
  const ends: number[] = [];
  const put = (n: number, start: number, end: number): void => {
    for (let k = 0; k < n; k++) {
      starts.push(start);
      ends.push(end);
    }
  };
  cells.forEach((cell, i) => {
    const folded = foldForDoses(fold(cell.text));
    const [before, after] = folded.trim() ? wordsFor(heads[i]?.text ?? '', folded) : ['', ''];
    const cellEnd = cell.start + cell.text.length;
    put(before.length, cell.start, cell.start);
    for (let k = 0; k < folded.length; k++) put(1, cell.start + k, cell.start + k + 1);
    put(after.length + 1, cellEnd, cellEnd);
    text += `${before}${folded}${after}，`;
  });
  const reading = readFolded(text, dictionary, targets);
  const at = (i: number): number => starts[i] ?? row.length;
  const end = (i: number): number => (i > 0 ? (ends[i - 1] ?? row.length) : at(0));
  for (const p of reading.products) {
    [p.start, p.end] = [at(p.start), end(p.end)];
    if (p.concentration)
      [p.concentration.start, p.concentration.end] = [at(p.concentration.start), end(p.concentration.end)];
  }
  for (const f of reading.facts) {
    [f.start, f.end, f.valueStart, f.valueEnd] = [at(f.start), end(f.end), at(f.valueStart), end(f.valueEnd)];
  }
  return reading;
}
