import { sampleBaselines, sampleReport } from './sample.js';

/** The files of fixtures/report/, by path relative to it, exactly as write-fixtures.ts writes them. */
export function fixtureFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'ceilingbench.json': `${JSON.stringify(sampleReport(), null, 2)}\n`,
  };
  for (const baseline of sampleBaselines())
    files[`baselines/${baseline.name}.json`] = `${JSON.stringify(baseline, null, 2)}\n`;
  return files;
}
