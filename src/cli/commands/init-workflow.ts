/**
 * The example workflow, moved to a package below the repository's root (a workspace package, or a folder of a larger
 * repository). GitHub reads `.github/workflows/` at the root and starts every step there; so the moved workflow
 * runs its commands in the package (`defaults.run.working-directory`), installs where the lock file is, and names
 * the files it caches, uploads and downloads from the root. Its pull-request filter already works on paths from
 * the root (`git diff --name-only` prints them so), and skips only documentation.
 *
 * The template is the example repository's file, which CI runs as it is; each edit below is found by an exact
 * line of it, and a line that is not there is an error (a test runs this on the shipped template), never a
 * workflow that silently runs in the wrong folder.
 */

export interface WorkflowPlace {
  /** The package, relative to the repository's root, `/`-separated ('' = the root). */
  bench: string;
  /** Where `npm ci` runs (the workspace root, or the package), relative to the repository's root. */
  install: string;
}

export class WorkflowTemplateError extends Error {}

interface Edit {
  /** An exact line of the template (without its indentation), or a test on it. */
  line: RegExp;
  /** How often the template has it: a count that changed means the template changed under this code. */
  count: number;
  rewrite: (indent: string, text: string, place: WorkflowPlace) => string[];
}

const under = (dir: string, path: string) => (dir === '' ? path : `${dir}/${path}`);

const EDITS: readonly Edit[] = [
  {
    // every `run:` step starts in the package
    line: /^shell: bash$/,
    count: 1,
    rewrite: (indent, text, place) => [indent + text, `${indent}working-directory: ${place.bench}`],
  },
  {
    // the lock file is where npm ci runs
    line: /^cache: npm$/,
    count: 3,
    rewrite: (indent, text, place) =>
      place.install === ''
        ? [indent + text]
        : [indent + text, `${indent}cache-dependency-path: ${under(place.install, 'package-lock.json')}`],
  },
  {
    // what actions read and write is named from the repository's root
    line: /^path: (\.ceilingbench\/cache|\.vitest-reports\/\*|\.vitest-reports|reports\/ceilingbench\.json|baseline)$/,
    count: 5,
    rewrite: (indent, text, place) => [`${indent}path: ${under(place.bench, text.slice('path: '.length))}`],
  },
  {
    line: /^reports\/(junit\.xml|index\.html|ceilingbench\.json|summary\.md)$/,
    count: 4,
    rewrite: (indent, text, place) => [indent + under(place.bench, text)],
  },
];

const NPM_CI = /^(\s*)(- )?run: npm ci$/;
const HASH_FILES = "hashFiles('reports/ceilingbench.json')";

/** The template for a package at `place`; the template itself when the package is the repository's root. */
export function placeWorkflow(template: string, place: WorkflowPlace): string {
  if (place.bench === '') return template;
  const counts = new Map<Edit, number>();
  let npmCi = 0;
  const out: string[] = [];
  for (const line of template.split('\n')) {
    const ci = NPM_CI.exec(line);
    if (ci) {
      npmCi += 1;
      out.push(line);
      // a step's keys line up after its `- `
      const indent = `${ci[1] ?? ''}${ci[2] === undefined ? '' : '  '}`;
      out.push(`${indent}working-directory: ${place.install === '' ? '.' : place.install}`);
      continue;
    }
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    const text = line.slice(indent.length);
    const edit = EDITS.find((e) => e.line.test(text));
    if (edit === undefined) {
      out.push(line);
      continue;
    }
    counts.set(edit, (counts.get(edit) ?? 0) + 1);
    out.push(...edit.rewrite(indent, text, place));
  }
  const hashes = template.split(HASH_FILES).length - 1;
  const wrong = EDITS.filter((e) => counts.get(e) !== e.count).map((e) => String(e.line));
  if (npmCi !== 3) wrong.push(`run: npm ci (${npmCi} of 3)`);
  if (hashes !== 1) wrong.push(HASH_FILES);
  if (wrong.length > 0) {
    throw new WorkflowTemplateError(
      `the workflow template no longer has the lines init moves to a package: ${wrong.join(', ')}`,
    );
  }
  return out.join('\n').replace(HASH_FILES, `hashFiles('${under(place.bench, 'reports/ceilingbench.json')}')`);
}
