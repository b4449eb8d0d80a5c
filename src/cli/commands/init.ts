import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_FILES } from '../../config/load.js';
import { VITEST_CONFIG_FILES } from '../../vitest/files.js';
import type { CliIo, RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';
import { COMMAND_HELP } from './table.js';

/** The example user repository, shipped with the package: `init` copies its files (it is also CI's contract). */
const EXAMPLE = fileURLToPath(new URL('../../../examples/consumer/', import.meta.url));

interface Template {
  /** The file in the example repository. */
  source: string;
  /** Where it goes in a `"type": "module"` package, and in a CommonJS one (TypeScript as .mts there). */
  target: { esm: string; cjs: string };
  /** The names that already do its job, in the order they are looked up: when one exists, init keeps it. */
  family: readonly string[];
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
  { source: WORKFLOW, target: { esm: WORKFLOW, cjs: WORKFLOW }, family: [WORKFLOW] },
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

function writeTemplate(root: string, template: Template, esm: boolean, force: boolean, io: CliIo): void {
  const target = esm ? template.target.esm : template.target.cjs;
  const existing = template.family.filter((name) => existsSync(join(root, name)));
  const [first] = existing;
  if (first !== undefined && !force) {
    const hint = first === target ? '--force overwrites it' : `--force writes ${target} beside it`;
    io.stdout(`kept     ${first} (exists; ${hint})\n`);
    if (template.family === VITEST_CONFIG_FILES) io.stdout(pluginLines(first, esm));
    return;
  }
  const path = join(root, target);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, readFileSync(join(EXAMPLE, template.source)));
  io.stdout(`wrote    ${target}\n`);
  for (const other of existing) if (other !== target) io.stdout(shadowNote(target, other, template.family));
}

/** An entry counts as ignored when a line names it, with or without its leading or trailing slash. */
function isIgnored(lines: readonly string[], entry: string): boolean {
  const bare = (line: string) => line.trim().replace(/^\//, '').replace(/\/$/, '');
  return lines.some((line) => bare(line) === bare(entry));
}

/** Creates `.gitignore`, or appends the missing entries under one comment; a second run adds nothing. */
function updateGitignore(root: string, io: CliIo): void {
  const path = join(root, '.gitignore');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  const lines = text?.split(/\r?\n/) ?? [];
  const missing = GITIGNORE_ENTRIES.filter((entry) => !isIgnored(lines, entry));
  if (missing.length === 0) {
    io.stdout(`kept     .gitignore (ignores ${GITIGNORE_ENTRIES.join(', ')})\n`);
    return;
  }
  const block = `${GITIGNORE_HEADER}\n${missing.map((entry) => `${entry}\n`).join('')}`;
  if (text === undefined || text === '') {
    writeFileSync(path, block);
    io.stdout('wrote    .gitignore\n');
    return;
  }
  writeFileSync(path, `${text}${text.endsWith('\n') ? '' : '\n'}\n${block}`);
  io.stdout(`updated  .gitignore (added ${missing.join(', ')})\n`);
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
      if (!esm) io.stdout(moduleNote(pkg));
      for (const template of TEMPLATES) writeTemplate(root, template, esm, flags.force === true, io);
      updateGitignore(root, io);

      const has = (name: string) => Boolean(pkg?.dependencies?.[name] ?? pkg?.devDependencies?.[name]);
      const missing = ['ceilingbench', 'vitest'].filter((name) => !has(name));
      io.stdout('\nnext:\n');
      if (missing.length > 0) io.stdout(`  npm install -D ${missing.join(' ')}\n`);
      io.stdout('  CEILINGBENCH_SUBJECT=sim:default npx vitest run --project d2   # then openai:<model>\n');
      io.stdout(
        `  CI (${WORKFLOW}): the repository variables CEILINGBENCH_SUBJECT and CEILINGBENCH_MAX_COST, the secret OPENAI_API_KEY, and prices in the ceilingbench config — its header says how\n`,
      );
      return 0;
    });
};
