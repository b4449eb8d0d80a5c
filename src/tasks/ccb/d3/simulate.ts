import type { PyRandom } from '../../../rng/index.js';
import type { SimDomain } from '../simulate.js';
import type { D3Instance } from './generate.js';
import { formatPairs, PEOPLE, type SocialEvent } from './graph.js';

/** The simulated model's belief state: pair `XY` (X < Y) → +1 (F) or −1 (R). */
type Beliefs = ReadonlyMap<string, 1 | -1>;

const key = (x: string, y: string): string => (x < y ? `${x}${y}` : `${y}${x}`);

function linked(s: Beliefs, x: string): Map<string, 1 | -1> {
  const out = new Map<string, 1 | -1>([[x, 1]]);
  for (const p of PEOPLE) {
    const sign = p === x ? undefined : s.get(key(x, p));
    if (sign !== undefined) out.set(p, sign);
  }
  return out;
}

/**
 * The incremental closure a careful model performs: when X and Y form relation r, every P linked to X and
 * Q linked to Y get relation(P,X)·r·relation(Y,Q). On the true state this is exactly the release's update;
 * on a corrupted state a missing pair stays missing unless a later event re-derives it.
 */
function update(s: Beliefs, e: SocialEvent): Map<string, 1 | -1> {
  const out = new Map(s);
  const r = e.relation === 'ALLIANCE' ? 1 : -1;
  for (const [p, sp] of linked(s, e.a)) {
    for (const [q, sq] of linked(s, e.b)) {
      if (p !== q) out.set(key(p, q), (sp * r * sq) as 1 | -1);
    }
  }
  return out;
}

const format = (s: Beliefs): string =>
  formatPairs([...s.entries()].map(([k, v]) => `${k}:${v === 1 ? 'F' : 'R'}`).sort());

/** "A missed closure edge": the exact update minus one pair it implies (a new inferred pair when there is one). */
function missedEdge(s: Beliefs, e: SocialEvent, rng: PyRandom): Map<string, 1 | -1> {
  const exact = update(s, e);
  const direct = key(e.a, e.b);
  const inferred = [...exact.keys()].filter((k) => !s.has(k) && k !== direct).sort();
  const involved = [...exact.keys()].filter((k) => k.includes(e.a) || k.includes(e.b)).sort();
  const candidates = inferred.length > 0 ? inferred : involved;
  exact.delete(rng.choice(candidates));
  return exact;
}

function nudge(s: Beliefs, rng: PyRandom): Map<string, 1 | -1> {
  const out = new Map(s);
  if (out.size === 0) out.set('AB', 1);
  else out.delete(rng.choice([...out.keys()].sort()));
  return out;
}

export function d3SimDomain(instance: D3Instance): SimDomain<Beliefs> {
  const { events, query, answerMode } = instance.data;
  const queryToken = (s: Beliefs, tag?: string): string => {
    if (!query) return format(s);
    const sign = s.get(key(query.a, query.b));
    return `${query.a}${query.b}:${tag ?? (sign === undefined ? 'N' : sign === 1 ? 'F' : 'R')}`;
  };
  const answerOf = (s: Beliefs): string => (answerMode === 'query' ? queryToken(s) : format(s));
  return {
    start: new Map(),
    step: (s, i) => update(s, events[i]),
    mistake: (s, i, rng) => missedEdge(s, events[i], rng),
    nudge,
    same: (a, b) => format(a) === format(b),
    formatState: format,
    answerOf,
    wrongAnswer: (s, truth, rng) => {
      if (answerMode !== 'query') return format(nudge(s, rng));
      const others = ['F', 'R', 'N'].filter((t) => !truth.endsWith(`:${t}`));
      return queryToken(s, rng.choice(others));
    },
  };
}
