import { z } from 'zod';

/** A record id in a query: a positive 32-bit integer. */
export const idParam = (label: string) => z.coerce.number().int().min(1).max(2_147_483_647).meta({ label });

/** An optional text parameter: blank counts as absent. */
export const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined)
    .meta({ label });

/** An optional id parameter: blank counts as absent. */
export const optionalId = (label: string) =>
  z.preprocess((value) => (value === '' ? undefined : value), idParam(label).optional()).meta({ label });
