import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixtureFiles } from './fixture-files';
import { FIXTURE_DIR } from './support';

describe('fixtures/report', () => {
  it('equals what sample.ts generates (regenerate: npx tsx test/report/html/write-fixtures.ts)', () => {
    for (const [name, text] of Object.entries(fixtureFiles())) {
      expect(readFileSync(new URL(name, FIXTURE_DIR), 'utf8'), name).toBe(text);
    }
  });
});
