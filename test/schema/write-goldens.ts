/**
 * Regenerates test/schema/golden/ from the schemas — only when a record's keys change on purpose:
 *   npx tsx test/schema/write-goldens.ts
 * test/schema/golden.test.ts checks that the committed files equal what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { goldenFiles } from './goldens.js';

const root = fileURLToPath(new URL('./golden/', import.meta.url));
mkdirSync(root, { recursive: true });
for (const [name, text] of Object.entries(goldenFiles())) {
  writeFileSync(`${root}${name}`, text);
  process.stdout.write(`wrote ${root}${name} (${text.length} bytes)\n`);
}
