import type { Plan, PlanAmount, PlanProject, PlanRange, PlanSubjectPlan } from '../schema/plan.js';

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

function priceText({ price }: Pick<Plan, 'price'>): string {
  if (price === null) return 'price: none (tokens only)';
  const cached = price.cachedInput === undefined ? '' : `, cached input $${price.cachedInput}`;
  const reasoning = price.reasoning === undefined ? '' : `, reasoning $${price.reasoning}`;
  return `price per 1M tokens: input $${price.input}${cached}, output $${price.output}${reasoning}`;
}

const tokenizerText = ({ tokenizer }: Pick<Plan, 'tokenizer'>): string =>
  `tokenizer ${tokenizer.encoding}${tokenizer.exact ? '' : ' (approximate)'}`;

function projectRow(project: PlanProject): Row {
  if (project.amount === null) return [project.name, 'not estimated', '', '', '', ''];
  return amountRow(project.name, project.cached, project.amount);
}

const totalName = (head: string, complete: boolean): string => (complete ? head : `${head} (estimated projects)`);

function heading(plan: Plan, what: string): string {
  const design =
    plan.design.kind === 'sequential'
      ? 'design sequential (the rows price the grid at these trials; the gates section states its expected and maximum calls)'
      : `design ${plan.design.kind}`;
  return `ceilingbench plan · ${what} · ${plan.trials} trials per cell · seed ${plan.seed} · ${design}`;
}

function footer(plan: Plan): string[] {
  return [
    'calls and tokens are for the requests still to send: a cached answer costs nothing',
    ...plan.notes.map((note) => `· ${note}`),
  ];
}

/** The plan of one subject: one row per project, a total, then the notes. */
function oneSubjectTable(plan: Plan): string[] {
  const lines = [heading(plan, plan.subject.spec), `${priceText(plan)} · ${tokenizerText(plan)}`, ''];
  const rows: Row[] = [HEADER, ...plan.projects.map(projectRow)];
  rows.push(amountRow(totalName('total', plan.totals.complete), plan.totals.cached, plan.totals.amount));
  const table = layout(rows);
  const rule = '─'.repeat(Math.max(...table.map((l) => l.length)));
  lines.push(table[0], rule, ...table.slice(1, -1), rule, table[table.length - 1], '');
  return [...lines, ...footer(plan)];
}

/**
 * The plan of several subjects: a block per subject (its price and tokenizer, its projects as the run names them,
 * its total), then the run's total over them all, which the notes compare with the spending limits.
 */
function severalSubjectsTable(plan: Plan): string[] {
  const byName = new Map(plan.projects.map((p) => [p.name, p]));
  const blockRows = (subject: PlanSubjectPlan): Row[] => [
    ...subject.projects.flatMap((name) => {
      const project = byName.get(name);
      return project ? [projectRow(project)] : [];
    }),
    amountRow(
      totalName(`total ${subject.label ?? subject.spec}`, subject.totals.complete),
      subject.totals.cached,
      subject.totals.amount,
    ),
  ];
  const blocks = plan.subjects.map(blockRows);
  const runTotal = amountRow(
    totalName(`run total (${plan.subjects.length} subjects)`, plan.totals.complete),
    plan.totals.cached,
    plan.totals.amount,
  );
  // one layout for every row, so that the columns line up across the blocks
  const table = layout([HEADER, ...blocks.flat(), runTotal]);
  const rule = '─'.repeat(Math.max(...table.map((l) => l.length)));
  const lines = [heading(plan, `${plan.subjects.length} subjects`), '', table[0]];
  let next = 1;
  for (const [i, subject] of plan.subjects.entries()) {
    lines.push(rule, `${subject.spec} · ${priceText(subject)} · ${tokenizerText(subject)}`);
    lines.push(...table.slice(next, next + blocks[i].length));
    next += blocks[i].length;
  }
  lines.push(rule.replace(/─/g, '═'), table[next], '');
  return [...lines, ...footer(plan)];
}

/** The plan as a table a person reads at a glance; with several subjects, a block per subject and the run total. */
export function formatPlanTable(plan: Plan): string {
  const lines = plan.subjects.length > 1 ? severalSubjectsTable(plan) : oneSubjectTable(plan);
  return `${lines.join('\n')}\n`;
}
