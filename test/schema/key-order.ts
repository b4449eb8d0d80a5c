import { z } from 'zod';

/**
 * The key order of every object inside a schema, by path (`cells[].kStar`, `trials[].outcome|ccb`): zod's
 * `parse` emits an object's keys in its schema's order, so this order is the byte order of ceilingbench.json,
 * of baselines and of cache entries.
 */
export function keyOrder(schema: z.ZodType, path = '$', out: Record<string, string[]> = {}): Record<string, string[]> {
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    out[path] = Object.keys(shape);
    for (const [key, value] of Object.entries(shape)) keyOrder(value, `${path}.${key}`, out);
  } else if (
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable ||
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodReadonly
  ) {
    keyOrder(schema.unwrap() as z.ZodType, path, out);
  } else if (schema instanceof z.ZodArray) {
    keyOrder(schema.element as z.ZodType, `${path}[]`, out);
  } else if (schema instanceof z.ZodTuple) {
    (schema.def.items as z.ZodType[]).forEach((item, i) => {
      keyOrder(item, `${path}[${i}]`, out);
    });
  } else if (schema instanceof z.ZodRecord) {
    keyOrder(schema.valueType as z.ZodType, `${path}{}`, out);
  } else if (schema instanceof z.ZodUnion) {
    // a discriminated union names its members by its key (`assay`); another union by the first literal field
    const key = schema instanceof z.ZodDiscriminatedUnion ? (schema.def.discriminator as string) : undefined;
    (schema.options as z.ZodType[]).forEach((option, i) => {
      const tag = option instanceof z.ZodObject ? literalTag(option, key) : undefined;
      keyOrder(option, `${path}|${tag ?? i}`, out);
    });
  } else if (schema instanceof z.ZodPipe) {
    keyOrder(schema.out as z.ZodType, path, out);
  }
  return out;
}

/** The value of an option's key, or of its first literal field (`kind`, `family`), to name union members. */
function literalTag(option: z.ZodObject, key?: string): string | undefined {
  const keyed = key === undefined ? undefined : (option.shape as Record<string, z.ZodType>)[key];
  if (keyed instanceof z.ZodLiteral) return String(keyed.value);
  for (const value of Object.values(option.shape as Record<string, z.ZodType>))
    if (value instanceof z.ZodLiteral) return String(value.value);
  return undefined;
}
