import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_FILES } from '../../config/load.js';
import { PACKAGE_ROOT_URL, VITEST_CONFIG_FILES } from '../../vitest/files.js';
import type { CliIo, RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { findPlace, type InitPlace, isInstalled, relativePath } from './init-place.js';
import { placeWorkflow } from './init-workflow.js';
import { COMMAND_HELP } from './table.js';

/** The example user repository, shipped with the package: `init` copies its files (it is also CI's contract). */
const EXAMPLE = fileURLToPath(new URL('examples/consumer/', PACKAGE_ROOT_URL));

interface Template {
  /** The file in the example repository. */
  source: string;
  /** Where it goes in a `"type": "module"` package, and in a CommonJS one (TypeScript as .mts there). */
  target: { esm: string; cjs: string };
  /** The names that already do its job, in the order they are looked up: when one exists, init keeps it. */
  family: readonly string[];
  /** The workflow goes to the repository's root (GitHub reads it only there), moved to run in the package. */
  repository?: true;
}

const SPEC = 'benchmarks/registers.spec';
const WORKFLOW = '.github/workflows/ceilingbench.yml';

const TEMPLATES: readonly Template[] = [
  {
    source: 'vitest.config.ts',
    target: { esm: 'vitest.config.ts', cjs: 'vitest.config.mts' },
    family: VITEST_CONFIG_FILES,
  },
  {
    source: 'ceilingbench.config.ts',
    target: { esm: 'ceilingbench.config.ts', cjs: 'ceilingbench.config.mts' },
    family: CONFIG_FILES,
  },
  { source: `${SPEC}.ts`, target: { esm: `${SPEC}.ts`, cjs: `${SPEC}.mts` }, family: [`${SPEC}.ts`, `${SPEC}.mts`] },
  { source: WORKFLOW, target: { esm: WORKFLOW, cjs: WORKFLOW }, family: [WORKFLOW], repository: true },
];

/** The example files `init` copies, as paths relative to the example (in a `"type": "module"` package, also the names it writes). */
export const INIT_FILES = TEMPLATES.map((t) => t.source);

/** What `init` makes sure `.gitignore` ignores: the response cache (paid answers), the reports, the shard blobs. */
export const GITIGNORE_ENTRIES = ['.ceilingbench/', 'reports/', '.vitest-reports/'] as const;
export const GITIGNORE_HEADER = '# ceilingbench';

interface PackageJson {
  type?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readPackageJson(root: string): PackageJson | undefined {
  const path = join(root, 'package.json');
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
  } catch (error) {
    throw new UsageError(`${path}: not valid JSON (${(error as Error).message}) — fix it, then run init again`);
  }
}

function moduleNote(pkg: PackageJson | undefined): string {
  const why =
    pkg === undefined
      ? 'there is no package.json'
      : pkg.type === undefined
        ? 'package.json has no "type"'
        : `package.json has "type": ${JSON.stringify(pkg.type)}`;
  return `note     ${why}: the TypeScript files are written as .mts — ceilingbench is ESM-only, and a .ts file here is CommonJS to Node and TypeScript\n`;
}

/** Whether a Vitest or Vite config already loads the plugin (its import of `ceilingbench/plugin`). */
function hasPlugin(path: string): boolean {
  return /['"]ceilingbench\/plugin['"]/.test(safeRead(path));
}

/** A file's text, '' when it cannot be read. */
function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The lines that put the plugin into a Vitest or Vite config init did not write. */
function pluginLines(file: string, esm: boolean): string {
  const lines = [
    `         add the plugin to ${file}:`,
    "           import { ceilingbench } from 'ceilingbench/plugin';",
    "           plugins: [ceilingbench({ specs: 'benchmarks' })],   // in defineConfig({ … }), beside your plugins",
  ];
  if (/\.c[jt]s$/.test(file)) {
    const renamed = file.replace(/\.c([jt])s$/, '.m$1s');
    lines.push(`         ceilingbench is ESM-only: ${file} is CommonJS and cannot import it — rename it to ${renamed}`);
  } else if (!esm && file.endsWith('.ts')) {
    // Vite bundles it and runs it, but NodeNext TypeScript type-checks it as CommonJS
    const renamed = file.replace(/\.ts$/, '.mts');
    lines.push(
      `         in a CommonJS package tsc reads ${file} as CommonJS: rename it to ${renamed} if tsc rejects the import`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Another file of the same kind left beside the one written: which of the two is read. */
function shadowNote(written: string, other: string, family: readonly string[]): string {
  return family.indexOf(other) < family.indexOf(written)
    ? `note     ${other} is still there and is read before ${written}: remove it, or move its content into ${written}\n`
    : `note     ${written} is now read instead of ${other}\n`;
}

/** Writes one template unless a file of its family is there; returns whether it wrote. */
function writeTemplate(place: InitPlace, template: Template, esm: boolean, force: boolean, io: CliIo): boolean {
  const dir = template.repository ? place.repository : place.root;
  // a name as the user reads it: from the package, or from the repository's root for the workflow
  const shown = (name: string) => (dir === place.root ? name : relativePath(place.root, join(dir, name)));
  const target = esm ? template.target.esm : template.target.cjs;
  const existing = template.family.filter((name) => existsSync(join(dir, name)));
  const [first] = existing;
  if (first !== undefined && !force) {
    const hint = first === target ? '--force overwrites it' : `--force writes ${target} beside it`;
    if (template.family === VITEST_CONFIG_FILES && hasPlugin(join(dir, first))) {
      io.stdout(`kept     ${first} (it loads the ceilingbench plugin; ${hint})\n`);
      return false;
    }
    io.stdout(`kept     ${shown(first)} (exists; ${hint})\n`);
    if (template.family === VITEST_CONFIG_FILES) io.stdout(pluginLines(first, esm));
    return false;
  }
  const path = join(dir, target);
  mkdirSync(dirname(path), { recursive: true });
  const text = readFileSync(join(EXAMPLE, template.source), 'utf8');
  const bench = relativePath(place.repository, place.root);
  writeFileSync(
    path,
    template.repository ? placeWorkflow(text, { bench, install: relativePath(place.repository, place.install) }) : text,
  );
  const why = template.repository && bench !== '' ? ` (at the repository's root; its steps run in ${bench})` : '';
  io.stdout(`wrote    ${shown(target)}${why}\n`);
  for (const other of existing) if (other !== target) io.stdout(shadowNote(target, other, template.family));
  return true;
}

/** An entry counts as ignored when a line names it, with or without its leading or trailing slash. */
function isIgnored(lines: readonly string[], entry: string): boolean {
  const bare = (line: string) => line.trim().replace(/^\//, '').replace(/\/$/, '');
  return lines.some((line) => bare(line) === bare(entry));
}

/** Creates `.gitignore`, or appends the missing entries under one comment; a second run adds nothing. Returns whether it wrote. */
function updateGitignore(root: string, io: CliIo): boolean {
  const path = join(root, '.gitignore');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const lines = text?.split(/\r?\n/) ?? [];
  const missing = GITIGNORE_ENTRIES.filter((entry) => !isIgnored(lines, entry));
  if (missing.length === 0) {
    io.stdout(`kept     .gitignore (ignores ${GITIGNORE_ENTRIES.join(', ')})\n`);
    return false;
  }
  const block = `${GITIGNORE_HEADER}\n${missing.map((entry) => `${entry}\n`).join('')}`;
  if (text === undefined || text === '') {
    writeFileSync(path, block);
    io.stdout('wrote    .gitignore\n');
    return true;
  }
  writeFileSync(path, `${text}${text.endsWith('\n') ? '' : '\n'}\n${block}`);
  io.stdout(`updated  .gitignore (added ${missing.join(', ')})\n`);
  return true;
}

/** The steps left to the user: only those still missing; a run that changed nothing says so. */
function nextSteps(place: InitPlace, changed: boolean): string {
  const lines: string[] = [];
  const missing = ['ceilingbench', 'vitest'].filter((name) => !isInstalled(place, name));
  const installAt = relative(process.cwd(), place.install);
  if (missing.length > 0) {
    lines.push(`${installAt === '' ? '' : `cd ${installAt} && `}npm install -D ${missing.join(' ')}`);
  }
  if (place.workspace !== undefined) {
    const bench = relativePath(place.workspace, place.root);
    const registered = VITEST_CONFIG_FILES.some((name) =>
      safeRead(join(place.workspace as string, name)).includes('ceilingbenchWorkspace('),
    );
    if (!registered) {
      lines.push(
        `at the workspace root, register the package in its vitest config: plugins: [ceilingbenchWorkspace('${bench}')] (import { ceilingbenchWorkspace } from 'ceilingbench/plugin'), so that --project d2 works from the root`,
      );
    }
  }
  if (changed) {
    const at = relative(process.cwd(), place.root);
    lines.push(
      `${at === '' ? '' : `cd ${at} && `}CEILINGBENCH_SUBJECT=sim:default npx vitest run --project d2   # then openai:<model>`,
    );
    lines.push(
      `CI (${relativePath(place.root, join(place.repository, WORKFLOW))}): the repository variables CEILINGBENCH_SUBJECT and CEILINGBENCH_MAX_COST, the secret OPENAI_API_KEY, and prices in the ceilingbench config — its header says how`,
    );
  }
  if (!changed && lines.length === 0) return '\ninit changed nothing: ceilingbench is already set up here\n';
  const head = changed ? '\nnext:\n' : '\ninit changed no file; still to do:\n';
  return `${head}${lines.map((line) => `  ${line}\n`).join('')}`;
}

/** `ceilingbench init`: scaffolds the plugin config, a gate, one example spec, a CI workflow and `.gitignore` entries. */
export const registerInit: RegisterCommand = (cli, io) => {
  cli
    .command(COMMAND_HELP.init.usage, COMMAND_HELP.init.description)
    .option('--root <dir>', 'The repository (default: the current directory)')
    .option('--force', 'Overwrite files that exist, and write vitest.config.ts beside an existing Vite/Vitest config')
    .action((flags: { root?: string; force?: boolean }) => {
      const root = resolve(flags.root ?? process.cwd());
      if (!existsSync(root)) throw new UsageError(`--root: no directory at ${root}`);
      const pkg = readPackageJson(root);
      const esm = pkg?.type === 'module';
      const place = findPlace(root);
      if (!esm) io.stdout(moduleNote(pkg));
      let changed = false;
      for (const template of TEMPLATES)
        changed = writeTemplate(place, template, esm, flags.force === true, io) || changed;
      changed = updateGitignore(root, io) || changed;
      io.stdout(nextSteps(place, changed));
      return 0;
    });
};
