/** D3 Social Logic: ten agents, alliances and rivalries closed under structural balance (docs/spec/ccb.md §5). */

export const PEOPLE = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'] as const;
export type Person = (typeof PEOPLE)[number];
export type Relation = 'ALLIANCE' | 'RIVALRY';
/** F = same faction, R = opposing factions, N = not connected (query answers only). */
export type Tag = 'F' | 'R';

export interface SocialEvent {
  a: Person;
  b: Person;
  relation: Relation;
  /** The pair was already connected: the relation is implied and the event changes nothing. */
  forced: boolean;
}

/** Union-find-free state as the release keeps it: a component id and a faction bit per agent. */
export interface Factions {
  comp: number[];
  faction: number[];
}

export const startFactions = (): Factions => ({ comp: PEOPLE.map((_, i) => i), faction: PEOPLE.map(() => 0) });

export const personIndex = (p: string): number => p.charCodeAt(0) - 65;

/** Every connected pair X<Y tagged F/R, sorted (the release's state list). */
export function factionPairs(s: Factions): string[] {
  const out: string[] = [];
  for (let i = 0; i < PEOPLE.length; i++) {
    for (let j = i + 1; j < PEOPLE.length; j++) {
      if (s.comp[i] === s.comp[j]) out.push(`${PEOPLE[i]}${PEOPLE[j]}:${s.faction[i] === s.faction[j] ? 'F' : 'R'}`);
    }
  }
  return out;
}

export const formatPairs = (pairs: readonly string[]): string => `[${pairs.join(', ')}]`;

/** The relation of a pair in a state: F, R, or N when the two are not connected. */
export function relationOf(s: Factions, a: string, b: string): 'F' | 'R' | 'N' {
  const i = personIndex(a);
  const j = personIndex(b);
  if (s.comp[i] !== s.comp[j]) return 'N';
  return s.faction[i] === s.faction[j] ? 'F' : 'R';
}

/** Merges v's component into u's so that u and v stand in `relation` (release `solve`). */
export function mergeFactions(s: Factions, u: number, v: number, relation: Relation): Factions {
  const target = relation === 'ALLIANCE' ? s.faction[u] : 1 - s.faction[u];
  const flip = s.faction[v] ^ target;
  const cv = s.comp[v];
  const comp = [...s.comp];
  const faction = [...s.faction];
  for (let p = 0; p < PEOPLE.length; p++) {
    if (s.comp[p] === cv) {
      comp[p] = s.comp[u];
      faction[p] ^= flip;
    }
  }
  return { comp, faction };
}

/** `Step i: X and Y form an ALLIANCE.` — "an RIVALRY" is the release's wording, kept verbatim. */
export const eventLine = (e: { a: string; b: string; relation: Relation }): string =>
  `${e.a} and ${e.b} form an ${e.relation}.`;
