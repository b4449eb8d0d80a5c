import type { AgentCondition } from '../../tasks/scc-secondary/agent/prompts.js';
import { rate } from './ask.js';
import type { AgentThreshold, AgentTrial } from './schema.js';

/**
 * Table S10 of paper 003: per condition with a marker burden, over its marker levels (ascending), where the
 * count/copy field stops being reliably exact. "Full success" = every answered trial at that level right.
 * Levels whose trials were all missing data are skipped.
 */
export function agentThreshold(condition: AgentCondition, trials: readonly AgentTrial[]): AgentThreshold {
  const own = trials.filter((t) => t.condition === condition && t.answered);
  const levels = [...new Set(own.map((t) => t.markerCount))].sort((a, b) => a - b);
  let lastFullSuccess: number | null = null;
  let firstFailure: number | null = null;
  let firstAllFail: number | null = null;
  const recoveries: number[] = [];
  let trialsPerLevel = 0;
  for (const level of levels) {
    const here = own.filter((t) => t.markerCount === level).map((t) => t.countOrCopyCorrect === true);
    trialsPerLevel = Math.max(trialsPerLevel, here.length);
    const right = here.filter(Boolean).length;
    if (right === here.length) lastFullSuccess = level;
    if (right < here.length && firstFailure === null) firstFailure = level;
    if (right === 0 && firstAllFail === null) firstAllFail = level;
    else if (firstAllFail !== null && right > 0) recoveries.push(level);
  }
  return {
    condition,
    levels: levels.length,
    trialsPerLevel,
    lastFullSuccess,
    firstFailure,
    firstAllFail,
    recoveries,
    taskSuccessRate: rate(own.map((t) => t.taskCorrect)),
  };
}
