/**
 * Child process of the kill-and-resume test: answers RESUME_TRIALS fake-steps trials one by one through
 * `openai:loop-model` (createSubject, so the env path is the real one) with the disk cache, printing one
 * JSON line per answered trial — after the answer (and its cache entry) is complete.
 * Env: OPENAI_BASE_URL, OPENAI_API_KEY, CEILINGBENCH_CACHE_DIR, RESUME_TRIALS.
 */
import { createSubject } from '../../src/subjects/index.js';
import { fakeResolve } from './fake-tasks.js';
import { FAST_RETRY, stepsRequest } from './openai-harness.js';

const trials = Number(process.env.RESUME_TRIALS ?? '0');
const subject = await createSubject('openai:loop-model', {
  resolveTask: fakeResolve,
  openai: { retry: FAST_RETRY, limiter: { concurrency: 1 } },
  report: (message) => process.stderr.write(`${message}\n`),
});
for (let i = 0; i < trials; i++) {
  // four instances × replicates: identical prompts that must stay distinct trials
  const response = await subject.answer(stepsRequest(5, 1000 + (i % 4), Math.floor(i / 4)));
  const line =
    response.kind === 'answer'
      ? {
          i,
          kind: response.kind,
          key: response.cacheKey,
          text: response.text,
          finishReason: response.finishReason,
          usage: response.usage,
          cacheHit: response.cacheHit,
        }
      : { i, kind: response.kind, error: response.kind === 'error' ? response.error : response.reason };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
