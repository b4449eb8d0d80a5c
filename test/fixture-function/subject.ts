import { defineSubject } from 'ceilingbench';

/**
 * A consumer's own pipeline as a subject: a plain `fetch` client (no OpenAI SDK) of the test's loopback server
 * (LOOP_BASE_URL), with its own system prompt prepended. It reports the server's usage and passes the trial key
 * on, so the test can count requests per trial.
 */
export default defineSubject({
  id: 'loop-pipeline',
  version: '1',
  async answer({ messages, maxOutputTokens, signal, trial }) {
    const response = await fetch(`${process.env.LOOP_BASE_URL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-ceilingbench-trial': trial.key },
      body: JSON.stringify({
        model: 'loop-model',
        messages: [{ role: 'system', content: 'You are our pipeline.' }, ...messages],
        max_tokens: maxOutputTokens,
      }),
      signal,
    });
    if (!response.ok) throw Object.assign(new Error(await response.text()), { status: response.status });
    const body = (await response.json()) as {
      choices: { message: { content: string }; finish_reason: 'stop' | 'length' }[];
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    return {
      text: body.choices[0].message.content,
      finishReason: body.choices[0].finish_reason,
      usage: { promptTokens: body.usage.prompt_tokens, completionTokens: body.usage.completion_tokens },
    };
  },
});
