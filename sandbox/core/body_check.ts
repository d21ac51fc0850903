/**
 * A strict checker for request bodies and query values: every field must be declared, with the JS
 * type the SDK's request type gives it (types/index.d.ts). It names the first problem by its
 * path, so the answer says which field is wrong.
 *
 * @module
 */

/** The declared type of a field. */
export type FieldSpec =
  | "string"
  | "boolean"
  | "integer"
  | "number"
  | { enum: readonly string[] }
  | { array: FieldSpec }
  | { object: Record<string, FieldSpec>; required?: readonly string[] };

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * The first way `value` breaks `spec`, or undefined when it fits.
 *
 * @param value the untrusted value
 * @param spec its declared type
 * @param path the name of the value in the message
 */
export function fieldProblem(value: unknown, spec: FieldSpec, path: string): string | undefined {
  if (spec === "string") {
    return typeof value === "string" ? undefined : `${path} must be a string, not ${kindOf(value)}`;
  }
  if (spec === "boolean") {
    return typeof value === "boolean"
      ? undefined
      : `${path} must be a boolean, not ${kindOf(value)}`;
  }
  if (spec === "integer" || spec === "number") {
    const ok = typeof value === "number" && Number.isFinite(value) &&
      (spec === "number" || Number.isInteger(value));
    return ok ? undefined : `${path} must be ${spec === "integer" ? "an integer" : "a number"}`;
  }
  if ("enum" in spec) {
    return typeof value === "string" && spec.enum.includes(value)
      ? undefined
      : `${path} must be one of ${spec.enum.join(", ")}, not ${JSON.stringify(value)}`;
  }
  if ("array" in spec) {
    if (!Array.isArray(value)) return `${path} must be a list, not ${kindOf(value)}`;
    for (let i = 0; i < value.length; i++) {
      const problem = fieldProblem(value[i], spec.array, `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `${path} must be an object, not ${kindOf(value)}`;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(key in spec.object)) return `${path ? `${path}.` : ""}${key} is not a known field`;
  }
  for (const key of spec.required ?? []) {
    if (record[key] === undefined) return `${path ? `${path}.` : ""}${key} is required`;
  }
  for (const [key, field] of Object.entries(spec.object)) {
    if (record[key] === undefined) continue;
    const problem = fieldProblem(record[key], field, path ? `${path}.${key}` : key);
    if (problem) return problem;
  }
  return undefined;
}
