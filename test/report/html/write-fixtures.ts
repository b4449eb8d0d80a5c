/**
 * Regenerates fixtures/report/ (a sample ceilingbench.json and two baselines) from sample.ts:
 *   npx tsx test/report/html/write-fixtures.ts
 * test/report/html/fixtures.test.ts checks that the committed files equal what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fixtureFiles } from './fixture-files.js';

const root = fileURLToPath(new URL('../../../fixtures/report/', import.meta.url));
for (const [name, text] of Object.entries(fixtureFiles())) {
  const path = `${root}${name}`;
  mkdirSync(path.slice(0, path.lastIndexOf('/')), { recursive: true });
  writeFileSync(path, text);
  process.stdout.write(`wrote ${path} (${text.length} bytes)\n`);
}
