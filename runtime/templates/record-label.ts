/**
 * How a record is named from its entity's `display` pattern (`{prenom} {nom}` → `Jean Dupont`; docs/entities.md
 * "How a record is named"): each `{field}` replaced by the field's value (a missing or null value is empty text),
 * the rest kept as written, spaces at both ends dropped. Null when nothing is left, so that the caller names the
 * record by its key instead. The CRUD pages (`runtime/crud/resource.ts`) and the templates' `record_label` filter
 * (the public pages) share it, as the label's SQL does for the selects.
 */
export function labelFromPattern(pattern: string, row: unknown): string | null {
  const values = (row ?? {}) as Record<string, unknown>;
  const text = pattern.replace(/\{([a-z][a-z0-9_]*)\}/g, (_, field: string) => {
    const value = values[field];
    return value === null || value === undefined ? '' : String(value);
  });
  const trimmed = text.replace(/^ +| +$/g, '');
  return trimmed === '' ? null : trimmed;
}
