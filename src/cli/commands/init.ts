import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RegisterCommand } from '../command.js';
import { UsageError } from '../errors.js';

/** The example user repository, shipped with the package: `init` copies its files (it is also CI's contract). */
const EXAMPLE = fileURLToPath(new URL('../../../examples/consumer/', import.meta.url));

/** What `init` writes, as paths relative to the user's root (and to the example). */
export const INIT_FILES = [
  'vitest.config.ts',
  'ceilingbench.config.ts',
  'benchmarks/registers.spec.ts',
  '.github/workflows/ceilingbench.yml',
] as const;

/** `ceilingbench init`: scaffolds the plugin config, a gate, one example spec and a CI workflow. */
export const registerInit: RegisterCommand = (cli, io) => {
  cli
    .command('init', 'Add vitest.config.ts, ceilingbench.config.ts, an example spec and a CI workflow to a repository')
    .option('--root <dir>', 'The repository (default: the current directory)')
    .option('--force', 'Overwrite files that exist')
    .action((flags: { root?: string; force?: boolean }) => {
      const root = resolve(flags.root ?? process.cwd());
      if (!existsSync(root)) throw new UsageError(`--root: no directory at ${root}`);
      for (const file of INIT_FILES) {
        const target = join(root, file);
        if (existsSync(target) && !flags.force) {
          io.stdout(`kept     ${file} (exists; --force overwrites it)\n`);
          continue;
        }
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, readFileSync(join(EXAMPLE, file)));
        io.stdout(`wrote    ${file}\n`);
      }
      const pkgPath = join(root, 'package.json');
      const pkg = existsSync(pkgPath)
        ? (JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, Record<string, string> | undefined>)
        : {};
      const has = (name: string) => Boolean(pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]);
      const missing = ['ceilingbench', 'vitest'].filter((name) => !has(name));
      io.stdout('\nnext:\n');
      if (missing.length > 0) io.stdout(`  npm install -D ${missing.join(' ')}\n`);
      io.stdout('  CEILINGBENCH_SUBJECT=sim:default npx vitest run --project d2   # then openai:<model>\n');
      return 0;
    });
};
