import { isSuccess } from '../../outcome.js';
import { extractJsonObject, isStrictJsonOnly, pythonInt } from '../json-extract.js';
import { secondarySpec } from './conditions.js';
import type { DualData } from './instance.js';

/**
 * Scoring of one dual-task response as `run_one` does: the JSON object, `count` by Python `int()` (booleans
 * count as 1/0 there), the signed error parsed − target, the `b` count for dual counting, and the secondary
 * task's answer graded by that task's own grader (ours; the authors graded benchmark answers).
 * `taskCorrect` is null when the condition has no task or no JSON object was found (as the authors store it).
 */
export interface DualScore {
  parseable: boolean;
  strictJson: boolean;
  parsedCount: number | null;
  countError: number | null;
  countCorrect: boolean;
  parsedSecondaryCount: number | null;
  secondaryCorrect: boolean | null;
  taskCorrect: boolean | null;
  taskIssues: string[];
}

const answerText = (value: unknown): string | null =>
  value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);

export function scoreDualResponse(data: DualData, text: string): DualScore {
  const extraction = extractJsonObject(text);
  const parsed = extraction.ok ? extraction.value : null;
  const parsedCount = parsed ? pythonInt(parsed.count, 'int') : null;
  const secondaryTarget = data.control?.secondaryCount ?? null;
  const parsedSecondaryCount = parsed ? pythonInt(parsed.secondary_count, 'int') : null;
  let taskCorrect: boolean | null = null;
  let taskIssues: string[] = [];
  if (data.item && data.condition.startsWith('real_task') && parsed) {
    const answer = answerText(parsed.task_answer);
    if (answer === null) {
      taskCorrect = false;
      taskIssues = ['task_answer missing'];
    } else {
      const outcome = secondarySpec(data.item.task).plugin.grade(data.item.instance, answer);
      taskCorrect = isSuccess(outcome);
      taskIssues = outcome.issues.slice(0, 3);
    }
  }
  return {
    parseable: parsed !== null,
    strictJson: isStrictJsonOnly(text, parsed !== null),
    parsedCount,
    countError: parsedCount === null ? null : parsedCount - data.count,
    countCorrect: parsedCount === data.count,
    parsedSecondaryCount,
    secondaryCorrect: secondaryTarget === null ? null : parsedSecondaryCount === secondaryTarget,
    taskCorrect,
    taskIssues,
  };
}
