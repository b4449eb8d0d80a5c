import type { PyRandom } from '../../../rng/index.js';
import type { SimKnobs } from '../../task.js';
import type { RiverInstance } from './generate.js';
import type { Trip } from './rules.js';

/** Each trip is right with probability `retention`; otherwise one passenger is swapped for a member of another pair. */
export function simulateRiver(instance: RiverInstance, rng: PyRandom, knobs: SimKnobs): Trip[] {
  const n = instance.data.pairs;
  return instance.answer.map((trip): Trip => {
    if (rng.random() < knobs.retention || n < 2) return trip;
    const slot = rng.randbelow(trip.length);
    const [role, pair] = trip[slot].split('_');
    const other = ((Number(pair) - 1 + 1 + rng.randbelow(n - 1)) % n) + 1;
    const swapped = `${role}_${other}`;
    // Dropping the passenger instead when the swap would duplicate a name keeps the slip well-formed.
    return trip.includes(swapped) ? trip.filter((_, i) => i !== slot) : trip.map((p, i) => (i === slot ? swapped : p));
  });
}
