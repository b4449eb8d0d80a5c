import type { Report } from '../src/schema/report.js';

/** What the console says about a written report, read from its trials. */

/** The message of the first trial a provider-fatal condition stopped (src/subjects/openai), if any. */
export function providerStop(report: Report): string | undefined {
  const marker = `run stopped (CB_PROVIDER_FATAL)`;
  for (const cell of report.cells)
    for (const trial of cell.trials) {
      const issue = trial.outcome.issues.find((i) => i.startsWith(marker));
      if (issue) return issue;
    }
  return undefined;
}

/** The provider's message of the first `api` trial (report order), for the console line under "missing data". */
export function firstApiIssue(report: Report): string | undefined {
  for (const cell of report.cells)
    for (const trial of cell.trials)
      if (trial.outcome.kind === 'api' && trial.outcome.issues[0]) return trial.outcome.issues[0];
  return undefined;
}
