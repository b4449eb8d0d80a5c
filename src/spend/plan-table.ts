import type { Plan, PlanAmount, PlanRange } from '../schema/plan.js';

/** Thousands separated, whole numbers (a plan's token counts are estimates of whole tokens). */
const int = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A count, or `low–high` when it is a range. */
function rangeText(range: PlanRange): string {
  if (range.low === range.high) return int(range.low);
  return `${int(range.low)}–${int(range.high)}`;
}

/** USD: cents above a dollar, two significant digits below it ($0.0031), so a small run does not read as $0.00. */
export function usd(value: number): string {
  if (value === 0) return '$0';
  if (value >= 100) return `$${int(value)}`;
  if (value >= 1) return `$${value.toFixed(2)}`;
  return `$${value.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '')}`;
}

function costText(amount: PlanAmount): string {
  const cost = amount.costUsd;
  if (cost === null) return 'no price';
  const bounds = `[${usd(cost.low)}–${usd(cost.high)}]`;
  return cost.expected === null ? `— ${bounds}` : `${usd(cost.expected)} ${bounds}`;
}

function outputText(range: PlanRange): string {
  return range.expected === null ? rangeText(range) : int(range.expected);
}

type Row = [string, string, string, string, string, string];

const HEADER: Row = ['project', 'calls', 'cached', 'prompt tokens', 'output tokens', 'cost expected [low–high]'];

function amountRow(name: string, cached: number | null, amount: PlanAmount): Row {
  return [
    name,
    rangeText(amount.calls),
    cached === null ? '—' : int(cached),
    rangeText(amount.promptTokens),
    outputText(amount.outputTokens),
    costText(amount),
  ];
}

function layout(rows: readonly Row[]): string[] {
  const widths = HEADER.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  // names and the cost column read left to right; counts line up on the right
  return rows.map((row) =>
    row
      .map((cell, i) => (i === 0 || i === row.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

function priceText(plan: Plan): string {
  const { price } = plan;
  if (price === null) return 'price: none (tokens only)';
  const cached = price.cachedInput === undefined ? '' : `, cached input $${price.cachedInput}`;
  const reasoning = price.reasoning === undefined ? '' : `, reasoning $${price.reasoning}`;
  return `price per 1M tokens: input $${price.input}${cached}, output $${price.output}${reasoning}`;
}

/** The plan as a table a person reads at a glance: one row per project, a total, then the notes. */
export function formatPlanTable(plan: Plan): string {
  const design = plan.design.kind === 'adaptive' ? 'design adaptive' : 'design grid';
  const tokenizer = `tokenizer ${plan.tokenizer.encoding}${plan.tokenizer.exact ? '' : ' (approximate)'}`;
  const lines = [
    `ceilingbench plan · ${plan.subject.spec} · ${plan.trials} trials per cell · seed ${plan.seed} · ${design}`,
    `${priceText(plan)} · ${tokenizer}`,
    '',
  ];
  const rows: Row[] = [HEADER];
  for (const project of plan.projects) {
    if (project.amount === null) rows.push([project.name, 'not estimated', '', '', '', '']);
    else rows.push(amountRow(project.name, project.cached, project.amount));
  }
  const total = plan.totals.complete ? 'total' : 'total (estimated projects)';
  rows.push(amountRow(total, plan.totals.cached, plan.totals.amount));
  const table = layout(rows);
  const rule = '─'.repeat(Math.max(...table.map((l) => l.length)));
  lines.push(table[0], rule, ...table.slice(1, -1), rule, table[table.length - 1], '');
  lines.push('calls and tokens are for the requests still to send: a cached answer costs nothing');
  for (const note of plan.notes) lines.push(`· ${note}`);
  return `${lines.join('\n')}\n`;
}
