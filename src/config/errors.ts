import type { z } from 'zod';
import { ConfigError } from '../errors.js';

export { ConfigError };

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
    case 'invalid_union': {
      // e.g. a gate: a bare number or {value, mode, evidence}. When the value has the type of one option,
      // its nested problem is the fix ("mode: use one of …"); otherwise name the accepted types.
      const closest = issue.errors.find(
        (option) => option[0] && !(option[0].code === 'invalid_type' && option[0].path.length === 0),
      );
      if (closest) return `${closest[0].path.length > 0 ? `${closest[0].path.join('.')}: ` : ''}${fixFor(closest[0])}`;
      const expected = new Set(
        issue.errors.flatMap((option) => (option[0]?.code === 'invalid_type' ? [option[0].expected] : [])),
      );
      if (expected.size > 0)
        return `give ${[...expected].map((type) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`).join(' or ')}`;
      return 'see the README section "Configuration"';
    }
    case 'custom': {
      // a refinement that knows the fix carries it (src/config/gate-ranges.ts)
      const fix = (issue.params as { fix?: unknown } | undefined)?.fix;
      return typeof fix === 'string' ? fix : 'see the README section "Configuration"';
    }
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
