/** The options of one search (knowledge base, topK, threshold, rerank, mode), edited in the same quick input. */
import vscode = require('vscode');
import type { SearchOptions } from '../../../knowledge/history';
import type { Connection } from '../../shared/connection';
import { vocabularyFor } from '../../shared/search/vocabulary';
import type { FlowItem } from '../items';
import type { FlowContext } from '../state';

/** True when the endpoint's knowledge_search declares a `mode` argument. */
async function modeDeclared(connection: Connection): Promise<boolean> {
  const seen = connection.tools;
  const tools = seen.length
    ? seen
    : await connection
        .getClient()
        .then((c) => c.listTools())
        .catch(() => []);
  const tool = tools.find((t) => t.name === 'knowledge_search' || t.name.endsWith('knowledge_search'));
  return tool?.inputSchema.properties?.['mode'] !== undefined;
}

/** The option items, each with its current value. */
function optionItems(o: SearchOptions, withMode: boolean): FlowItem[] {
  return [
    {
      label: vscode.l10n.t('Knowledge base'),
      description: o.kbCode ?? vscode.l10n.t('all knowledge bases'),
      role: 'option',
      option: 'kb',
    },
    { label: vscode.l10n.t('Passages (topK)'), description: String(o.topK ?? 5), role: 'option', option: 'topK' },
    {
      label: vscode.l10n.t('Score threshold'),
      description: String(o.scoreThreshold ?? 0.7),
      detail: vscode.l10n.t(
        'Filters vector candidates by cosine similarity; lower values bring noise, 0 turns filtering off.',
      ),
      role: 'option',
      option: 'threshold',
    },
    {
      label: vscode.l10n.t('Rerank'),
      description: o.useRerank ? vscode.l10n.t('on') : vscode.l10n.t('off'),
      role: 'option',
      option: 'rerank',
    },
    ...(withMode
      ? [
          {
            label: vscode.l10n.t('Mode'),
            description: o.mode ?? 'hybrid',
            role: 'option' as const,
            option: 'mode' as const,
          },
        ]
      : []),
    { label: `$(check) ${vscode.l10n.t('Done')}`, role: 'done', alwaysShow: true },
  ];
}

/**
 * The options menu and its sub-steps. Returns the options when done (Done or Back), as they are
 * when Enter had no item; closing the quick input is thrown.
 */
export async function editOptions(ctx: FlowContext, initial: SearchOptions): Promise<SearchOptions> {
  const input = ctx.input;
  let o = { ...initial };
  const withMode = await modeDeclared(ctx.services.connection);
  for (;;) {
    const r = await input.pickOrBack({
      title: vscode.l10n.t('Search options'),
      placeholder: vscode.l10n.t('Pick an option to change it'),
      items: optionItems(o, withMode),
      back: true,
    });
    // Done, Back, or Enter on no item: the options as they are.
    if (r?.item?.role !== 'option') return o;
    switch (r.item.option) {
      case 'rerank':
        o = { ...o, useRerank: !o.useRerank };
        break;
      case 'mode':
        o = { ...o, mode: o.mode === 'vector' ? 'hybrid' : 'vector' };
        break;
      case 'kb':
        o = await pickKnowledgeBase(ctx, o);
        break;
      case 'topK':
      case 'threshold':
        o = await pickNumber(ctx, o, r.item.option === 'topK');
        break;
    }
  }
}

/** One knowledge base (from the vocabulary and those seen) or all; Back keeps `o`. */
async function pickKnowledgeBase(ctx: FlowContext, o: SearchOptions): Promise<SearchOptions> {
  const vocab = vocabularyFor(ctx.services.knowledge(), ctx.target?.document.uri);
  const all: FlowItem = { label: vscode.l10n.t('All knowledge bases'), role: 'value', value: '' };
  const codes = new Map<string, string>();
  for (const c of vocab.crops) if (c.kbCode) codes.set(c.kbCode, c.kbName ?? c.kbCode);
  for (const b of ctx.services.store.state.bases) codes.set(b.code, b.name ?? codes.get(b.code) ?? b.code);
  const kbItems: FlowItem[] = [...codes].map(([code, name]) => ({
    label: name,
    description: code,
    role: 'value',
    value: code,
  }));
  const p = await ctx.input.pickOrBack({
    title: vscode.l10n.t('Knowledge base'),
    placeholder: vscode.l10n.t('Search one knowledge base, or all'),
    items: [all, ...kbItems],
    back: true,
  });
  if (!p) return o;
  const code = p.item ? (p.item.role === 'value' ? p.item.value : '') : p.value.trim();
  const { kbCode: _drop, ...rest } = o;
  void _drop;
  return code ? { ...rest, kbCode: code } : rest;
}

/** topK or the score threshold: a preset or a typed number, checked; Back keeps `o`. */
async function pickNumber(ctx: FlowContext, o: SearchOptions, isTopK: boolean): Promise<SearchOptions> {
  const presets = isTopK ? ['3', '5', '10', '20'] : ['0.7', '0.65', '0.6', '0.5'];
  const p = await ctx.input.pickOrBack({
    title: isTopK ? vscode.l10n.t('Passages (topK)') : vscode.l10n.t('Score threshold'),
    placeholder: isTopK
      ? vscode.l10n.t('1 to 20; type a number or pick one')
      : vscode.l10n.t('0 to 1; type a number or pick one. Low values bring noise.'),
    items: presets.map((v) => ({
      label: v,
      role: 'value',
      value: v,
      ...(!isTopK && Number(v) < 0.6
        ? { detail: vscode.l10n.t('Low thresholds let off-topic passages through: check each before citing.') }
        : {}),
    })),
    back: true,
  });
  if (!p) return o;
  const raw = Number(p.item ? (p.item.role === 'value' ? p.item.value : '') : p.value.trim());
  if (isTopK && Number.isInteger(raw) && raw >= 1 && raw <= 20) return { ...o, topK: raw };
  if (!isTopK && Number.isFinite(raw) && raw >= 0 && raw <= 1) {
    if (
      raw === 0 &&
      !(await ctx.steps.confirmNoise(
        vscode.l10n.t('With the threshold off, unrelated low-scoring passages are returned.'),
      ))
    )
      return o;
    return { ...o, scoreThreshold: raw };
  }
  void vscode.window.showWarningMessage(
    isTopK
      ? vscode.l10n.t('topK must be a whole number from 1 to 20.')
      : vscode.l10n.t('The score threshold must be a number from 0 to 1.'),
  );
  return o;
}
