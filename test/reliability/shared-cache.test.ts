import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheEntrySchema } from '../../src/subjects/cache/entry.js';
import { ResponseCache } from '../../src/subjects/cache/store.js';
import { filesUnder, tempDir } from '../support/openai-harness.js';
import { entryFor, keyOf } from './support/cache-hammer.js';

/**
 * Scenario 6 (RELIABILITY.md): two processes writing the same keys of one cache directory at once never
 * corrupt it: no reader sees a torn entry, and afterwards every file parses, validates, carries its own
 * key and holds one writer's whole entry; no temp file is left behind.
 */

const CHILD = fileURLToPath(new URL('./support/cache-hammer.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const KEYS = 24;
const ROUNDS = 15;

interface Summary {
  writer: string;
  puts: number;
  hits: number;
  misses: number;
  wrong: number;
  problems: string[];
}

function hammer(dir: string, writer: string, naive = false): Promise<Summary> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, writer, String(KEYS), String(ROUNDS)], {
      cwd: REPO,
      env: { ...process.env, HAMMER_NAIVE: naive ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`cache writer ${writer} exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout.trim()) as Summary);
    });
  });
}

const work = await tempDir('cb-shared-cache-');
afterAll(() => work.remove());

describe('shared cache directory', () => {
  it('two processes hammering the same keys leave only whole, valid entries', async () => {
    const dir = join(work.path, 'cache');
    const [a, b] = await Promise.all([hammer(dir, 'A'), hammer(dir, 'B')]);
    for (const summary of [a, b]) {
      expect(summary.puts).toBe(KEYS * ROUNDS);
      expect(summary.wrong, `${summary.writer} read a torn or foreign entry`).toBe(0);
      expect(summary.problems, `${summary.writer} saw cache problems`).toEqual([]);
      expect(summary.hits).toBeGreaterThan(0);
    }

    const files = await filesUnder(dir);
    expect(files.filter((f) => !f.endsWith('.json'))).toEqual([]); // no temp file left behind
    expect(files).toHaveLength(KEYS);
    const writers = { A: 0, B: 0 };
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      expect(text.endsWith('\n') && text.indexOf('\n') === text.length - 1, file).toBe(true);
      const entry = cacheEntrySchema.parse(JSON.parse(text));
      expect(file.endsWith(`${entry.key}.json`)).toBe(true);
      const k = Number(entry.meta.seed);
      expect(entry.key).toBe(keyOf(k));
      const winner = entry.response.text === entryFor(k, 'A').response.text ? 'A' : 'B';
      expect(entry).toEqual(entryFor(k, winner));
      writers[winner]++;
    }
    // the ResponseCache reads every entry back as a hit
    const cache = new ResponseCache(dir, 'read-only', (message) => {
      throw new Error(message);
    });
    for (let k = 0; k < KEYS; k++) expect(await cache.get(keyOf(k))).toBeDefined();
    expect(writers.A + writers.B).toBe(KEYS);
    expect((await readdir(dir)).length).toBeGreaterThan(1); // sharded by key prefix
  });

  it('control: the same hammering with in-place (non-atomic) writes is caught as torn entries', async () => {
    const dir = join(work.path, 'naive');
    const [a, b] = await Promise.all([hammer(dir, 'A', true), hammer(dir, 'B', true)]);
    const torn = a.problems.length + b.problems.length + a.wrong + b.wrong;
    expect(torn, 'in-place writes of 64–192 KB entries by two processes should tear').toBeGreaterThan(0);
  });
});
