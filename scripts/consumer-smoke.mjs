#!/usr/bin/env node
// The consumer smoke test: ceilingbench as a user installs it. `npm pack` → a temporary copy of
// examples/consumer whose ceilingbench dependency is the tarball → `npm install --prefer-offline` → the
// README's commands in that copy, each checked. Exits 1 naming every check that failed.
//
//   node scripts/consumer-smoke.mjs [--keep]     (--keep leaves the temporary directory for a look)
//   CONSUMER_VITEST=^4.1.0 node scripts/consumer-smoke.mjs   (the Vitest range the copy installs; default: the example's)
//   CONSUMER_TARBALL=path/to/ceilingbench-x.y.z.tgz node scripts/consumer-smoke.mjs   (test that tarball, no pack)
//   CONSUMER_CHECKS=newest node scripts/consumer-smoke.mjs   (every check but issue 41's verdict routes: CI's first
//     leg, Vitest 5 on the newest Node; the routes run on the two Node 22.12 legs)
//   CONSUMER_CHECKS=versioned node scripts/consumer-smoke.mjs   (only the checks whose outcome depends on the
//     installed Vitest or the Node running it, the verdict routes Vitest decides among them; CI's second leg,
//     Vitest 4.1 on Node 22.12)
//   CONSUMER_CHECKS=node-floor node scripts/consumer-smoke.mjs   (the first hour's checks, `adoptionLanes`, and the
//     verdict routes, `verdictRouteLanes`: CI's third leg, Vitest 5 on the engines' floor, Node 22.12)
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'cb-consumer-'));
const app = join(work, 'app');
const results = [];
const started = Date.now();

const cleanEnv = () => {
  const env = { ...process.env, CI: 'true' };
  for (const key of Object.keys(env)) {
    if (key.startsWith('CEILINGBENCH_') || key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST') {
      delete env[key];
    }
  }
  return env;
};

/** Runs one command to its end; resolves (never rejects) with its exit status and its output, stdout then stderr. */
function run(command, args, { cwd = app, env = {}, timeout = 600_000 } = {}) {
  const t0 = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let failure = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      failure = `timed out after ${timeout / 1000}s`;
      child.kill('SIGKILL');
    }, timeout);
    let settled = false;
    const finish = (status) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      process.stdout.write(`  $ ${[command, ...args].join(' ')}  (exit ${status}, ${seconds}s)\n`);
      done({ status, out: `${stdout}${stderr}${failure}` });
    };
    child.on('error', (error) => {
      failure = String(error);
      finish(null);
    });
    child.on('close', (status) => finish(status));
  });
}

function check(name, ok, detail = '') {
  results.push({ name, ok });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n${detail.slice(-3000)}`}\n`);
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** Every file and folder under `dir` modified after `since` (ms), as paths relative to `dir`. */
function changedSince(dir, since) {
  const changed = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.mtimeMs > since) changed.push(relative(dir, path));
      if (stat.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return changed;
}

/**
 * tsc's errors outside Vitest's own declarations: Vitest 4.1.0's .d.ts files fail under exactOptionalPropertyTypes
 * with skipLibCheck false (a later 4.1 patch fixed them), which no code of ours or the user's can change.
 */
const tscErrors = (result) => result.out.split('\n').filter((line) => /^\S+\(\d+,\d+\): error TS/.test(line));
const inVitest = (line) => /^node_modules\/(@vitest|vitest)\//.test(line);
const typesClean = (result) =>
  result.status === 0 || (tscErrors(result).length > 0 && tscErrors(result).every(inVitest));
const vitestOwn = (result) => {
  const own = tscErrors(result).filter(inVitest).length;
  return own > 0 ? ` (${own} error(s) in Vitest's own declarations, not ours)` : '';
};

/**
 * Every check but issue 41's verdict routes runs in the first CI leg (Vitest 5, newest Node; the routes: the Node
 * 22.12 legs, `verdictRoutesHere`). The second (Vitest 4.1.0, Node 22.12.0: the peer and
 * engine floors) keeps those that Vitest or Node decides: plugin and config loading, the reporter and its exit code,
 * the user's spec and tests beside the plugin, `ceilingbench run` (Vitest's API), types against Vitest's, blob shards
 * and their merge (the workflow's three), `import` and `require`. It leaves out what our code alone decides whatever
 * the version (filter routes to an unevaluated gate, cut-off answers, a gate-key typo, compare, a bad subject,
 * CommonJS typing) and a second shard-and-merge route (the CommonJS repository's two).
 */
const all = process.env.CONSUMER_CHECKS !== 'versioned';
// The README's commands go through npx once per program (the bin links npm made); the other runs call the same
// bin directly, which spares an npm start (~0.7 CPU s) each.
const npx = (args, options) => run('npx', ['--no-install', ...args], options);
const bin = (dir, name) => join(dir, 'node_modules/.bin', name);
const D2_095 = { CEILINGBENCH_SUBJECT: 'sim:retention?p=0.95' };
const GATE_099 = { CEILINGBENCH_GATES: '{"d2":{"minRetention":0.99}}' };
// For runs whose check reads an exit code or a message, not the fit's interval: a Vitest start costs far more
// than the trials, but fewer still cost less (p = 0.95 on d2's ten depths puts the point estimate near 0.95).
const FEW = { CEILINGBENCH_TRIALS: '5' };

// ---- Issue 44, the first hour: fresh ESM, CommonJS and npm-workspaces repositories (every leg) -------------------
// What a new user does first, in a repository of each kind made here from the tarball's installed tree: `ceilingbench
// init` (the workflow on a Node the engines accept; a second `init` changes nothing and says so), then `vitest list`
// (the user's own test and the benchmark cells, Vitest 5's static parse included), each command printing each
// warning at most once. On the node-floor leg (Vitest 5, Node 22.12) these are the whole run, with a gated d2 run,
// `ceilingbench run` from the workspace root, an ESM-syntax vitest.config.js in the CommonJS package and
// import/require added: the routes whose outcome the Node version decides.
const floor = process.env.CONSUMER_CHECKS === 'node-floor';
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** The warning lines one command printed more than once (a process id aside): each must appear at most once. */
function repeatedWarnings(out) {
  const seen = new Map();
  for (const raw of out.split('\n')) {
    const line = raw
      .replace(ANSI, '')
      .replace(/^\(node:\d+\) /, '')
      .trim();
    if (!/warn|\(!\)|deprecat|unsupported by `configLoader/i.test(line)) continue;
    seen.set(line, (seen.get(line) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([line, n]) => `${n}× ${line}`);
}

/** Every file a repository holds but its installed tree, git and what runs write: path → content. */
function snapshot(dir) {
  const files = {};
  const skip = new Set(['node_modules', '.git', 'reports', '.ceilingbench', '.vitest-reports']);
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory() && !skip.has(entry.name)) walk(path);
      else if (entry.isFile()) files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** One repository of the first hour: its folder, its commands' outputs (for the warnings), and `init` in it. */
function adoptionRepo(label, dir) {
  const outputs = [];
  const exec = async (command, args, options = {}) => {
    const result = await run(command, args, { cwd: dir, ...options });
    outputs.push({ what: `${basename(command)} ${args.join(' ')}`, result });
    return result;
  };
  return {
    dir,
    exec,
    /** `ceilingbench init` twice: the workflow's Node, then nothing changed by the second, which says so. */
    async initTwice(args = [], workflowAt = dir) {
      const cli = bin(dir, 'ceilingbench');
      const first = await exec(cli, ['init', ...args]);
      const flowFile = join(workflowAt, '.github/workflows/ceilingbench.yml');
      const engines = readJson(join(ROOT, 'package.json')).engines.node;
      const floorMajor = Number(/^>=(\d+)/.exec(engines)?.[1]);
      const text = existsSync(flowFile) ? readFileSync(flowFile, 'utf8') : '';
      const nodes = [...text.matchAll(/node-version: (\d+)/g)].map((m) => Number(m[1]));
      check(
        `${label}: init writes a workflow whose Node satisfies engines ${engines} (${nodes.join(', ')})`,
        first.status === 0 && nodes.length > 0 && nodes.every((v) => v >= floorMajor),
        `${first.out}\n${text.slice(0, 1500)}`,
      );
      const before = snapshot(workflowAt);
      const again = await exec(cli, ['init', ...args]);
      const after = snapshot(workflowAt);
      check(
        `${label}: init a second time changes nothing and says so`,
        again.status === 0 &&
          /init changed no(thing| file)/.test(again.out) &&
          JSON.stringify(after) === JSON.stringify(before),
        again.out,
      );
      return first;
    },
    /** `vitest list` (from `dir`): the user's test and the benchmark cells, no parse failure, exit 0. */
    async list(userTest, args = []) {
      const listed = await exec(bin(dir, 'vitest'), ['list', ...args]);
      check(
        `${label}: vitest list lists the user’s test and the benchmark cells (d2 and the user’s sweep)`,
        listed.status === 0 &&
          userTest.test(listed.out) &&
          /\[d2\] .*d2 · N=5\b/.test(listed.out) &&
          /\[benchmarks\] .*registers\.spec\.m?ts > d2/.test(listed.out) &&
          !/Failed to parse/.test(listed.out),
        listed.out,
      );
      return listed;
    },
    /** Every command run in it printed each warning at most once. */
    warnedOnce() {
      const repeated = outputs.flatMap(({ what, result }) => repeatedWarnings(result.out).map((r) => `${what}: ${r}`));
      check(
        `${label}: each of its ${outputs.length} commands printed each warning at most once`,
        repeated.length === 0,
        repeated.join('\n'),
      );
    },
  };
}

/** A folder with the app's installed tree hard-linked in (the same tree npm installs whatever the package's type). */
async function withInstalledTree(dir, packageJson) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  const linked = await run('cp', ['-al', join(app, 'node_modules'), join(dir, 'node_modules')], { cwd: work });
  if (linked.status !== 0) throw new Error(`cannot link the installed tree into ${dir}: ${linked.out}`);
}

const SUM_TEST = "import { expect, test } from 'vitest';\ntest('sum', () => expect(1 + 1).toBe(2));\n";

/** A fresh single-package repository of the given module type, `src/sum.test.js` its own test. */
async function adoptSinglePackage(type) {
  const label = type === 'module' ? 'ESM repository' : 'CommonJS repository';
  const dir = join(work, `adopt-${type}`);
  const devDependencies = readJson(join(app, 'package.json')).devDependencies;
  await withInstalledTree(dir, { name: `adopt-${type}`, private: true, type, devDependencies });
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/sum.test.js'), SUM_TEST);
  const repo = adoptionRepo(label, dir);
  await repo.initTwice();
  await repo.list(/src\/sum\.test\.js > sum/);
  if (floor && type === 'module') {
    const d2 = await repo.exec(bin(dir, 'vitest'), ['run', '--project', 'd2'], { env: { ...D2_095, ...FEW } });
    check(
      `${label}: vitest run --project d2 passes its gate and writes the report`,
      d2.status === 0 && existsSync(join(dir, 'reports/ceilingbench.json')),
      d2.out,
    );
    const esm = await repo.exec(process.execPath, [
      '-e',
      "import('ceilingbench').then((m) => { if (!m.resolveTask) process.exit(3); })",
    ]);
    check(`${label}: import('ceilingbench') on plain Node`, esm.status === 0, esm.out);
  }
  if (floor && type === 'commonjs') {
    // an ESM-syntax vitest.config.js in a CommonJS package: Vite's configLoader warning once per command
    writeFileSync(join(dir, 'vitest.config.js'), readFileSync(join(dir, 'vitest.config.mts')));
    const esmJs = await repo.exec(bin(dir, 'vitest'), ['list', '--project', 'd2', '--config', 'vitest.config.js']);
    check(
      `${label}: an ESM-syntax vitest.config.js loads and lists d2`,
      esmJs.status === 0 && /d2 · N=5/.test(esmJs.out),
      esmJs.out,
    );
    rmSync(join(dir, 'vitest.config.js'));
    const cjs = await repo.exec(process.execPath, [
      '-e',
      "if (typeof require('ceilingbench').resolveTask !== 'function') process.exit(3)",
    ]);
    check(`${label}: require('ceilingbench') on plain Node`, cjs.status === 0, cjs.out);
  }
  repo.warnedOnce();
}

/**
 * An npm-workspaces repository: ceilingbench and vitest installed at its root, the benchmark in packages/bench (`init
 * --root packages/bench` from the root), the user's test in packages/lib, the root's vitest config registering the
 * package as docs/monorepo.md says (the step `init` names while it is missing).
 */
async function adoptWorkspace() {
  const label = 'npm-workspaces repository';
  const dir = join(work, 'adopt-workspace');
  const devDependencies = readJson(join(app, 'package.json')).devDependencies;
  await withInstalledTree(dir, { name: 'adopt-workspace', private: true, workspaces: ['packages/*'], devDependencies });
  mkdirSync(join(dir, '.git'));
  for (const name of ['bench', 'lib']) {
    mkdirSync(join(dir, 'packages', name), { recursive: true });
    writeFileSync(join(dir, 'packages', name, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  }
  writeFileSync(join(dir, 'packages/lib/sum.test.js'), SUM_TEST);
  const repo = adoptionRepo(label, dir);
  const init = await repo.exec(bin(dir, 'ceilingbench'), ['init', '--root', 'packages/bench']);
  const flowFile = join(dir, '.github/workflows/ceilingbench.yml');
  check(
    `${label}: init --root packages/bench writes the workflow at the root, running in the package, names the root's registration, no npm install -D`,
    init.status === 0 &&
      existsSync(flowFile) &&
      !existsSync(join(dir, 'packages/bench/.github')) &&
      readFileSync(flowFile, 'utf8').includes('working-directory: packages/bench') &&
      /ceilingbenchWorkspace\('packages\/bench'\)/.test(init.out) &&
      !/npm install -D/.test(init.out),
    init.out,
  );
  writeFileSync(
    join(dir, 'vitest.config.ts'),
    [
      "import { ceilingbenchWorkspace } from 'ceilingbench/plugin';",
      "import { defineConfig } from 'vitest/config';",
      '',
      "export default defineConfig({ plugins: [ceilingbenchWorkspace('packages/bench')], test: { projects: ['packages/*'] } });",
      '',
    ].join('\n'),
  );
  // with the root registered, a second init has nothing left to do (the first already wrote every file)
  await repo.initTwice(['--root', 'packages/bench']);
  await repo.list(/\[lib\] sum\.test\.js > sum/);
  if (floor) {
    const cli = await repo.exec(bin(dir, 'ceilingbench'), ['run', '--project', 'd1,d2', '--trials', '2']);
    check(
      `${label}: ceilingbench run --project d1,d2 from the root writes the package's report`,
      cli.status === 0 && existsSync(join(dir, 'packages/bench/reports/ceilingbench.json')),
      cli.out,
    );
    // the progress line knows its total before the first cell (two projects, two workers: before, the first lines
    // read `11+`), d1's and d2's ten cells and fit each, on every line
    const totals = [...cli.out.matchAll(/^\[\d+\/(\d+\+?)\] /gm)].map((m) => m[1]);
    check(
      `${label}: … its progress line shows the total before the first cell, never changing (${[...new Set(totals)].join(', ')})`,
      totals.length === 22 && totals.every((t) => t === '22'),
      cli.out,
    );
  }
  repo.warnedOnce();
}

/**
 * The first hour's repositories as lanes (each one command at a time): all three in two lanes on the node-floor leg;
 * on the others the CommonJS and workspace ones in one lane, the ESM repository's init and list being sections 7
 * and 10's (the example's files, in an ESM package), whose list is checked for repeated warnings there.
 */
const adoptionLanes = () =>
  floor
    ? [adoptSinglePackage('module').then(() => adoptSinglePackage('commonjs')), adoptWorkspace()]
    : [adoptSinglePackage('commonjs').then(adoptWorkspace)];
// ---- end of issue 44's block ---------------------------------------------------------------------------------------

/** A lane's duration, printed when it ends (the legs are balanced by these). */
const timed = (name, lane) => {
  const t0 = Date.now();
  return lane.finally(() => process.stdout.write(`  lane ${name}: ${((Date.now() - t0) / 1000).toFixed(0)}s\n`));
};

try {
  process.stdout.write(`consumer smoke test in ${work}\n`);
  // CONSUMER_TARBALL: a tarball already packed (CI packs once and hands the same file to publint, attw and both
  // smoke runs); without it, `npm pack` here (its prepack builds dist/ first).
  const given = process.env.CONSUMER_TARBALL;
  if (given) {
    cpSync(resolve(given), join(work, basename(given)));
    process.stdout.write(`  the tarball packed beforehand: ${given}\n`);
  } else {
    const pack = await run('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT });
    check('npm pack makes a tarball', pack.status === 0 && readdirSync(work).some((f) => f.endsWith('.tgz')), pack.out);
  }
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error('no tarball');
  const listing = await run('tar', ['-tzf', join(work, tarball)], { cwd: work });
  const files = listing.out.split('\n').filter(Boolean);
  // dist, bin, README, LICENSE, package.json, and the example files that `ceilingbench init` copies
  const shipped =
    /^package\/(dist\/|bin\/|README\.md$|LICENSE$|package\.json$|examples\/consumer\/(vitest\.config\.ts|ceilingbench\.config\.ts|benchmarks\/|\.github\/))/;
  const unexpected = files.filter((f) => !shipped.test(f));
  check(
    `the tarball holds only dist, bin, the init templates, README, LICENSE (${files.length} files)`,
    unexpected.length === 0,
    unexpected.join('\n'),
  );

  cpSync(join(ROOT, 'examples/consumer'), app, { recursive: true });
  const pkg = readJson(join(app, 'package.json'));
  pkg.devDependencies.ceilingbench = `file:../${tarball}`;
  // CONSUMER_VITEST picks the Vitest major the copy installs (CI runs this once with 4.1.x, once with 5.x).
  if (process.env.CONSUMER_VITEST) pkg.devDependencies.vitest = process.env.CONSUMER_VITEST;
  process.stdout.write(`  node ${process.version}, vitest ${pkg.devDependencies.vitest}\n`);
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], { timeout: 900_000 });
  check('npm install of the example with the tarball', install.status === 0, install.out);
  // The CommonJS repository (section 11) and the workflow's repository (sections 8-10) get this installed tree as
  // hard links, made before anything runs here (so no file that a run writes under node_modules is shared): npm
  // installs the same tree whatever the package's `type`, and a second install would only time the npm cache.
  const cjs = join(work, 'cjs');
  const flow = join(work, 'workflow');
  mkdirSync(cjs);
  cpSync(join(ROOT, 'examples/consumer'), flow, { recursive: true });
  cpSync(join(app, 'package.json'), join(flow, 'package.json'));
  const trees = await Promise.all(
    [cjs, flow].map((dir) => run('cp', ['-al', join(app, 'node_modules'), join(dir, 'node_modules')], { cwd: work })),
  );
  check(
    'the installed tree is hard-linked into the CommonJS and the workflow repositories',
    trees.every((t) => t.status === 0),
    trees.map((t) => t.out).join('\n'),
  );

  // issue 41: the verdict routes' repositories, their trees hard-linked before anything runs (verdictRoutesRepo, below)
  const routes = verdictRoutesHere() ? await verdictRoutesRepo() : undefined;

  const nested = existsSync(join(app, 'node_modules/ceilingbench/node_modules/vitest'));
  check('vitest is not nested under ceilingbench (a peer dependency)', !nested);
  const installed = existsSync(join(app, 'node_modules/vitest/package.json'))
    ? readJson(join(app, 'node_modules/vitest/package.json')).version
    : 'none';
  check(
    `the Vitest asked for is the one installed (${installed})`,
    !process.env.CONSUMER_VITEST ||
      installed.startsWith(process.env.CONSUMER_VITEST.replace(/^[\^~]/, '').split('.')[0]),
  );

  // Two lanes run side by side, each one command at a time: the app (sections 1–6 share its reports folder, its
  // config files and the node_modules check of section 5) and the rest, each in folders of its own (7: a fresh
  // repository; 11: the CommonJS one; 8–10: the workflow's). Each command waits on one child process, so two lanes
  // keep two cores busy when the smoke test runs alone.
  const appLane = async () => {
    const vitest = bin(app, 'vitest');
    // 1. The benchmark project d2 on a simulated subject of known retention.
    rmSync(join(app, 'reports'), { recursive: true, force: true });
    const d2 = await npx(['vitest', 'run', '--project', 'd2'], { env: D2_095 });
    check('vitest run --project d2 exits 0', d2.status === 0, d2.out);
    const reportPath = join(app, 'reports/ceilingbench.json');
    const report = existsSync(reportPath) ? readJson(reportPath) : undefined;
    const cells = report?.cells ?? [];
    const fit = report?.fits?.[0];
    check(
      'reports/ceilingbench.json: ten D2 cells and a fit whose CI holds 0.95',
      cells.length === 10 &&
        cells.every((c) => c.task === 'd2') &&
        fit !== undefined &&
        fit.ci95[0] <= 0.95 &&
        fit.ci95[1] >= 0.95,
      JSON.stringify({ cells: cells.map((c) => c.task), ci95: fit?.ci95 }),
    );
    check(
      'report names ceilingbench’s own version',
      report?.tool?.version === readJson(join(ROOT, 'package.json')).version,
    );
    const junit = existsSync(join(app, 'reports/junit.xml'))
      ? readFileSync(join(app, 'reports/junit.xml'), 'utf8')
      : '';
    check('reports/junit.xml has the D2 cells', junit.includes('d2 · N=50'), junit.slice(0, 500));
    const fileGate = report?.gates?.find((g) => g.project === 'd2' && g.gate === 'minRetention');
    check(
      'the hard gate of ceilingbench.config.ts was evaluated and passed',
      fileGate?.passed === true,
      JSON.stringify(report?.gates),
    );
    check(
      'the HTML report draws its charts (vega installed in the example)',
      existsSync(join(app, 'reports/index.html')) &&
        readFileSync(join(app, 'reports/index.html'), 'utf8').includes('<svg'),
    );
    const d2Baseline = join(work, 'd2-baseline.json');
    cpSync(reportPath, d2Baseline);

    // 2. The hard gate of the app's config file (not the environment: section 11 takes that route) fails the
    // run, run from the parent directory with --root.
    const configPath = join(app, 'ceilingbench.config.ts');
    const configText = readFileSync(configPath, 'utf8');
    writeFileSync(configPath, configText.replace('minRetention: 0.9', 'minRetention: 0.99'));
    const fileViaRoot = await run(vitest, ['run', '--root', 'app', '--project', 'd2'], {
      cwd: work,
      env: { ...D2_095, ...FEW },
    });
    writeFileSync(configPath, configText);
    check(
      'a gate above the truth in the app’s ceilingbench.config.ts fails the run, with --root from the parent',
      fileViaRoot.status !== 0 && /gate d2\.minRetention FAILED/.test(fileViaRoot.out),
      fileViaRoot.out,
    );

    // 3. The user's own spec folder is its own project. Its file run alone (a file filter) leaves the d2 gate of
    // ceilingbench.config.ts unevaluated, which fails the run (a gate never passes on data it did not check); with
    // d2 beside it, it passes.
    if (all) {
      const ownAlone = await run(vitest, ['run', 'benchmarks/registers'], { env: { ...D2_095, ...FEW } });
      check(
        'the user’s own spec file alone (a file filter): the d2 gate is not evaluated and fails the run',
        ownAlone.status !== 0 &&
          /gate d2\.minRetention FAILED \(hard\): not evaluated — project 'd2' did not run/.test(ownAlone.out),
        ownAlone.out,
      );
    }
    const own = await run(vitest, ['run', '--project', 'benchmarks', '--project', 'd2'], {
      env: { ...D2_095, ...FEW },
    });
    check('the user’s own spec (describeSweep + toBeValidTrajectory) with d2 passes', own.status === 0, own.out);
    // both projects hold task d2: summary.md names the project of each row
    const summaryPath = join(app, 'reports/summary.md');
    const summary = existsSync(summaryPath) ? readFileSync(summaryPath, 'utf8') : '';
    check(
      'summary.md names the project where two projects hold task d2 (benchmarks · d2, d2 · d2)',
      /^\| benchmarks · d2 \| verbose \|/m.test(summary) && /^\| d2 · d2 \| standard \|/m.test(summary),
      summary.slice(0, 3000),
    );

    // 3b. Routes that must never pass unchecked (issue 25), each in this repository as a user would take it.
    if (all) {
      const before = Date.now();
      const canonical = await run(vitest, ['run', '--project', 'benchmarks', '-t', 'canonical'], {
        env: { ...D2_095, CEILINGBENCH_GATES: '{"benchmarks":{"minRetention":0.5}}' },
      });
      check(
        'a name filter that skips the gated fits fails and still writes its report',
        canonical.status !== 0 &&
          /gate benchmarks\.minRetention FAILED \(hard\): not evaluated/.test(canonical.out) &&
          existsSync(reportPath) &&
          statSync(reportPath).mtimeMs >= before,
        canonical.out,
      );
      const cutOff = await run(vitest, ['run', '--project', 'd2'], {
        env: { ...FEW, CEILINGBENCH_SUBJECT: 'sim:retention?p=0.95&trunc=1' },
      });
      check(
        'a fit that counted no trial (every answer cut off) fails with the reason, never a p_d',
        cutOff.status !== 0 && /insufficient data — no counted trials/.test(cutOff.out),
        cutOff.out,
      );
      const typo = await run(vitest, ['run', '--project', 'd2'], {
        env: { ...D2_095, CEILINGBENCH_GATES: '{"D2":{"minRetention":0.5}}' },
      });
      check(
        'a gate key that names no project is a configuration error',
        typo.status !== 0 && /'D2' names no project .*did you mean 'd2'/.test(typo.out),
        typo.out,
      );
      const d1Only = await run(vitest, ['run', '--project', 'd1'], { env: { ...D2_095, ...FEW } });
      const compareAbsent = await npx(['ceilingbench', 'compare', d2Baseline, reportPath]);
      check(
        'a project filter that leaves d2 out fails on its unevaluated gate, and compare of a d2 baseline with that run lists d2 as not compared and exits 1',
        d1Only.status !== 0 &&
          /gate d2\.minRetention FAILED \(hard\): not evaluated — project 'd2' did not run/.test(d1Only.out) &&
          compareAbsent.status === 1 &&
          /absent/.test(compareAbsent.out),
        `${d1Only.out}\n${compareAbsent.out}`,
      );
      const compareSame = await run(bin(app, 'ceilingbench'), ['compare', d2Baseline, d2Baseline]);
      check('compare of a run with itself exits 0', compareSame.status === 0, compareSame.out);
    }

    // 4. Types and plain Node.
    const tsc = await npx(['tsc', '--noEmit']);
    check(
      `tsc --noEmit under the strict NodeNext tsconfig: no error in ceilingbench's types or the repository's files${vitestOwn(tsc)}`,
      typesClean(tsc),
      tsc.out,
    );
    const core = await run(process.execPath, [
      '-e',
      "import('ceilingbench').then((m) => { if (!m.resolveTask) process.exit(3); })",
    ]);
    check('node -e "import(\'ceilingbench\')" works on plain Node', core.status === 0, core.out);

    // 5. The command in the user's repository writes only inside it, never under node_modules.
    const since = Date.now() - 1;
    await new Promise((r) => setTimeout(r, 20));
    const cli = await npx(['ceilingbench', 'run', '--project', 'd2', '--trials', '5']);
    const inModules = changedSince(join(app, 'node_modules'), since);
    check('ceilingbench run --project d2 --trials 5 exits 0', cli.status === 0, cli.out);
    check('… writes nothing under node_modules', inModules.length === 0, inModules.join('\n'));
    check('… writes its reports under the app', existsSync(reportPath) && statSync(reportPath).mtimeMs > since);
    if (all) {
      // 5b. A batched d2 sweep (`run --batch`) against a loopback batch endpoint: every trial answered by a batch.
      const { startBatchLoopback } = await import('./batch-loopback.mjs');
      const loop = await startBatchLoopback();
      const out = join(work, 'batch-reports');
      const batched = await npx(['ceilingbench', 'run', '--project', 'd2', '--trials', '2', '--batch', '--out', out], {
        env: {
          CEILINGBENCH_SUBJECT: 'openai:loop-model',
          OPENAI_BASE_URL: loop.baseURL,
          OPENAI_API_KEY: 'sk-loopback',
          CEILINGBENCH_CACHE_DIR: join(work, 'batch-cache'),
        },
      });
      await loop.close();
      const trials = existsSync(join(out, 'ceilingbench.json'))
        ? JSON.parse(readFileSync(join(out, 'ceilingbench.json'), 'utf8')).cells.flatMap((c) => c.trials)
        : [];
      check(
        'ceilingbench run --batch: a d2 sweep answered by one batch, no chat completion, no api trial',
        batched.status !== null &&
          batched.status <= 1 &&
          trials.length === 20 &&
          trials.every((t) => t.batch === 'batch_1' && t.outcome.kind !== 'api') &&
          loop.batches() === 1 &&
          loop.chatCompletions() === 0,
        batched.out,
      );
    }

    // 6. With no vitest config at all, the command falls back to the plugin's projects.
    rmSync(join(app, 'vitest.config.ts'));
    const bare = await run(bin(app, 'ceilingbench'), ['run', '--project', 'd2', '--trials', '5']);
    check('ceilingbench run without a vitest config uses the standard projects', bare.status === 0, bare.out);
    if (all) {
      const badSubject = await run(bin(app, 'ceilingbench'), [
        'run',
        '--project',
        'd2',
        '--trials',
        '5',
        '--subject',
        'bogus:x',
      ]);
      check(
        'a bad subject is one message and exit 2',
        badSubject.status === 2 && /invalid subject 'bogus:x'/.test(badSubject.out),
        badSubject.out,
      );
    }
  };

  /** Sections 8–10 in the workflow's repository: the example's files as they ship, the app's installed tree. */
  const workflowLane = async () => {
    const vitest = bin(flow, 'vitest');
    const reportPath = join(flow, 'reports/ceilingbench.json');
    // 8. The example's CI workflow: three blob shards, then one merge that writes the reports. Every standard
    // project runs in the first leg; the second runs d1, d2 and the user's (one spec file each, one per shard:
    // Vitest's blob and merge are what differ by version, the specs run the same whichever shard holds them).
    const kept = ['benchmarks', 'd1', 'd2'];
    const projects = all ? [] : kept.flatMap((p) => ['--project', p]);
    const shardEnv = { CEILINGBENCH_TRIALS: '3' };
    // explicit blob paths, as the workflow has them: Vitest 4.1 and 5 default to different folders
    const shards = [];
    for (const i of [1, 2, 3]) {
      const args = [
        'run',
        ...projects,
        `--shard=${i}/3`,
        '--reporter=blob',
        `--outputFile=.vitest-reports/blob-${i}.json`,
      ];
      shards.push(await run(vitest, args, { cwd: flow, env: shardEnv }));
    }
    check(
      'the workflow’s three shards run',
      shards.every((s) => s.status === 0 || /gate .* FAILED/.test(s.out)),
      shards.map((s) => s.out).join('\n'),
    );
    const merged = await run(vitest, ['run', '--merge-reports=.vitest-reports'], { cwd: flow, env: shardEnv });
    const mergedReport = existsSync(reportPath) ? readJson(reportPath) : undefined;
    const expected = all ? ['benchmarks', 'd1', 'd2', 'd3', 'puzzles', 'scc'] : kept;
    check(
      `the merge writes one report over ${all ? 'every standard project and the user’s' : 'the shards’ projects'}`,
      merged.status === 0 &&
        mergedReport !== undefined &&
        expected.every((p) => mergedReport.projects.includes(p)) &&
        mergedReport.scope?.shards?.missing?.length === 0,
      `${merged.out}\n${JSON.stringify(mergedReport?.projects)}`,
    );
    // 9. A merge that lacks a shard's blob (its job died before uploading) names the shard and fails.
    const blobDir = join(flow, '.vitest-reports');
    const blobs = existsSync(blobDir) ? readdirSync(blobDir).sort() : [];
    if (blobs.length > 0) rmSync(join(blobDir, blobs[blobs.length - 1]));
    const partial = await run(vitest, ['run', '--merge-reports=.vitest-reports'], { cwd: flow, env: shardEnv });
    check(
      'a merge of two of the three shards names the missing one and fails',
      blobs.length === 3 && partial.status !== 0 && /merged 2 of 3 shards: shard \d\/3 missing/.test(partial.out),
      `${blobs.join(', ')}\n${partial.out}`,
    );

    // 10. The repository's own tests stay found beside the plugin (its own project, `tests`).
    writeFileSync(
      join(flow, 'sum.test.ts'),
      "import { expect, test } from 'vitest';\ntest('sum', () => expect(1 + 1).toBe(2));\n",
    );
    const ownTest = await run(vitest, ['run', 'sum.test.ts'], { cwd: flow });
    check(
      'the repository’s own sum.test.ts is still found and passes',
      ownTest.status === 0 && /1 passed/.test(ownTest.out),
      ownTest.out,
    );
    const listed = await run(vitest, ['list', '--project', 'tests'], { cwd: flow });
    check('vitest list --project tests lists it', listed.status === 0 && /sum\.test\.ts/.test(listed.out), listed.out);
    // `vitest list` with the plugin: the user's test and every benchmark cell (Vitest 5 parses statically by
    // default, which cannot see a cell: the plugin has the benchmark projects collected by loading them)
    const listAll = await run(vitest, ['list'], { cwd: flow });
    check(
      'vitest list lists the user’s test, the standard cells and the user’s sweep cells, exit 0',
      listAll.status === 0 &&
        /sum\.test\.ts > sum/.test(listAll.out) &&
        /\[d2\] .*d2 · N=5\b/.test(listAll.out) &&
        /\[benchmarks\] .*d2 · N=5\b/.test(listAll.out) &&
        !/Failed to parse/.test(listAll.out),
      listAll.out,
    );
    const repeated = repeatedWarnings(listAll.out);
    check('… printing each warning at most once (an ESM repository)', repeated.length === 0, repeated.join('\n'));
    const listJson = await run(vitest, ['list', '--json'], { cwd: flow });
    let names = [];
    try {
      names = JSON.parse(listJson.out.slice(listJson.out.indexOf('['))).map((t) => t.name);
    } catch {}
    check(
      'vitest list --json holds them too',
      listJson.status === 0 && names.includes('sum') && names.some((n) => /d2 · fit/.test(n)),
      listJson.out.slice(0, 2000),
    );
    const listOwn = await run(vitest, ['list', '--project', 'benchmarks'], { cwd: flow });
    check(
      'vitest list --project benchmarks lists the describeSweep cells and the plain test',
      listOwn.status === 0 && /d2 · N=15/.test(listOwn.out) && /canonical D2 response/.test(listOwn.out),
      listOwn.out,
    );
  };

  const sideLane = async () => {
    // 7. `ceilingbench init` in an empty repository writes the example's files.
    const fresh = join(work, 'fresh');
    cpSync(join(app, 'package.json'), join(fresh, 'package.json'));
    const init = await run(bin(app, 'ceilingbench'), ['init'], { cwd: fresh });
    const templates = [
      'vitest.config.ts',
      'ceilingbench.config.ts',
      'benchmarks/registers.spec.ts',
      '.github/workflows/ceilingbench.yml',
    ];
    const same = templates.every(
      (f) =>
        existsSync(join(fresh, f)) &&
        readFileSync(join(fresh, f), 'utf8') === readFileSync(join(ROOT, 'examples/consumer', f), 'utf8'),
    );
    check(
      'ceilingbench init writes the example’s config, gate, spec and workflow',
      init.status === 0 && same,
      init.out,
    );
    const engines = readJson(join(ROOT, 'package.json')).engines.node;
    const floorMajor = Number(/^>=(\d+)/.exec(engines)?.[1]);
    const nodes = [...readFileSync(join(fresh, templates[3]), 'utf8').matchAll(/node-version: (\d+)/g)].map(
      (m) => m[1],
    );
    check(
      `the workflow init writes runs on a Node that satisfies engines ${engines} (${nodes.join(', ')})`,
      nodes.length === 3 && nodes.every((v) => Number(v) >= floorMajor),
      nodes.join(', '),
    );
    const before = templates.map((f) => readFileSync(join(fresh, f), 'utf8'));
    const again = await run(bin(app, 'ceilingbench'), ['init'], { cwd: fresh });
    check(
      'init a second time changes nothing and says so',
      again.status === 0 &&
        /init changed no(thing| file)/.test(again.out) &&
        templates.every((f, i) => readFileSync(join(fresh, f), 'utf8') === before[i]),
      again.out,
    );
    const ignore = existsSync(join(fresh, '.gitignore')) ? readFileSync(join(fresh, '.gitignore'), 'utf8') : '';
    check(
      '… and a .gitignore for the response cache, the reports and the blobs',
      ['.ceilingbench/', 'reports/', '.vitest-reports/'].every((entry) => ignore.split('\n').includes(entry)),
      ignore,
    );

    // 11. A CommonJS repository as `npm init -y` writes it (the tree installed above): init (.mts files), the d2
    // gate failing and passing (a run above the truth, then two shards and their merge), types, require.
    const vitest = bin(cjs, 'vitest');
    cpSync(join(app, 'package.json'), join(cjs, 'package.json'));
    const cjsPkg = readJson(join(cjs, 'package.json'));
    cjsPkg.type = 'commonjs';
    writeFileSync(join(cjs, 'package.json'), `${JSON.stringify(cjsPkg, null, 2)}\n`);
    const cjsInit = await run(bin(cjs, 'ceilingbench'), ['init'], { cwd: cjs });
    check(
      'init in a CommonJS repository writes vitest.config.mts and ignores .ceilingbench/ in git',
      cjsInit.status === 0 &&
        existsSync(join(cjs, 'vitest.config.mts')) &&
        readFileSync(join(cjs, '.gitignore'), 'utf8').includes('.ceilingbench/'),
      cjsInit.out,
    );
    const cjsGated = await run(vitest, ['run', '--project', 'd2'], {
      cwd: cjs,
      env: { ...D2_095, ...FEW, ...GATE_099 },
    });
    check(
      'vitest run --project d2 in the CommonJS repository loads its .mts config and fails on a hard gate above the truth',
      cjsGated.status !== 0 && /gate d2\.minRetention FAILED/.test(cjsGated.out),
      cjsGated.out,
    );
    if (all) {
      const tsconfig = readJson(join(app, 'tsconfig.json'));
      tsconfig.include = ['*.mts', 'benchmarks'];
      writeFileSync(join(cjs, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
      const cjsTsc = await run(bin(cjs, 'tsc'), ['--noEmit'], { cwd: cjs });
      check(
        `tsc --noEmit (NodeNext) on the files init wrote in the CommonJS repository${vitestOwn(cjsTsc)}`,
        typesClean(cjsTsc),
        cjsTsc.out,
      );
    }
    // shards and their merge on the peer floor: the workflow's (every project and the user's tests, below)
    if (all) {
      const cjsShards = [];
      for (const i of [1, 2]) {
        const args = [
          'run',
          '--project',
          'd1',
          '--project',
          'd2',
          `--shard=${i}/2`,
          '--reporter=blob',
          `--outputFile=.vitest-reports/blob-${i}.json`,
        ];
        cjsShards.push(await run(vitest, args, { cwd: cjs, env: { ...D2_095, CEILINGBENCH_TRIALS: '3' } }));
      }
      const cjsMerged = await run(vitest, ['run', '--merge-reports=.vitest-reports'], {
        cwd: cjs,
        env: { ...D2_095, CEILINGBENCH_TRIALS: '3' },
      });
      const cjsReport = join(cjs, 'reports/ceilingbench.json');
      check(
        'two shards and a merge give one report in the CommonJS repository, its d2 gate passed',
        cjsShards.every((r) => r.status === 0) &&
          cjsMerged.status === 0 &&
          existsSync(cjsReport) &&
          readJson(cjsReport).scope?.shards?.missing?.length === 0 &&
          readJson(cjsReport).gates?.some((g) => g.project === 'd2' && g.passed === true),
        `${cjsShards.map((r) => r.out).join('\n')}\n${cjsMerged.out}`,
      );
    }
    // A one-trial sweep at p = 0.85 that passes the 0.9 gate by luck (seed 4): the gate line says its sample
    // cannot decide it, and how many trials per cell would
    const lucky = await run(vitest, ['run', '--project', 'd2'], {
      cwd: cjs,
      env: { CEILINGBENCH_SUBJECT: 'sim:retention?p=0.85', CEILINGBENCH_TRIALS: '1', CEILINGBENCH_SEED: '4' },
    });
    check(
      'a gate whose interval holds its threshold says "undecided at this sample size" with the trials that would decide',
      /gate d2\.minRetention \w+ \(hard\): .*; undecided at this sample size: p_d .* — about \d+ trials per cell/.test(
        lucky.out,
      ),
      lucky.out,
    );
    // An ESM-syntax vitest.config.js in this CommonJS package: Vite 8 warns that it cannot be loaded natively, once
    // per command (the projects the plugin declares load it again: it printed once per project before)
    writeFileSync(join(cjs, 'vitest.config.js'), readFileSync(join(cjs, 'vitest.config.mts')));
    const esmJs = await run(vitest, ['list', '--project', 'd2', '--config', 'vitest.config.js'], { cwd: cjs });
    const warnings = esmJs.out.split("unsupported by `configLoader: 'native'`").length - 1;
    check(
      `an ESM vitest.config.js in a CommonJS package: each Vite warning at most once (${warnings})`,
      esmJs.status === 0 && warnings <= 1 && /d2 · N=5/.test(esmJs.out),
      esmJs.out,
    );
    rmSync(join(cjs, 'vitest.config.js'));
    const cjsRequire = await run(
      process.execPath,
      ['-e', "if (typeof require('ceilingbench').resolveTask !== 'function') process.exit(3)"],
      { cwd: cjs },
    );
    check("require('ceilingbench') works in the CommonJS repository", cjsRequire.status === 0, cjsRequire.out);

    await workflowLane();
  };
  const lanes = await Promise.allSettled([
    ...(floor
      ? adoptionLanes().map((lane, i) => timed(`adoption ${i + 1}`, lane))
      : [timed('app', appLane()), timed('side', sideLane()), ...adoptionLanes().map((l) => timed('adoption', l))]),
    ...(routes ? verdictRouteLanes(routes) : []), // issue 41: lanes of their own
  ]);
  const broken = lanes.find((lane) => lane.status === 'rejected');
  if (broken) throw broken.reason;
} catch (error) {
  check('smoke test ran to the end', false, String(error?.stack ?? error));
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}

const failed = results.filter((r) => !r.ok);
process.stdout.write(`\nconsumer smoke test: ${((Date.now() - started) / 1000).toFixed(0)}s\n`);
process.stdout.write(`${results.length - failed.length} passed, ${failed.length} failed\n`);
process.exitCode = failed.length === 0 ? 0 : 1;

// ─── Issue 41: the verdict's routes in a fresh repository (one block; its call sites are marked "issue 41") ───
// A user's repository whose `benchmarks/` holds a d2 sweep (registers) and a d3 sweep (social), gated as one project
// with the standard d2 and puzzles beside it, each route a user or a careless CI takes: the exit code is the
// configuration's and the evidence's, never the route's; and a workspace laid out as docs/monorepo.md says, run from
// its root. Each check fails on the old behaviour (0cb3832's: exit 0, or no report set, or a stray one). The routes
// run on the two Node 22.12 legs, Vitest 5 (node-floor) and Vitest 4.1 (versioned): every route whose outcome Vitest
// decides (filters, skips, reporters, retry, merges, nothing collected, config loading) on both; the workspace
// root's (a Vitest 5 failure), `report` and `compare` (our code alone) on the Vitest 5 one. CI's first leg (Vitest 5
// on the newest Node, CONSUMER_CHECKS=newest) leaves them out: what Node decides in them is the loading of
// configuration files, where 22.12 (no type stripping) is the harder end, and that leg runs every other check.

/** Whether this leg runs the routes: every leg but `newest` (CI's first; a run with no CONSUMER_CHECKS runs them). */
function verdictRoutesHere() {
  return process.env.CONSUMER_CHECKS !== 'newest';
}

/**
 * The routes' repositories, the user's (twice: two lanes) and (on Vitest 5: verdictRouteLanes) the workspace, each
 * with the app's installed tree (hard links, made before any run).
 */
async function verdictRoutesRepo() {
  const dir = join(work, 'routes');
  const family = join(work, 'routes-family');
  const vitestPkg = join(app, 'node_modules/vitest/package.json');
  const vitestMajor = existsSync(vitestPkg) ? Number(readJson(vitestPkg).version.split('.')[0]) : 0;
  const monorepo = vitestMajor >= 5 ? join(work, 'routes-monorepo') : undefined;
  for (const d of [dir, family]) {
    mkdirSync(join(d, 'benchmarks'), { recursive: true });
    cpSync(join(app, 'package.json'), join(d, 'package.json'));
  }
  if (monorepo) {
    const { devDependencies } = readJson(join(app, 'package.json'));
    const root = {
      name: 'routes-monorepo',
      private: true,
      type: 'module',
      workspaces: ['packages/*'],
      devDependencies,
    };
    mkdirSync(join(monorepo, 'packages/bench/benchmarks'), { recursive: true });
    writeFileSync(join(monorepo, 'package.json'), `${JSON.stringify(root, null, 2)}\n`);
  }
  const trees = await Promise.all(
    [dir, family, monorepo]
      .filter(Boolean)
      .map((d) => run('cp', ['-al', join(app, 'node_modules'), join(d, 'node_modules')], { cwd: work })),
  );
  check(
    'the installed tree is hard-linked into the verdict routes’ repositories (a user’s, twice; a workspace)',
    trees.every((t) => t.status === 0),
    trees.map((t) => t.out).join('\n'),
  );
  for (const d of [dir, family]) {
    writeFileSync(
      join(d, 'vitest.config.ts'),
      "import { ceilingbench } from 'ceilingbench/plugin';\nimport { defineConfig } from 'vitest/config';\n\n" +
        "export default defineConfig({ plugins: [ceilingbench({ specs: 'benchmarks', projects: ['d2', 'puzzles'] })] });\n",
    );
    writeFileSync(join(d, 'ceilingbench.config.ts'), ROUTES_CONFIG());
    writeFileSync(join(d, 'benchmarks/registers.spec.ts'), ROUTES_SWEEP('d2'));
    writeFileSync(join(d, 'benchmarks/social.spec.ts'), ROUTES_SWEEP('d3'));
  }
  if (!monorepo) return { dir, family };
  // docs/monorepo.md's layout: the benchmark in packages/bench (the plugin, its gate above the truth, a spec folder
  // of one plain test); the root's vitest.config.ts is written by each run (with and without the registration)
  const bench = join(monorepo, 'packages/bench');
  writeFileSync(join(bench, 'package.json'), '{ "name": "bench", "private": true, "type": "module" }\n');
  writeFileSync(
    join(bench, 'vitest.config.ts'),
    "import { ceilingbench } from 'ceilingbench/plugin';\nimport { defineConfig } from 'vitest/config';\n\n" +
      "export default defineConfig({ plugins: [ceilingbench({ projects: ['d2'], specs: 'benchmarks' })] });\n",
  );
  writeFileSync(
    join(bench, 'ceilingbench.config.ts'),
    "import { defineConfig } from 'ceilingbench';\n\nexport default defineConfig({ gates: { d2: { minRetention: 0.99 } } });\n",
  );
  writeFileSync(join(bench, 'benchmarks/smoke.spec.ts'), SUM_TEST.replace("'sum'", "'smoke'"));
  return { dir, family, monorepo };
}

/**
 * The routes' lanes (each one command at a time): the user's repository; a copy of it for the one-family routes, then
 * the workspace — on Vitest 5 only, where a workspace's root run ignored the package's gate, or ran it twice with a
 * stray root report set (Vitest 4.1 applied the gate and ran it once: the same checks there pass on the old code
 * too; test/e2e/monorepo.test.ts runs them on 4.1 in npm test).
 */
function verdictRouteLanes(repos) {
  const family = verdictOneFamily(repos.family);
  return [
    timed('verdict routes', verdictRoutes(repos.dir)),
    timed(
      repos.monorepo ? 'verdict routes: one family, workspace' : 'verdict routes: one family',
      repos.monorepo ? family.then(() => verdictMonorepo(repos.monorepo)) : family,
    ),
  ];
}

/** A user's sweep of `task` in benchmarks/ (function declarations: called before this part of the module runs). */
function ROUTES_SWEEP(task, skip = false) {
  const sweep = `describeSweep('${task}', { levels: [5, 10, 15] })`;
  return skip
    ? `import { describeSweep } from 'ceilingbench/vitest';\nimport { describe } from 'vitest';\n\ndescribe.skip('${task}', () => ${sweep});\n`
    : `import { describeSweep } from 'ceilingbench/vitest';\n\n${sweep};\n`;
}
/** ceilingbench.config.ts without a gate: each run gives its own (CEILINGBENCH_GATES), until the .cjs route. */
function ROUTES_CONFIG() {
  return "import { defineConfig } from 'ceilingbench';\n\nexport default defineConfig({ gates: {} });\n";
}

/** The routes, one command at a time in the routes' repository; prints the seconds they took (the smoke leg's cost). */
/** A routes repository's commands and reports: its vitest, its last report (fresh since a time), a copy kept aside. */
function routesIn(dir) {
  const reportPath = join(dir, 'reports/ceilingbench.json');
  return {
    report: () => (existsSync(reportPath) ? readJson(reportPath) : undefined),
    fresh: (since) => existsSync(reportPath) && statSync(reportPath).mtimeMs >= since,
    keep: (name) => {
      const path = join(work, `routes-${name}.json`);
      if (existsSync(reportPath)) cpSync(reportPath, path);
      return path;
    },
    /** The environment of a run: the simulated subject, three trials a cell, the given gates. */
    env: (gates, extra = {}) => ({
      CEILINGBENCH_SUBJECT: 'sim:retention?p=0.95',
      CEILINGBENCH_TRIALS: '3',
      CEILINGBENCH_GATES: JSON.stringify(gates),
      ...extra,
    }),
    vrun: (args, e) => run(bin(dir, 'vitest'), args, { cwd: dir, env: e }),
  };
}

async function verdictRoutes(dir) {
  const t0 = Date.now();
  const { report, fresh, keep, env, vrun } = routesIn(dir);
  const USER = { benchmarks: { minRetention: 0.5 } };
  const D2_FAIL = { d2: { minRetention: 0.999 } };
  const noGates = { CEILINGBENCH_SUBJECT: 'sim:retention?p=0.95', CEILINGBENCH_TRIALS: '3' };

  // the passing control: the whole gated project, both sweeps, as the workflow runs it — a blob, then its merge
  // (a blob run leaves the report set and the gates to the merge); the blob is the merge route's too, below
  const blob = await vrun(
    ['run', '--project', 'benchmarks', '--reporter=blob', '--outputFile=.vitest-reports/blob-1.json'],
    env(USER),
  );
  const full = await vrun(['run', '--merge-reports=.vitest-reports'], env(USER));
  check(
    'routes: the gated user project run whole (d2 and d3 sweeps, minRetention 0.5; a blob and its merge) passes',
    blob.status === 0 &&
      full.status === 0 &&
      report()?.manifest?.requirements?.length === 2 &&
      report()?.manifest?.requirements?.every((r) => r.got === 'passed'),
    `${blob.out}\n${full.out}`,
  );
  const fullReport = keep('full');
  // where `compare` runs (our code alone, one leg): the same project run again, directly this time — two identical
  // runs by two routes, compared below
  let againReport = fullReport;
  if (all) {
    const again = await vrun(['run', '--project', 'benchmarks'], env(USER));
    check('routes: the gated user project run again, directly, passes', again.status === 0, again.out);
    againReport = keep('again');
  }
  // a filter, a file filter, describe.skip: each drops the d3 sweep the gate needs
  const named = await vrun(['run', '--project', 'benchmarks', '-t', '^d2'], env(USER));
  check(
    "routes: -t '^d2' drops the d3 sweep: not evaluated, exit non-zero",
    named.status !== 0 &&
      /gate benchmarks\.minRetention FAILED \(hard\): not evaluated — .*d3 retention fit.*skipped \(the test name filter -t \^d2\)/.test(
        named.out,
      ),
    named.out,
  );
  const filtered = keep('filtered');
  const file = await vrun(['run', '--project', 'benchmarks', 'registers'], env(USER));
  check(
    'routes: a file filter (vitest run --project benchmarks registers) leaves social.spec uncollected: exit non-zero',
    file.status !== 0 && /spec file benchmarks\/social\.spec\.ts was not collected/.test(file.out),
    file.out,
  );
  writeFileSync(join(dir, 'benchmarks/social.spec.ts'), ROUTES_SWEEP('d3', true));
  const skipped = await vrun(['run', '--project', 'benchmarks'], env(USER));
  writeFileSync(join(dir, 'benchmarks/social.spec.ts'), ROUTES_SWEEP('d3'));
  check(
    'routes: describe.skip around the d3 sweep: not evaluated, exit non-zero',
    skipped.status !== 0 && /d3 retention fit .*was skipped \(describe\.skip/.test(skipped.out),
    skipped.out,
  );
  // reporters on the command line add to ceilingbench's, never replace it (json, github-actions and tap-flat: the
  // one-family routes, verdictOneFamily, where the gate is not evaluated); a retry is refused and said (one run)
  const since = Date.now();
  const junitOut = join(dir, 'junit-out.xml');
  const reporters = await vrun(
    ['run', '--project', 'd2', '--reporter=dot', '--reporter=junit', `--outputFile.junit=${junitOut}`, '--retry=2'],
    env(D2_FAIL),
  );
  const summary = existsSync(join(dir, 'reports/summary.md'))
    ? readFileSync(join(dir, 'reports/summary.md'), 'utf8')
    : '';
  check(
    'routes: --reporter=dot --reporter=junit with a failing gate exits non-zero and writes the report set and the junit file',
    reporters.status !== 0 &&
      /gate d2\.minRetention FAILED \(hard\)/.test(reporters.out) &&
      fresh(since) &&
      report()?.gates?.some((g) => g.gate === 'minRetention' && g.passed === false) &&
      existsSync(junitOut),
    reporters.out,
  );
  check(
    'routes: --retry=2 is refused by the measuring tests, said on the console, in ceilingbench.json and summary.md',
    /retry 2 refused for the measuring tests/.test(reporters.out) &&
      report()?.scope?.retryRefused === 2 &&
      /^Scope: .*retry 2 refused by the measuring tests/m.test(summary),
    `${reporters.out}\n${summary.slice(0, 1500)}`,
  );
  const failedReport = keep('failed');
  // a merge of the blob measured on one subject under another: refused
  const otherSubject = await vrun(
    ['run', '--merge-reports=.vitest-reports'],
    env(USER, { CEILINGBENCH_SUBJECT: 'sim:retention?p=0.8' }),
  );
  check(
    'routes: a merge of a blob measured on another subject is refused: exit non-zero, naming both',
    otherSubject.status !== 0 &&
      /measured by subject 'sim:retention\?p=0\.95', not the configured 'sim:retention\?p=0\.8'/.test(otherSubject.out),
    otherSubject.out,
  );
  // … and of a blob gated on the point estimate under a configuration that gates on the CI's lower bound
  const lower = { benchmarks: { minRetention: { value: 0.5, mode: 'hard', evidence: 'lower' } } };
  const otherEvidence = await vrun(['run', '--merge-reports=.vitest-reports'], env(lower));
  check(
    "routes: a merge configured with evidence: 'lower' of a blob gated on the point estimate is refused: exit non-zero",
    otherEvidence.status !== 0 &&
      /evaluated on the point estimate, not the configured CI lower bound/.test(otherEvidence.out),
    otherEvidence.out,
  );
  // the two other verdicts a reporter on the command line used to switch off: notWorseThan (a candidate subject
  // against the baseline, decided when the report is built) and the shard-merge check (a merge lacking a shard)
  const worse = await vrun(
    ['run', '--project', 'd2*', '--reporter=dot'],
    env(
      { d2: { notWorseThan: 'sim:retention?p=0.95' } },
      { CEILINGBENCH_SUBJECT: '', CEILINGBENCH_SUBJECTS: 'sim:retention?p=0.95,sim:retention?p=0.6' },
    ),
  );
  check(
    'routes: --reporter=dot with a notWorseThan gate a worse candidate fails: exit non-zero, the gate named',
    worse.status !== 0 &&
      /gate d2\.notWorseThan FAILED \(hard\): sim:retention\?p=0\.6 is worse than sim:retention\?p=0\.95/.test(
        worse.out,
      ),
    worse.out,
  );
  const shard = await vrun(
    ['run', '--project', 'benchmarks', '--shard=1/2', '--reporter=blob', '--outputFile=.vitest-shards/blob-1.json'],
    env(USER),
  );
  const lacking = await vrun(['run', '--merge-reports=.vitest-shards', '--reporter=dot'], env({}));
  check(
    'routes: --merge-reports --reporter=dot of shard 1 of 2 alone (no gate configured) names the missing shard: exit non-zero',
    shard.status === 0 && lacking.status !== 0 && /merged 1 of 2 shards: shard 2\/2 missing/.test(lacking.out),
    `${shard.out}\n${lacking.out}`,
  );
  // nothing collected while hard gates exist: `vitest run --changed --passWithNoTests` after a change to the
  // configuration file only — a ceilingbench.config.cjs, so the same run shows that form is read (its gate is named)
  rmSync(join(dir, 'ceilingbench.config.ts'));
  const cjsConfig = (value) => `module.exports = { gates: { benchmarks: { minRetention: ${value} } } };\n`;
  writeFileSync(join(dir, 'ceilingbench.config.cjs'), cjsConfig(0.5));
  const git = (...args) => run('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args], { cwd: dir });
  await git('init', '-q');
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\nreports/\n.vitest-reports/\n');
  await git('add', '-A');
  const commit = await git('commit', '-qm', 'routes');
  writeFileSync(join(dir, 'ceilingbench.config.cjs'), cjsConfig(0.6));
  const changed = await vrun(['run', '--changed', '--passWithNoTests'], noGates);
  check(
    'routes: ceilingbench.config.cjs is read, and `vitest run --changed --passWithNoTests` after a change to it alone exits non-zero, naming its gate',
    commit.status === 0 &&
      changed.status !== 0 &&
      /gate benchmarks\.minRetention FAILED \(hard\): not evaluated — project 'benchmarks' did not run \(this run's filters: --changed\)/.test(
        changed.out,
      ),
    `${commit.out}\n${changed.out}`,
  );
  // `vitest related` of the configuration file alone: nothing collected with a hard gate configured — in a
  // ceilingbench.config.cts, so the same run shows that form is read (the gate it names is that file's only)
  rmSync(join(dir, 'ceilingbench.config.cjs'));
  writeFileSync(
    join(dir, 'ceilingbench.config.cts'),
    'export default { gates: { benchmarks: { minRetention: 0.5 } } };\n',
  );
  const related = await vrun(['related', 'ceilingbench.config.cts', '--run'], noGates);
  check(
    'routes: ceilingbench.config.cts alone is read, and `vitest related ceilingbench.config.cts --run` exits non-zero naming its unchecked gate',
    related.status !== 0 &&
      /gate benchmarks\.minRetention FAILED \(hard\): not evaluated — project 'benchmarks' did not run/.test(
        related.out,
      ),
    related.out,
  );
  // two configuration files at once (.ts and .mts, the issue's pair): an error naming both
  rmSync(join(dir, 'ceilingbench.config.cts'));
  writeFileSync(join(dir, 'ceilingbench.config.ts'), ROUTES_CONFIG());
  writeFileSync(join(dir, 'ceilingbench.config.mts'), 'export default { gates: { d2: { minRetention: 0.5 } } };\n');
  const two = await vrun(['run', '--project', 'd2'], noGates);
  check(
    'routes: two config files (.ts and .mts) are a configuration error naming both',
    two.status !== 0 && /ceilingbench\.config\.ts and ceilingbench\.config\.mts are both in/.test(two.out),
    two.out,
  );
  if (all) {
    // report of several files: a hard gate failed in the merged set fails it
    const merged = await run(bin(dir, 'ceilingbench'), [
      'report',
      failedReport,
      fullReport,
      '--out',
      join(work, 'routes-merged'),
    ]);
    check(
      'routes: ceilingbench report a.json b.json exits non-zero when a hard gate of the merged set failed',
      merged.status === 1 && /gate d2\.minRetention FAILED/.test(merged.out),
      merged.out,
    );
    // compare decides as the run did: two identical full runs (a merge's and a direct run's) pass; a run that left
    // the gate unchecked fails even against itself (every record compares equal)
    const same = await run(bin(dir, 'ceilingbench'), ['compare', fullReport, againReport]);
    const unchecked = await run(bin(dir, 'ceilingbench'), ['compare', filtered, filtered]);
    check(
      'routes: compare of two identical full runs exits 0; of a run whose gate went unchecked exits 1',
      same.status === 0 &&
        /PASS: every baseline record in scope was compared, and none regressed/.test(same.out) &&
        /the candidate's own gates: \d+, no hard gate failed or went unchecked/.test(same.out) &&
        unchecked.status === 1 &&
        /the candidate's own gates: 1 hard gate\(s\) failed or not evaluated/.test(unchecked.out),
      `${same.out}\n${unchecked.out}`,
    );
  }
  process.stdout.write(`  verdict routes (issue 41): ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
}

/**
 * A standard project filtered to one family, in a copy of the user's repository (a lane of its own): sudoku's collapse
 * gate passes, the other eight families' are not evaluated — by name (with --reporter=json and github-actions), by
 * file (with --reporter=tap-flat) and through `ceilingbench run`; each route writes the report set.
 */
async function verdictOneFamily(dir) {
  const t0 = Date.now();
  const { report, fresh, env, vrun } = routesIn(dir);
  const PUZZLES = { puzzles: { collapseNoEarlierThan: 1 } };
  const oneFamily = (r, since) =>
    r.status !== 0 &&
    /gate puzzles\.collapseNoEarlierThan FAILED \(hard\): not evaluated — .*hanoi collapse fit/.test(r.out) &&
    fresh(since) &&
    report()?.gates?.some((g) => g.gate === 'collapseNoEarlierThan' && g.task === 'sudoku' && g.passed === true);
  const jsonOut = join(dir, 'vitest-results.json');
  const byNameSince = Date.now();
  const byName = await vrun(
    [
      'run',
      '--project',
      'puzzles',
      '-t',
      'sudoku',
      '--reporter=json',
      `--outputFile.json=${jsonOut}`,
      '--reporter=github-actions',
    ],
    env(PUZZLES),
  );
  // Vitest's own reporters see every test pass (sudoku's): the verdict is ceilingbench's, added to theirs
  let jsonPassed = 0;
  try {
    jsonPassed = readJson(jsonOut).numPassedTests;
  } catch {}
  check(
    'routes: vitest run --project puzzles -t sudoku --reporter=json --reporter=github-actions: sudoku passes, the other families are not evaluated, exit non-zero; the report set and the json file written',
    oneFamily(byName, byNameSince) && jsonPassed > 0,
    byName.out,
  );
  const byFileSince = Date.now();
  const byFile = await vrun(['run', 'sudoku', '--reporter=tap-flat'], env(PUZZLES));
  check(
    'routes: vitest run sudoku --reporter=tap-flat: the same, exit non-zero, the report set written and the TAP printed',
    oneFamily(byFile, byFileSince) &&
      /^TAP version 13$/m.test(byFile.out) &&
      /^ok \d+ - .*sudoku · L1/m.test(byFile.out),
    byFile.out,
  );
  // … and the report set built once: summary.md appended to GitHub's step summary once (Vitest 5 built it twice)
  const cliSince = Date.now();
  const stepSummary = join(dir, 'step-summary.md');
  const cli = await run(bin(dir, 'ceilingbench'), ['run', '--project', 'puzzles', '-t', 'sudoku', '--trials', '2'], {
    cwd: dir,
    env: { ...env(PUZZLES), GITHUB_STEP_SUMMARY: stepSummary },
  });
  const appended = existsSync(stepSummary)
    ? (readFileSync(stepSummary, 'utf8').match(/^# ceilingbench results$/gm) ?? []).length
    : 0;
  check(
    `routes: ceilingbench run --project puzzles -t sudoku: the same, exit non-zero; summary.md appended to $GITHUB_STEP_SUMMARY once (${appended})`,
    oneFamily(cli, cliSince) && appended === 1,
    cli.out,
  );
  process.stdout.write(`  verdict routes, one family (issue 41): ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
}

/**
 * docs/monorepo.md's workspace, run from its root with `vitest run`: without the root's registration the package's
 * gate (above the truth) still fails the run; with it, d2 runs once (one run's trials, one fit), gated, its one
 * report set in the package (none at the root), the package's spec folder once.
 */
async function verdictMonorepo(root) {
  const t0 = Date.now();
  const vitest = bin(root, 'vitest');
  const reports = join(root, 'packages/bench/reports');
  const rootConfig = (registered) =>
    writeFileSync(
      join(root, 'vitest.config.ts'),
      registered
        ? "import { ceilingbenchWorkspace } from 'ceilingbench/plugin';\nimport { defineConfig } from 'vitest/config';\n\n" +
            "export default defineConfig({ plugins: [ceilingbenchWorkspace('packages/bench')], test: { projects: ['packages/*'] } });\n"
        : "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { projects: ['packages/*'] } });\n",
    );
  const GATE_FAILED = /gate d2\.minRetention FAILED \(hard\): d2 p_d = 0\.\d{3}/;
  const TRIALS = 3;
  const vrun = () =>
    run(vitest, ['run'], {
      cwd: root,
      env: { CEILINGBENCH_SUBJECT: 'sim:retention?p=0.95', CEILINGBENCH_TRIALS: String(TRIALS) },
    });
  const readReport = () =>
    existsSync(join(reports, 'ceilingbench.json')) ? readJson(join(reports, 'ceilingbench.json')) : undefined;

  rootConfig(false);
  const plain = await vrun();
  check(
    'routes (workspace): `vitest run` from the root without the registration applies the package’s failing gate: exit non-zero',
    plain.status !== 0 && GATE_FAILED.test(plain.out) && readReport()?.summary?.hardGatesFailed === 1,
    plain.out,
  );
  rootConfig(true);
  rmSync(reports, { recursive: true, force: true });
  const registered = await vrun();
  const r = readReport();
  const trials = (r?.cells ?? []).map((c) => c.trials?.length ?? 0);
  const junit = existsSync(join(reports, 'junit.xml')) ? readFileSync(join(reports, 'junit.xml'), 'utf8') : '';
  const smoke = junit.match(/<testcase [^>]*name="smoke"/g)?.length ?? 0;
  check(
    `routes (workspace): with the registration, \`vitest run\` from the root runs d2 once (10 cells × ${TRIALS} trials, one fit), gated (exit non-zero), one report set in the package, none at the root, its spec once`,
    registered.status !== 0 &&
      GATE_FAILED.test(registered.out) &&
      r !== undefined &&
      trials.length === 10 &&
      trials.every((n) => n === TRIALS) &&
      r.fits.map((f) => f.project).join() === 'd2' &&
      r.gates.filter((g) => !g.passed).length === 1 &&
      !existsSync(join(root, 'reports')) &&
      (registered.out.match(/ceilingbench: reports written to /g) ?? []).length === 1 &&
      smoke === 1,
    `${registered.out}\n${JSON.stringify({ trials, fits: r?.fits?.map((f) => f.project), smoke, rootReports: existsSync(join(root, 'reports')) })}`,
  );
  process.stdout.write(`  verdict routes, workspace (issue 41): ${((Date.now() - t0) / 1000).toFixed(1)}s\n`);
}
