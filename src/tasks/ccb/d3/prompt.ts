import type { Prompt } from '../../task.js';
import type { CcbVariant } from '../types.js';
import { stepList, strictSchema } from '../variants.js';
import type { D3Instance } from './generate.js';
import { eventLine, PEOPLE } from './graph.js';
import { D3_OUTPUT_FORMAT, D3_RULES } from './release-text.js';

const HEADER = 'You are a relational logic engine tracking a social graph.\n\n';

/** The release's Standard (and Var A) system prompt (social_logic_main.py `build_system_prompt`). */
export const D3_SYSTEM_PROMPT = `${HEADER}${D3_RULES}\n\n${D3_OUTPUT_FORMAT}`;

const VERBOSE =
  'CRITICAL ABLATION INSTRUCTION: After EVERY single event, you MUST explicitly write out the COMPLETE list of all currently known non-Neutral relationships before proceeding.';

const MAPPING = [
  'EXPLICIT UPDATE RULE (sign mapping): write F as +1 and R as -1; ALLIANCE = +1, RIVALRY = -1.',
  'When X and Y form relation r: for every person P linked to X (or P = X) and every person Q linked to Y (or Q = Y),',
  'set relation(P,Q) = relation(P,X) * r * relation(Y,Q), where relation(X,X) = relation(Y,Y) = +1.',
  '  (+1)*(+1) = +1 = F, (-1)*(-1) = +1 = F, (+1)*(-1) = -1 = R, (-1)*(+1) = -1 = R.',
  'If X and Y are already linked, the event restates their existing relation and nothing changes.',
].join('\n');

const QUERY_MODE = [
  'QUERY: after the events you are asked what one person believes about another.',
  'Keep the full TRACE exactly as above, but make ANSWER only the queried pair and its relation:',
  "'XY:F' (Friends), 'XY:R' (Rivals) or 'XY:N' (Neutral: not connected), e.g. 2. ANSWER: AC:R",
].join('\n');

export const slotLabel = (person: string): string => `P${String(PEOPLE.indexOf(person as never) + 1).padStart(2, '0')}`;

/**
 * Variant B's relabelling, with the release's bug fixed (deliberate deviation, docs/spec/ccb.md §9): the release
 * rewrites every whole-word letter A..J, turning the relation tag F into P06; here only person contexts
 * are rewritten — pair tokens, the PEOPLE list, event sentences, "(A-J)" — and the user's events too.
 */
export function toSlotLabels(text: string): string {
  return text
    .replace(
      /\b([A-J])([A-J]):([FRN])\b/g,
      (_, x: string, y: string, t: string) => `${slotLabel(x)}${slotLabel(y)}:${t}`,
    )
    .replace(/PEOPLE: A, B, C, D, E, F, G, H, I, J/g, `PEOPLE: ${PEOPLE.map(slotLabel).join(', ')}`)
    .replace(/\b([A-J]) and ([A-J]) form\b/g, (_, x: string, y: string) => `${slotLabel(x)} and ${slotLabel(y)} form`)
    .replace(/\(A-J\)/g, '(P01-P10)');
}

function systemPrompt(variant: CcbVariant, queryMode: boolean): string {
  const output = queryMode ? `${D3_OUTPUT_FORMAT}\n\n${QUERY_MODE}` : D3_OUTPUT_FORMAT;
  switch (variant) {
    case 'standard':
      return `${HEADER}${D3_RULES}\n\n${output}`;
    case 'verbose':
      return `${HEADER}${D3_RULES}\n\n${VERBOSE}\n\n${output}`;
    case 'A':
      // The release's Var A is identical to Standard; the paper's "strict output schema" is added here.
      return `${HEADER}${D3_RULES}\n\n${output}\n\n${strictSchema(queryMode ? 'for steps: [XY:T, ...] with every known pair; for ANSWER: XY:T' : '[XY:T, ...]: every known non-Neutral pair XY (X before Y) with T = F or R, sorted')}`;
    case 'B':
      return `You are a relational logic engine tracking a social graph.\nPerson labels are opaque identifiers — no alphabetical ordering.\n\n${toSlotLabels(D3_RULES)}\n\n${toSlotLabels(output)}`;
    case 'C':
      // Release order (format first, initial state, rules) plus the explicit sign mapping the paper describes.
      return `${HEADER}${output}\n\nInitial state: all 10 people (A-J) are Neutral to each other.\n\n${D3_RULES}\n\n${MAPPING}`;
  }
}

export function queryLine(instance: D3Instance): string | null {
  const q = instance.data.query;
  if (instance.data.answerMode !== 'query' || !q) return null;
  return `QUERY: What does ${q.a} believe about ${q.b}? Answer with ${q.a}${q.b}:F, ${q.a}${q.b}:R or ${q.a}${q.b}:N.`;
}

/** The release's user message: the events, one `Step i: …` line each (plus the query in query mode). */
export const eventList = (instance: D3Instance): string => stepList(instance.data.events.map(eventLine));

export function renderD3(instance: D3Instance, variant: CcbVariant): Prompt {
  const query = queryLine(instance);
  const user = query === null ? eventList(instance) : `${eventList(instance)}\n\n${query}`;
  if (variant === 'B') return { system: systemPrompt(variant, query !== null), user: relabelUser(user) };
  return { system: systemPrompt(variant, query !== null), user };
}

function relabelUser(user: string): string {
  return toSlotLabels(user).replace(
    /What does ([A-J]) believe about ([A-J])\?/g,
    (_, x: string, y: string) => `What does ${slotLabel(x)} believe about ${slotLabel(y)}?`,
  );
}
