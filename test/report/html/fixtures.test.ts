import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../../src/schema/report.js';
import { fixtureFiles } from './fixture-files.js';
import { FIXTURE_DIR, fixtureBaselines } from './support.js';

describe('fixtures/report', () => {
  it('equals what sample.ts generates (regenerate: npx tsx test/report/html/write-fixtures.ts)', () => {
    for (const [name, text] of Object.entries(fixtureFiles())) {
      expect(readFileSync(new URL(name, FIXTURE_DIR), 'utf8'), name).toBe(text);
    }
  });

  it('validates against the report and baseline schemas', () => {
    const raw = JSON.parse(readFileSync(new URL('ceilingbench.json', FIXTURE_DIR), 'utf8'));
    expect(reportSchema.safeParse(raw).error).toBeUndefined();
    expect(fixtureBaselines()).toHaveLength(2);
  });
});
