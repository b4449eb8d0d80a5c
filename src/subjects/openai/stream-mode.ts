// Apart from request.ts so that reading the options (env-options.ts) does not load the OpenAI SDK: a run on a
// simulated subject never does.

/** When to ask for an event stream: never (default), always, or auto = when the output budget is above STREAM_AUTO_ABOVE. */
export const STREAM_MODES = ['never', 'always', 'auto'] as const;
export type StreamMode = (typeof STREAM_MODES)[number];

/**
 * `auto` streams requests whose output budget is above this many tokens: a long generation is where an idle,
 * non-streaming connection is most likely to be cut by a proxy or gateway before the answer comes.
 */
export const STREAM_AUTO_ABOVE = 8192;

export const shouldStream = (mode: StreamMode | undefined, budget: number): boolean =>
  mode === 'always' || (mode === 'auto' && budget > STREAM_AUTO_ABOVE);
