import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layering of the package's sources (src/, and at the top level specs/ and reporters/), checked on the import
 * specifiers of every module (type-only imports included: a type import from a higher layer is the same dependency
 * as a value import, and the same cycle).
 *
 *   rng < tasks < stats, schema          pure layers: no Node API, nothing above them
 *   < spend, leaderboard                 the ledger, prices and tokenizer (subjects use them); the leaderboard (pure)
 *   < subjects                           transports, sim, oracle, replay; cache, limiter, retry
 *   < config                             the configuration (its schema names the function subject)
 *   < gates, assays                      gate decisions (read the config and the leaderboard); orchestration
 *   < compare, projections, plan         baseline comparison (uses gates); reporters/projections/: the report
 *                                        built from records and written as JSON, JUnit, Markdown, HTML; the planner
 *   < vitest < reporters < cli           the glue on top: src/vitest, then the Vitest reporters (reporters/*.ts)
 *
 * A layer imports its own layer and layers of a lower rank only (side-by-side layers not each other), so the
 * layers form a DAG; src/errors.ts (imports nothing) may be imported by all. Every folder under src/ is ranked, so
 * a new one must be placed here before it is used; under reporters/ the folder projections/ is one layer and the
 * modules beside it (the reporters) another.
 *
 * stats and schema sit side by side above tasks: neither imports the other (stats are numbers over counts, schema
 * the records that cross a process or file boundary). Today stats imports rng only and schema tasks only.
 */

/** The folders the package is compiled from (tsconfig.build.json's include). */
const SOURCE_FOLDERS = ['src', 'specs', 'reporters'];
const root = fileURLToPath(new URL('..', import.meta.url));

interface Import {
  /** The importing module, relative to the repository root (src/…, specs/…, reporters/…). */
  from: string;
  line: number;
  specifier: string;
  typeOnly: boolean;
  /** The imported module (relative to the root), or null for a package / Node builtin. */
  target: string | null;
}

// Statement-level specifiers only, so prompt text such as `[disk, "from", "to"]` never reads as an import:
// `import … from '…'` / `export … from '…'` (the clause is names, braces, commas and `*`), a side-effect
// `import '…'`, and `import('…')` (dynamic imports and `typeof import('…')` types).
const STATIC = /^[ \t]*(import|export)\s+(type\s+)?[\w$\s{},*]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const SIDE_EFFECT = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(): string[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    (readdirSync(join(root, folder), { recursive: true }) as string[])
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${folder}/${name.split('\\').join('/')}`),
  ).sort();
}

/** `./x.js` → src/…/x.ts (NodeNext: specifiers name the emitted .js file). */
function resolveTarget(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const absolute = resolve(root, dirname(file), specifier);
  const candidates = [absolute.replace(/\.js$/, '.ts'), absolute, `${absolute}.ts`, join(absolute, 'index.ts')];
  const found = candidates.find((c) => c.endsWith('.ts') && existsSync(c)) ?? candidates[0];
  return relative(root, found).split('\\').join('/');
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(root, file), 'utf8');
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const found: Import[] = [];
  const add = (index: number, specifier: string, typeOnly: boolean) =>
    found.push({ from: file, line: lineAt(index), specifier, typeOnly, target: resolveTarget(file, specifier) });
  for (const m of text.matchAll(STATIC)) add(m.index, m[3], m[2] !== undefined);
  for (const m of text.matchAll(SIDE_EFFECT)) add(m.index, m[1], false);
  for (const m of text.matchAll(DYNAMIC)) add(m.index, m[1], false);
  return found.sort((a, b) => a.line - b.line);
}

const FILES = sourceFiles();
const IMPORTS = FILES.flatMap(importsOf);

/**
 * The top folder under src/ (`schema`, `vitest`, …), or the file name for a top-level module (`errors`, `index`);
 * `specs` for the spec files; `projections` for reporters/projections/, `reporters` for the reporters beside it.
 */
const layerOf = (path: string): string => {
  const [top, next] = path.split('/');
  if (top === 'specs') return 'specs';
  if (top === 'reporters') return next === 'projections' ? 'projections' : 'reporters';
  return next.replace(/\.ts$/, '');
};

const show = (i: Import): string =>
  `${i.from}:${i.line} → '${i.specifier}'${i.target ? ` (${i.target})` : ''}${i.typeOnly ? ' [type-only]' : ''}`;

const NODE_BUILTINS = new Set(builtinModules);
const isNodeBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]);

/** Pure layers by rank: a pure module may import its own layer and pure layers of a lower rank only. */
const PURE_RANK: Readonly<Record<string, number>> = { rng: 0, tasks: 1, stats: 2, schema: 2 };

/** Every layer by rank (the table in the header): a layer may import its own and layers of a lower rank only. */
const RANK: Readonly<Record<string, number>> = {
  ...PURE_RANK,
  spend: 3,
  leaderboard: 3,
  subjects: 4,
  config: 5,
  gates: 6,
  assays: 6,
  compare: 7,
  projections: 7,
  plan: 7,
  vitest: 8,
  reporters: 9,
  cli: 10,
};
/** The top-level modules and folders outside the ranks: the leaf error module, the package entry, the spec files. */
const UNRANKED = ['errors', 'index', 'specs'];

/**
 * src/errors.ts: the one error module; it imports nothing, so every layer, the pure ones included, may import it.
 * specs/**: the benchmark spec files shipped to users (dist/specs). They are Vitest spec files and import
 * src/vitest by design, so no layer rule below speaks of them; in return nothing may import them (checked).
 * src/index.ts: the package entry, a barrel over the layers; no layer rule speaks of it, and nothing may
 * import it (a barrel import from inside src would make every layer depend on every other).
 */
const LEAF_MODULES = ['src/errors.ts'];
const UNIMPORTABLE = (target: string) => target === 'src/index.ts' || target.startsWith('specs/');

function violations(
  layers: readonly string[],
  forbidden: (i: Import, fromLayer: string, toLayer: string | null) => boolean,
): string[] {
  return IMPORTS.filter((i) => layers.includes(layerOf(i.from)))
    .filter((i) => forbidden(i, layerOf(i.from), i.target ? layerOf(i.target) : null))
    .map(show);
}

describe('architecture: the import graph of src/, specs/ and reporters/', () => {
  it('the top level holds specs/ and reporters/ (the layout the README names); src/specs and src/report are gone', () => {
    for (const folder of ['specs', 'reporters', 'reporters/projections'])
      expect(existsSync(join(root, folder)), folder).toBe(true);
    for (const gone of ['src/specs', 'src/report', 'src/vitest/reporter.ts', 'src/vitest/progress-reporter.ts'])
      expect(existsSync(join(root, gone)), gone).toBe(false);
    for (const project of ['d1', 'd2', 'd3', 'puzzles', 'scc'])
      expect(
        FILES.some((f) => f.startsWith(`specs/${project}/`) && f.endsWith('.spec.ts')),
        project,
      ).toBe(true);
  });

  it('reads the modules and their imports (the checks below are not vacuous)', () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(IMPORTS.some((i) => i.from === 'src/schema/trial.ts' && i.target === 'src/tasks/outcome.ts')).toBe(true);
    expect(IMPORTS.some((i) => i.typeOnly)).toBe(true);
    expect(
      IMPORTS.some((i) => i.from === 'reporters/reporter.ts' && i.specifier === './projections/html/index.js'),
    ).toBe(true); // a dynamic import
    expect(IMPORTS.some((i) => i.from.startsWith('specs/') && i.target?.startsWith('src/vitest/'))).toBe(true);
    // Prompt text that looks like an import clause is not one.
    expect(IMPORTS.filter((i) => !/^(\.{1,2}\/|node:|[@\w])/.test(i.specifier)).map(show)).toEqual([]);
  });

  it('every import statement is read (none is missed by the specifier patterns above)', () => {
    const missed = FILES.flatMap((file) => {
      const read = new Set(IMPORTS.filter((i) => i.from === file).map((i) => i.line));
      return readFileSync(join(root, file), 'utf8')
        .split('\n')
        .flatMap((text, index) =>
          /^import[\s{*'"]/.test(text) && !read.has(index + 1) ? [`${file}:${index + 1}`] : [],
        );
    });
    expect(missed, 'import statements the patterns did not read').toEqual([]);
  });

  it('every relative import resolves to a module under src/, specs/ or reporters/', () => {
    const unresolved = IMPORTS.filter((i) => i.target !== null && !existsSync(join(root, i.target)));
    expect(unresolved.map(show), 'imports that name no .ts module').toEqual([]);
    const outside = IMPORTS.filter(
      (i) => i.target !== null && !SOURCE_FOLDERS.some((folder) => i.target?.startsWith(`${folder}/`)),
    );
    expect(outside.map(show), 'imports that leave src/, specs/ and reporters/').toEqual([]);
  });

  it('the pure layers (rng, tasks, stats, schema) use no Node API', () => {
    const found = violations(Object.keys(PURE_RANK), (i) => isNodeBuiltin(i.specifier));
    expect(found, 'pure module → Node builtin').toEqual([]);
  });

  it('the pure layers import nothing above them: rng < tasks < stats, schema', () => {
    const found = violations(Object.keys(PURE_RANK), (i, from, to) => {
      if (i.target === null || to === null || to === from || LEAF_MODULES.includes(i.target)) return false;
      return !(to in PURE_RANK) || PURE_RANK[to] >= PURE_RANK[from];
    });
    expect(found, 'pure module → a layer that is not below it').toEqual([]);
  });

  it('src/errors.ts imports nothing', () => {
    expect(IMPORTS.filter((i) => LEAF_MODULES.includes(i.from)).map(show)).toEqual([]);
  });

  it('every folder and top-level module of src/, and reporters/, is ranked (or is errors.ts, the package entry or specs/)', () => {
    const layers = [...new Set(FILES.map(layerOf))];
    expect(layers.filter((l) => !(l in RANK) && !UNRANKED.includes(l))).toEqual([]);
    expect(
      Object.keys(RANK).filter((l) => !layers.includes(l)),
      'ranked layers that do not exist',
    ).toEqual([]);
  });

  it('the layers form a DAG: each imports its own layer and layers of a lower rank only', () => {
    const found = violations(Object.keys(RANK), (i, from, to) => {
      if (i.target === null || to === null || to === from || LEAF_MODULES.includes(i.target)) return false;
      return !(to in RANK) || RANK[to] >= RANK[from];
    });
    expect(found, 'import of a layer that is not below (see the table in the header)').toEqual([]);
  });

  it('src/spend and src/plan import nothing from the Vitest glue: names they share live in src/tasks/project-names.ts', () => {
    const found = violations(['spend', 'plan'], (i, _from, to) => to === 'vitest' || i.specifier === 'vitest');
    expect(found, 'spend/plan → vitest').toEqual([]);
  });

  it('src/spend stays below the subjects, and only the CLI imports the planner', () => {
    expect(
      violations(['spend'], (_i, _from, to) => to === 'subjects' || to === 'plan'),
      'spend → subjects/plan',
    ).toEqual([]);
    const planUsers = IMPORTS.filter((i) => i.target?.startsWith('src/plan/') && layerOf(i.from) !== 'plan');
    expect(planUsers.length).toBeGreaterThan(0); // the CLI's `plan` command does
    expect(planUsers.filter((i) => layerOf(i.from) !== 'cli').map(show), 'planner users other than the CLI').toEqual(
      [],
    );
  });

  it('src/subjects imports nothing from assays, vitest, the projections, the reporters or cli', () => {
    const above = ['assays', 'vitest', 'projections', 'reporters', 'cli'];
    const found = violations(['subjects'], (_i, _from, to) => to !== null && above.includes(to));
    expect(found, 'subjects → a layer above it').toEqual([]);
  });

  it('src/assays and reporters/projections import nothing from Vitest, its glue, the reporters or the CLI', () => {
    const above = ['vitest', 'reporters', 'cli'];
    const found = violations(
      ['assays', 'projections'],
      (i, _from, to) => /^vitest(\/|$)/.test(i.specifier) || (to !== null && above.includes(to)),
    );
    expect(found, 'assays/projections → vitest, the reporters or cli').toEqual([]);
  });

  it('reporters/projections imports nothing from src/assays: a report is a projection of records, not of orchestration', () => {
    const found = violations(['projections'], (_i, _from, to) => to === 'assays');
    expect(found, 'projections → assays').toEqual([]);
  });

  it('src/gates is pure and below the Vitest glue and the report: no Node API, no vitest, projections, reporters, cli, assays or subjects', () => {
    const above = ['vitest', 'projections', 'reporters', 'cli', 'assays', 'subjects', 'spend'];
    const found = violations(
      ['gates'],
      (i, _from, to) => isNodeBuiltin(i.specifier) || i.specifier === 'vitest' || (to !== null && above.includes(to)),
    );
    expect(found, 'gates → Node, Vitest or a layer above it').toEqual([]);
    // and it is the one place gates are decided: the fit tests, the report and compare import it
    for (const user of ['src/vitest/verdict.ts', 'reporters/projections/build.ts', 'src/compare/verdict.ts'])
      expect(
        IMPORTS.some((i) => i.from === user && i.target === 'src/gates/index.ts'),
        user,
      ).toBe(true);
  });

  it('nothing imports a spec file or the package entry', () => {
    const found = IMPORTS.filter((i) => i.target !== null && UNIMPORTABLE(i.target)).map(show);
    expect(found, 'imports of specs/** or src/index.ts').toEqual([]);
  });

  it('there is no import cycle among the modules of src/, specs/ and reporters/', () => {
    const graph = new Map<string, Import[]>(FILES.map((f) => [f, []]));
    for (const i of IMPORTS) if (i.target !== null && graph.has(i.target)) graph.get(i.from)?.push(i);
    const state = new Map<string, 'open' | 'done'>();
    const path: Import[] = [];
    const cycles: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      for (const edge of graph.get(file) ?? []) {
        const target = edge.target as string;
        if (state.get(target) === 'open') {
          const start = path.findIndex((e) => e.from === target);
          const loop = [...(start < 0 ? [] : path.slice(start)), edge];
          cycles.push(
            `${loop.map((e) => `${e.from}:${e.line}${e.typeOnly ? ' [type-only]' : ''}`).join(' → ')} → ${target}`,
          );
        } else if (!state.has(target)) {
          path.push(edge);
          visit(target);
          path.pop();
        }
      }
      state.set(file, 'done');
    };
    for (const file of FILES) if (!state.has(file)) visit(file);
    expect(cycles, 'import cycles (module:line of its import of the next → … → back to the first module)').toEqual([]);
  });
});
