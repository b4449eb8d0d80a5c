import { Bench, type Task } from 'tinybench';
import { PyRandom } from '../src/rng/index.js';
import { parseLastInteger } from '../src/tasks/count/parse.js';
import { resolveTask } from '../src/tasks/registry.js';
import { extractJsonObject } from '../src/tasks/scc-secondary/index.js';
import { hostileSubjects, LARGE_SHAPES, TEN_MB_SHAPES } from '../test/reliability/hostile-inputs.js';

/**
 * Parse and grade time against input size on hostile and adversarial text: the timing claims that the unit tests
 * used to assert with wall-clock bounds (test/reliability/hostile-output.test.ts, test/tasks/ccb/properties.test.ts,
 * test/scc/parse.test.ts, test/scc-secondary/scoring.test.ts). The tests now assert the results on the same inputs
 * (and, where the code allows, an operation count); this prints how the time grows.
 *
 * Every series times one function on inputs 10× apart. Linear time gives a ratio t(10·n)/t(n) ≈ 10, quadratic ≈ 100;
 * a ratio of 30 or more (on a larger time of at least 5 ms, above timer noise) is marked ⚠. The control series — a
 * grader that rescans the rest of the text from every 16th position, as a lazy regex under findall would — shows
 * what a super-linear one looks like.
 */

const KB = 1024;
const MB = KB * KB;
/** Flag a ratio at or above this: linear is 10, quadratic 100. */
const FLAG_RATIO = 30;
/** Below this the larger time is timer noise, not worth a flag. */
const FLAG_FLOOR_MS = 5;

interface Series {
  /** What is timed. */
  name: string;
  /** The input's shape. */
  input: string;
  /** Input sizes in UTF-16 units, ascending, 10× apart. */
  sizes: number[];
  build: (size: number) => string;
  run: (text: string) => unknown;
}

const sizeLabel = (n: number): string =>
  n % MB === 0 ? `${n / MB} MB` : n % KB === 0 ? `${n / KB} KB` : `${(n / 1000).toLocaleString('en')}k chars`;

/** Every registered task's grader on every hostile shape at 100 KB and 1 MB, and the costliest shapes at 10 MB. */
function hostileSeries(quick: boolean): Series[] {
  const out: Series[] = [];
  for (const subject of hostileSubjects()) {
    for (const [shape, build] of Object.entries(LARGE_SHAPES)) {
      const large = !quick && (TEN_MB_SHAPES as readonly string[]).includes(shape);
      out.push({
        name: `${subject.task.id} grade`,
        input: shape,
        sizes: large ? [100 * KB, MB, 10 * MB] : [100 * KB, MB],
        build: (size) => build(size, subject.canonical),
        run: (text) => subject.task.grade(subject.instance, text, { finishReason: 'stop' }),
      });
    }
  }
  const [first] = hostileSubjects();
  out.push({
    name: 'control: quadratic grader',
    input: 'unicode-noise',
    sizes: [100 * KB, MB],
    build: (size) => LARGE_SHAPES['unicode-noise'](size, ''),
    run: (text) => {
      let found = 0;
      for (let i = 0; i < text.length; i += 16) found += text.indexOf('\u0007', i) >= 0 ? 1 : 0;
      return first.task.grade(first.instance, found > 0 ? text : '', { finishReason: 'stop' });
    },
  });
  return out;
}

/** The adversarial inputs of the parser unit tests, at their test size and 10× around it. */
function parserSeries(quick: boolean): Series[] {
  const sizes = (n: number) => (quick ? [n / 10, n] : [n / 10, n, 10 * n]);
  const repeatTo = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const headers = 'Step 1: [[Step 2: [A=';
  const ccb = ['d1', 'd2', 'd3'].map((id): Series => {
    const task = resolveTask(id);
    const instance = task.generate(new PyRandom(50000), 5, { seed: 50000 });
    return {
      name: `ccb ${id} grade`,
      input: `TRACE (${headers})ⁿ, one line`,
      sizes: sizes(40_000 * headers.length),
      build: (size) => `TRACE ${headers.repeat(size / headers.length)}`,
      run: (text) => task.grade(instance, text),
    };
  });
  return [
    ...ccb,
    {
      name: 'count parseLastInteger',
      input: "'-'ⁿ ('1-')ⁿ",
      sizes: sizes(600_000),
      build: (size) => `${'-'.repeat(size / 3)}${'1-'.repeat(size / 3)}`,
      run: parseLastInteger,
    },
    {
      name: 'scc-secondary extractJsonObject',
      input: '{ⁿ (unmatched)',
      sizes: sizes(200_000),
      build: (size) => '{'.repeat(size),
      run: extractJsonObject,
    },
    {
      name: 'scc-secondary extractJsonObject',
      input: '(fence json {)ⁿ }ⁿ',
      sizes: sizes(200_000),
      build: (size) => repeatTo('```json {', size / 2) + '}'.repeat(size / 2),
      run: extractJsonObject,
    },
    {
      name: 'scc-secondary extractJsonObject',
      input: '({"a":)ⁿ 1 (never closed)',
      sizes: sizes(250_000),
      build: (size) => `${repeatTo('{"a":', size - 1)}1`,
      run: extractJsonObject,
    },
  ];
}

interface Measured {
  series: Series;
  /** Minimum time per size, in ms (null when the run errored). */
  times: Array<number | null>;
  error?: string;
}

/** Times one series: a bench per series, so that only its inputs are held in memory. */
async function measure(series: Series, quick: boolean): Promise<Measured> {
  const bench = new Bench({
    name: `${series.name} · ${series.input}`,
    time: 0,
    iterations: quick ? 1 : 3,
    warmup: !quick,
    warmupTime: 0,
    warmupIterations: 1,
    throws: false,
  });
  for (const size of series.sizes) {
    const text = series.build(size);
    bench.add(sizeLabel(size), () => {
      series.run(text);
    });
  }
  await bench.run();
  const minimum = (task: Task) => (task.result.state === 'completed' ? task.result.latency.min : null);
  const failed = bench.tasks.find((t) => t.result.state === 'errored');
  return {
    series,
    times: bench.tasks.map(minimum),
    error: failed?.result.state === 'errored' ? failed.result.error.message : undefined,
  };
}

const ms = (x: number | null) => (x === null ? '—' : x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(3));

function ratios(times: Array<number | null>): string[] {
  const out: string[] = [];
  for (let i = 1; i < times.length; i++) {
    const [small, large] = [times[i - 1], times[i]];
    if (small === null || large === null || small <= 0) {
      out.push('—');
      continue;
    }
    const ratio = large / small;
    out.push(`${ratio.toFixed(1)}${ratio >= FLAG_RATIO && large >= FLAG_FLOOR_MS ? ' ⚠' : ''}`);
  }
  return out;
}

function row({ series, times, error }: Measured): string {
  const cells = [0, 1, 2].map((i) => (i < times.length ? ms(times[i]) : ''));
  const steps = ratios(times);
  const last = times[times.length - 1];
  const nsPerChar = last === null ? '—' : ((1e6 * last) / series.sizes[series.sizes.length - 1]).toFixed(1);
  const note = error ? ` errored: ${error}` : '';
  return `| ${series.name}${note} | ${series.input} | ${sizeLabel(series.sizes[0])} | ${cells.join(' | ')} | ${steps[0] ?? ''} | ${steps[1] ?? ''} | ${nsPerChar} |`;
}

const HEADER =
  '| timed | input | n | t(n) ms | t(10n) ms | t(100n) ms | t(10n)/t(n) | t(100n)/t(10n) | ns/char at the largest |\n' +
  '|---|---|---|---|---|---|---|---|---|';

/**
 * `--only linearity`: prints the parser tables (minimum of the samples; 3 samples after one warm-up, 1 with
 * --quick, which also drops the largest size).
 */
export async function runLinearity(quick: boolean): Promise<void> {
  const tables: Array<[string, Series[]]> = [
    ['Parsers of the unit tests, on their adversarial inputs', parserSeries(quick)],
    ['Every registered grader on the hostile shapes (test/reliability/hostile-inputs.ts)', hostileSeries(quick)],
  ];
  for (const [title, list] of tables) {
    console.log(`\n### ${title}\n`);
    console.log(HEADER);
    for (const series of list) console.log(row(await measure(series, quick)));
  }
}
