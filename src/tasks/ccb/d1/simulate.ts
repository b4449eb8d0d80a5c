import type { PyRandom } from '../../../rng/index.js';
import type { SimDomain } from '../simulate.js';
import type { D1Instance } from './generate.js';
import { applyD1, type D1Op, formatGrid, type Grid, START_GRID } from './grid.js';

const flipVertical = (g: Grid): Grid => [g[2], g[1], g[0]].map((row) => [...row]);

/** Typical D1 slips: flip instead of rotate (paper App. B), wrong direction, half an operation. */
function mistake(op: D1Op, g: Grid, rng: PyRandom): Grid {
  switch (op) {
    case 'ROTATE_90_CW':
      // flip instead of rotate, or rotate the wrong way
      return rng.random() < 0.5 ? applyD1('FLIP_HORIZONTAL', g) : applyD1('ROTATE_90_CW', applyD1('REVERSE_GRID', g));
    case 'SHIFT_ROW_2_LEFT':
      return [g[0], [g[1][2], g[1][0], g[1][1]], g[2]].map((row) => [...row]);
    case 'SHIFT_COL_1_UP':
      return g.map((row, i) => [g[(i + 2) % 3][0], row[1], row[2]]);
    case 'SWAP_CORNERS': {
      const out = g.map((row) => [...row]);
      out[0][0] = g[2][2];
      out[2][2] = g[0][0];
      return out;
    }
    case 'REVERSE_GRID':
      return flipVertical(g);
    case 'FLIP_HORIZONTAL':
      return flipVertical(g);
    case 'TRANSPOSE_GRID':
      // anti-diagonal reflection
      return [0, 1, 2].map((i) => [0, 1, 2].map((j) => g[2 - j][2 - i]));
  }
}

function swapTwoCells(g: Grid, rng: PyRandom): Grid {
  const [a, b] = rng.sample([0, 1, 2, 3, 4, 5, 6, 7, 8], 2);
  const flat = g.flat();
  [flat[a], flat[b]] = [flat[b], flat[a]];
  if (flat[a] === flat[b]) flat[a] = flat[a] === 9 ? 1 : flat[a] + 1;
  return [flat.slice(0, 3), flat.slice(3, 6), flat.slice(6, 9)];
}

export function d1SimDomain(instance: D1Instance): SimDomain<Grid> {
  const ops = instance.data.ops;
  return {
    start: START_GRID,
    step: (g, i) => applyD1(ops[i], g),
    mistake: (g, i, rng) => mistake(ops[i], g, rng),
    nudge: swapTwoCells,
    same: (a, b) => formatGrid(a) === formatGrid(b),
    formatState: formatGrid,
    answerOf: formatGrid,
    wrongAnswer: (g, _truth, rng) => formatGrid(swapTwoCells(g, rng)),
  };
}
