import { markerSequence } from '../common.js';
import { extractJsonObject, isStrictJsonOnly, type JsonObject, pythonInt } from '../json-extract.js';
import {
  type AgentCondition,
  COPY_ACTION,
  COPY_PATH,
  conditionHasCopy,
  conditionHasMarkers,
  conditionHasTask,
  requiredKeys,
} from './prompts.js';
import { ACCOUNTS, type AgentExpected } from './task.js';

/**
 * Scoring of one agent-operation response, field by field as `build_record` does. Fields that do not apply
 * to the condition are null (the authors' None), so rates are computed over the trials they apply to.
 */
export interface AgentScore {
  parseable: boolean;
  strictJson: boolean;
  schemaExact: boolean;
  missingKeys: string[];
  extraKeys: string[];
  /** parseable && strict && exact key set (`format_contract_success`). */
  formatContract: boolean;
  parsedMarkerCount: number | null;
  markerCountCorrect: boolean | null;
  copyActionCorrect: boolean | null;
  copyPathCorrect: boolean | null;
  copyExact: boolean | null;
  copiedMarkerCount: number | null;
  copyMarkerCountCorrect: boolean | null;
  reportedMarkerCountCorrect: boolean | null;
  externalizationSuccess: boolean | null;
  finalBalancesCorrect: boolean | null;
  reviewIdsCorrect: boolean | null;
  netTotalCorrect: boolean | null;
  nextActionCorrect: boolean | null;
  taskCorrect: boolean | null;
  taskFieldScore: number | null;
}

export interface AgentScoreInput {
  condition: AgentCondition;
  markerCount: number;
  expected: AgentExpected | null;
}

/** `count_markers_in_text`: comma-separated pieces equal to the marker after stripping. */
export function countMarkersInText(text: string, marker = 'a'): number {
  if (text.trim() === '') return 0;
  let count = 0;
  for (const part of text.split(',')) if (part.trim() === marker) count++;
  return count;
}

function scoreTask(parsed: JsonObject | null, expected: AgentExpected) {
  if (!parsed) {
    return { finalBalancesCorrect: false, reviewIdsCorrect: false, netTotalCorrect: false, nextActionCorrect: false };
  }
  const balances = parsed.final_balances;
  let finalBalancesCorrect = false;
  if (balances !== null && typeof balances === 'object' && !Array.isArray(balances)) {
    const record = balances as Record<string, unknown>;
    finalBalancesCorrect = ACCOUNTS.every((a) => pythonInt(record[a], 'none') === expected.final_balances[a]);
  }
  const ids = parsed.review_ids;
  const reviewIdsCorrect =
    Array.isArray(ids) &&
    ids.every((id) => typeof id === 'string') &&
    ids.length === expected.review_ids.length &&
    ids.every((id, i) => id === expected.review_ids[i]);
  return {
    finalBalancesCorrect,
    reviewIdsCorrect,
    netTotalCorrect: pythonInt(parsed.net_total, 'none') === expected.net_total,
    nextActionCorrect: parsed.next_action === expected.next_action,
  };
}

function scoreCopy(parsed: JsonObject | null, markerCount: number) {
  if (!parsed) {
    return {
      copyActionCorrect: false,
      copyPathCorrect: false,
      copyExact: false,
      copiedMarkerCount: null,
      copyMarkerCountCorrect: false,
      reportedMarkerCountCorrect: false,
      externalizationSuccess: false,
    };
  }
  const content = typeof parsed.file_content === 'string' ? parsed.file_content : '';
  const copiedMarkerCount = countMarkersInText(content);
  const copyActionCorrect = parsed.action === COPY_ACTION;
  const copyPathCorrect = parsed.path === COPY_PATH;
  const copyExact = content === markerSequence(markerCount);
  const copyMarkerCountCorrect = copiedMarkerCount === markerCount;
  const reportedMarkerCountCorrect = pythonInt(parsed.marker_count, 'none') === markerCount;
  return {
    copyActionCorrect,
    copyPathCorrect,
    copyExact,
    copiedMarkerCount,
    copyMarkerCountCorrect,
    reportedMarkerCountCorrect,
    externalizationSuccess:
      copyActionCorrect && copyPathCorrect && copyExact && copyMarkerCountCorrect && reportedMarkerCountCorrect,
  };
}

export function scoreAgentResponse(input: AgentScoreInput, text: string): AgentScore {
  const extraction = extractJsonObject(text);
  const parsed = extraction.ok ? extraction.value : null;
  const keys = new Set(parsed ? Object.keys(parsed) : []);
  const required = requiredKeys(input.condition);
  const missingKeys = required.filter((k) => !keys.has(k)).sort();
  const extraKeys = [...keys].filter((k) => !required.includes(k)).sort();
  const strictJson = isStrictJsonOnly(text, parsed !== null);
  const schemaExact = missingKeys.length === 0 && extraKeys.length === 0;

  let parsedMarkerCount: number | null = null;
  let markerCountCorrect: boolean | null = null;
  if (parsed && 'marker_count' in parsed) {
    parsedMarkerCount = pythonInt(parsed.marker_count, 'none');
    markerCountCorrect = parsedMarkerCount === input.markerCount;
  } else if (conditionHasMarkers(input.condition)) {
    markerCountCorrect = false;
  }

  let task = {
    finalBalancesCorrect: null as boolean | null,
    reviewIdsCorrect: null as boolean | null,
    netTotalCorrect: null as boolean | null,
    nextActionCorrect: null as boolean | null,
    taskCorrect: null as boolean | null,
    taskFieldScore: null as number | null,
  };
  if (conditionHasTask(input.condition)) {
    if (!input.expected) throw new Error(`condition ${input.condition} needs the agent task's expected answer`);
    const fields = scoreTask(parsed, input.expected);
    const values = Object.values(fields);
    task = { ...fields, taskCorrect: values.every(Boolean), taskFieldScore: values.filter(Boolean).length / 4 };
  }
  const copy = conditionHasCopy(input.condition)
    ? scoreCopy(parsed, input.markerCount)
    : {
        copyActionCorrect: null,
        copyPathCorrect: null,
        copyExact: null,
        copiedMarkerCount: null,
        copyMarkerCountCorrect: null,
        reportedMarkerCountCorrect: null,
        externalizationSuccess: null,
      };
  return {
    parseable: parsed !== null,
    strictJson,
    schemaExact: parsed !== null && schemaExact,
    missingKeys,
    extraKeys,
    formatContract: parsed !== null && strictJson && schemaExact,
    parsedMarkerCount,
    markerCountCorrect,
    ...copy,
    ...task,
  };
}

/** The Table S9 count/copy field: exact count for agent_count_insert, exact externalization for copy conditions. */
export function countOrCopyCorrect(condition: AgentCondition, score: AgentScore): boolean | null {
  if (condition === 'agent_count_insert') return score.markerCountCorrect;
  if (conditionHasCopy(condition)) return score.externalizationSuccess;
  return null;
}
