/**
 * River crossing / jealous husbands (docs/spec/puzzles.md §4). Pair i (1-based) is agent
 * `A_i` and actor `a_i`. A group is unsafe iff it holds an actor without her own agent while holding any agent;
 * the rule applies to both banks and to the boat. Groups are bitmasks: agent i is bit i−1, actor i bit n+i−1.
 */
export type Trip = string[];

export const agentName = (pair: number): string => `A_${pair}`;
export const actorName = (pair: number): string => `a_${pair}`;

/** Every person's name in bit order (agents 1…n, then actors 1…n). */
export const peopleNames = (n: number): string[] => [
  ...Array.from({ length: n }, (_, i) => agentName(i + 1)),
  ...Array.from({ length: n }, (_, i) => actorName(i + 1)),
];

/** Groups are 2n-bit masks in 32-bit integers; ceilingbench's levels use n ≤ 10. */
export function assertPairs(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > 15) throw new RangeError(`river: ${n} pairs unsupported; use 1–15 pairs`);
}

export const popcount = (mask: number): number => {
  let count = 0;
  for (let m = mask; m !== 0; m &= m - 1) count++;
  return count;
};

/** Safe(G): no actor without her agent while any agent is present. */
export function isSafe(mask: number, n: number): boolean {
  const all = (1 << n) - 1;
  const agents = mask & all;
  if (agents === 0) return true;
  const actors = (mask >>> n) & all;
  return (actors & ~agents) === 0;
}

/** The first unsafe actor of a group and the agent she is with, for issue messages; null when safe. */
export function unsafeWitness(mask: number, n: number): string | null {
  if (isSafe(mask, n)) return null;
  const all = (1 << n) - 1;
  const agents = mask & all;
  const lone = ((mask >>> n) & all & ~agents) >>> 0;
  const actor = Math.log2(lone & -lone) + 1;
  const agent = Math.log2(agents & -agents) + 1;
  return `${actorName(actor)} is with ${agentName(agent)} without ${agentName(actor)}`;
}

/** Subsets of the set bits of `pool` with at most `max` members (including the empty set), deterministic order. */
function subsetsOf(pool: number, max: number): number[] {
  const out = [0];
  for (let rest = pool; rest !== 0; rest &= rest - 1) {
    const bit = rest & -rest;
    const size = out.length;
    for (let i = 0; i < size; i++) if (popcount(out[i]) < max) out.push(out[i] | bit);
  }
  return out;
}

/**
 * Every safe boat load of 1…k people from `bank`: actors only, or a set of agents plus actors whose own agents
 * are aboard. Generating only safe loads keeps the search fast at n = 10.
 */
function safeLoads(bank: number, n: number, k: number): number[] {
  const all = (1 << n) - 1;
  const loads: number[] = [];
  for (const agents of subsetsOf(bank & all, k)) {
    const actorPool = agents === 0 ? (bank >>> n) & all : (bank >>> n) & agents;
    for (const actors of subsetsOf(actorPool, k - popcount(agents))) {
      const load = agents | (actors << n);
      if (load !== 0) loads.push(load);
    }
  }
  return loads;
}

export interface RiverSolution {
  /** Minimum number of crossings, or null when no sequence reaches the goal. */
  minCrossings: number | null;
  /** One minimal sequence of boat loads (bitmasks), empty when unsolvable. */
  trips: number[];
  /** Distinct (left bank, boat side) states reached by the search. */
  statesExplored: number;
}

/** Breadth-first search over (left-bank set, boat side) with boat and both banks safe after every trip. */
export function solveRiver(n: number, k: number): RiverSolution {
  assertPairs(n);
  const everyone = (1 << (2 * n)) - 1;
  const key = (left: number, boatLeft: boolean) => left * 2 + (boatLeft ? 1 : 0);
  const parent = new Map<number, { from: number; load: number } | null>([[key(everyone, true), null]]);
  let frontier = [key(everyone, true)];
  const goal = key(0, false);
  while (frontier.length > 0 && !parent.has(goal)) {
    const next: number[] = [];
    for (const state of frontier) {
      const left = Math.floor(state / 2);
      const boatLeft = state % 2 === 1;
      const bank = boatLeft ? left : everyone & ~left;
      for (const load of safeLoads(bank, n, k)) {
        const newLeft = boatLeft ? left & ~load : left | load;
        if (!isSafe(newLeft, n) || !isSafe(everyone & ~newLeft, n)) continue;
        const target = key(newLeft, !boatLeft);
        if (parent.has(target)) continue;
        parent.set(target, { from: state, load });
        next.push(target);
      }
    }
    frontier = next;
  }
  if (!parent.has(goal)) return { minCrossings: null, trips: [], statesExplored: parent.size };
  const trips: number[] = [];
  for (let at = parent.get(goal); at; at = parent.get(at.from)) trips.push(at.load);
  trips.reverse();
  return { minCrossings: trips.length, trips, statesExplored: parent.size };
}

/** Names of a boat load, pair by pair, agent before actor (e.g. ["A_1", "a_1", "a_2"]). */
export function tripNames(load: number, n: number): Trip {
  const names: string[] = [];
  for (let pair = 1; pair <= n; pair++) {
    if (load & (1 << (pair - 1))) names.push(agentName(pair));
    if (load & (1 << (n + pair - 1))) names.push(actorName(pair));
  }
  return names;
}

/** The bit of a person's name, or −1 when the name is not one of this instance's 2n people. */
export function personBit(name: string, n: number): number {
  const match = /^([Aa])_([1-9][0-9]{0,2})$/.exec(name);
  if (!match) return -1;
  const pair = Number(match[2]);
  if (pair > n) return -1;
  return match[1] === 'A' ? pair - 1 : n + pair - 1;
}
