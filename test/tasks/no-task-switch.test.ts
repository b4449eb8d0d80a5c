import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { availableTasks } from '../../src/tasks/registry.js';

/**
 * A plugin declares what the harness branches on (README "Adding a task family"): no code outside src/tasks compares
 * a value with a registered task's id. The ids come from the registry, so a new family is covered without an edit.
 * Outcome families (`family`, src/tasks/outcome.ts) are their own closed list and may be compared with.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(SRC, 'tasks') ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });

/** Comments out, so a doc line that names a task is not read as code. */
const withoutComments = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place `text` compares something with one of `ids`: `===`/`!==`/`==`/`!=` either side, `case`, `.includes`. */
function taskSwitches(text: string, ids: readonly string[]): { line: number; code: string }[] {
  const id = `(?:${ids.map(escapeRegExp).join('|')})`;
  const literal = `['"\`]${id}['"\`]`;
  const patterns = [
    new RegExp(`([\\w.\\]\\)?]+)\\s*[!=]==?\\s*${literal}`, 'g'),
    new RegExp(`${literal}\\s*[!=]==?\\s*([\\w.]+)`, 'g'),
    new RegExp(`\\bcase\\s+${literal}\\s*:`, 'g'),
    new RegExp(`\\[[^\\]]*${literal}[^\\]]*\\]\\s*\\.\\s*(?:includes|indexOf)\\(`, 'g'),
  ];
  const code = withoutComments(text);
  const lines = code.split('\n');
  const found: { line: number; code: string }[] = [];
  for (const [index, source] of lines.entries()) {
    for (const pattern of patterns) {
      for (const match of source.matchAll(pattern)) {
        // the other operand of a comparison: an outcome family is not a task id
        const operands = match.slice(1).filter((part) => part !== undefined);
        if (operands.some((operand) => /(^|\.)family$/.test(operand))) continue;
        found.push({ line: index + 1, code: source.trim() });
      }
    }
  }
  return found;
}

describe('no task id is switched on outside src/tasks', () => {
  const ids = availableTasks().map((plugin) => plugin.id);

  it('finds the comparisons it looks for (the scan can fail)', () => {
    const [first, second] = ids;
    const bad = [
      `if (task === '${first}') x();`,
      `const y = "${second}" !== options.task;`,
      `switch (id) { case '${first}': break; }`,
      `if (['${first}', '${second}'].includes(task)) z();`,
    ];
    for (const line of bad) expect(taskSwitches(line, ids), line).toHaveLength(1);
    const fine = [
      `if (outcome.family !== '${first}') throw new Error();`,
      `// task === '${first}' in a comment`,
      `const label = '${first}';`,
      `if (a.task === b.task) y();`,
    ];
    for (const line of fine) expect(taskSwitches(line, ids), line).toEqual([]);
  });

  it('finds none in src outside src/tasks, for every registered id', () => {
    expect(ids.length).toBeGreaterThan(0);
    const files = [SRC, join(ROOT, 'reporters')].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      taskSwitches(readFileSync(file, 'utf8'), ids).map((hit) => `${relative(ROOT, file)}:${hit.line}: ${hit.code}`),
    );
    expect(found).toEqual([]);
  });
});
