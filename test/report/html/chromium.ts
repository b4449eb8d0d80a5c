import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const run = promisify(execFile);

/** Headless Chromium with everything that could reach the network or a profile turned off. */
export async function chromium(args: string[], profile: string): Promise<string> {
  const { stdout } = await run(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      ...args,
    ],
    { timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export const hasChromium = (ctx: { skip: (note: string) => void }): boolean => {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${CHROMIUM} not found: the CI image must apt-get install chromium`);
  ctx.skip(`${CHROMIUM} not installed (apt-get install chromium); browser test skipped`);
  return false;
};
