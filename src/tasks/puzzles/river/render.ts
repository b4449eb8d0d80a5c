import type { RiverInstance } from './generate.js';
import { actorName, agentName } from './rules.js';

export function renderRiver(instance: RiverInstance): string {
  const { pairs: n, capacity: k } = instance.data;
  const pairsList = Array.from({ length: n }, (_, i) => `${agentName(i + 1)}/${actorName(i + 1)}`).join(', ');
  return [
    `River crossing with ${n} actor-agent pairs and a boat that holds at most ${k} people.`,
    '',
    `People: ${pairsList} (agent A_i and actor a_i form pair i). Everyone starts on the left bank, with the boat.`,
    '',
    'Rules:',
    `- Each crossing carries between 1 and ${k} people; the boat never crosses empty.`,
    '- Crossings alternate direction: the first goes from the left bank to the right bank, the second back to the',
    '  left bank, and so on. The boat can only carry people who are on the bank it leaves from.',
    '- Safety: an actor may never be in the presence of another agent unless her own agent is also present. This',
    '  holds in the boat during every crossing and on both banks after every crossing. A group is unsafe when it',
    '  contains some actor a_i without A_i and at least one agent.',
    '- Goal: everyone on the right bank.',
    '',
    'Output format:',
    'End your response with the complete sequence of crossings as one strict JSON list assigned to `moves`. Each',
    'crossing is the list of the names of the people in the boat. For example, A_1 and a_1 crossing to the right',
    'bank and A_1 returning alone is written',
    'moves = [["A_1", "a_1"], ["A_1"]]',
  ].join('\n');
}
