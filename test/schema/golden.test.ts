import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goldenFiles } from './goldens.js';

describe('record key order (the byte order of ceilingbench.json, its JSON Schema and baselines)', () => {
  for (const [name, text] of Object.entries(goldenFiles())) {
    it(`${name} equals test/schema/golden/${name} (regenerate on purpose only: npx tsx test/schema/write-goldens.ts)`, () => {
      const golden = readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');
      expect(JSON.parse(text)).toEqual(JSON.parse(golden));
      expect(text).toBe(golden);
    });
  }
});
