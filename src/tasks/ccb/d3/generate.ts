import type { PyRandom } from '../../../rng/index.js';
import type { CcbInstance, CcbProfile } from '../types.js';
import {
  type Factions,
  factionPairs,
  formatPairs,
  mergeFactions,
  PEOPLE,
  type Person,
  personIndex,
  type Relation,
  relationOf,
  type SocialEvent,
  startFactions,
} from './graph.js';

export interface D3Query {
  a: Person;
  b: Person;
  relation: 'F' | 'R' | 'N';
}

export interface D3Data {
  events: SocialEvent[];
  /** `paper` profile: the pair drawn after the events (same RNG stream); absent in `official`. */
  query?: D3Query;
  /** `state`: the answer is the full pair list (release); `query`: the relation of the query pair. */
  answerMode: 'state' | 'query';
}
export type D3Instance = CcbInstance<D3Data>;

const sortedPair = (rng: PyRandom): [Person, Person] => {
  const [x, y] = rng.sample(PEOPLE, 2);
  return x < y ? [x, y] : [y, x];
};

/**
 * The released generator (`u, v = sorted(sample(PEOPLE, 2))`; a relation is drawn only when the pair is
 * not yet connected). `paper` adds a query pair `sorted(sample(PEOPLE, 2))` after the events, which leaves
 * the events unchanged; `options.query` makes it the answer.
 */
export function generateD3(
  rng: PyRandom,
  depth: number,
  seed: number,
  profile: CcbProfile,
  queryMode: boolean,
): D3Instance {
  if (queryMode && profile !== 'paper') {
    throw new Error("d3: the query answer mode exists only in the 'paper' profile; pass profile 'paper'");
  }
  let state: Factions = startFactions();
  const events: SocialEvent[] = [];
  const trace: string[] = [];
  for (let i = 0; i < depth; i++) {
    const [a, b] = sortedPair(rng);
    const u = personIndex(a);
    const v = personIndex(b);
    let relation: Relation;
    const forced = state.comp[u] === state.comp[v];
    if (forced) {
      relation = state.faction[u] === state.faction[v] ? 'ALLIANCE' : 'RIVALRY';
    } else {
      relation = rng.choice(['ALLIANCE', 'RIVALRY'] as const);
      state = mergeFactions(state, u, v, relation);
    }
    events.push({ a, b, relation, forced });
    trace.push(formatPairs(factionPairs(state)));
  }
  const data: D3Data = { events, answerMode: queryMode ? 'query' : 'state' };
  if (profile === 'paper') {
    const [a, b] = sortedPair(rng);
    data.query = { a, b, relation: relationOf(state, a, b) };
  }
  const answer = queryMode && data.query ? `${data.query.a}${data.query.b}:${data.query.relation}` : trace[depth - 1];
  return { task: 'd3', level: depth, seed, profile, data, trace, answer };
}
