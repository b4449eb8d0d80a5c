import type { z } from 'zod';

/** A configuration error: one line per problem, naming the field, what is wrong and the fix. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function fixFor(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `give a ${issue.expected}`;
    case 'unrecognized_keys':
      return `remove ${issue.keys.map((k) => `'${k}'`).join(', ')} (check the spelling against the documented keys)`;
    case 'too_small':
      return `use a value ${issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}`;
    case 'too_big':
      return `use a value ${issue.inclusive ? '≤' : '<'} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `use one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return 'see the README section "Configuration"';
  }
}

/** Formats a zod error from `source` (a file or an environment variable) as one line per issue. */
export function formatZodError(source: string, error: z.ZodError): ConfigError {
  const lines = error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
    return `${source}: ${path}: ${issue.message} — ${fixFor(issue)}`;
  });
  return new ConfigError(lines.join('\n'));
}
