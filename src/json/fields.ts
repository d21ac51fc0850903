/**
 * Typed readers of JSON from the network: each checks the value it reads and answers `undefined`
 * (or an empty list) when the service sent something else, so code reading an answer never
 * asserts a type it has not checked.
 *
 * @module
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/**
 * Whether a value is a JSON object (not `null`, not an array).
 *
 * @param value any value
 */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The value when it is an object, else an empty one.
 *
 * @param value any value
 * @example
 * ```ts
 * objectOf(null); // {}
 * ```
 */
export function objectOf(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

/**
 * A field of an object when it is a string.
 *
 * @param value an object (anything else has no fields)
 * @param key the field
 */
export function stringField(value: unknown, key: string): string | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === "string" ? field : undefined;
}

/**
 * A field of an object when it is a finite number.
 *
 * @param value an object (anything else has no fields)
 * @param key the field
 */
export function numberField(value: unknown, key: string): number | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === "number" && Number.isFinite(field) ? field : undefined;
}

/**
 * A field of an object when it is a boolean.
 *
 * @param value an object (anything else has no fields)
 * @param key the field
 */
export function booleanField(value: unknown, key: string): boolean | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === "boolean" ? field : undefined;
}

/**
 * A field of an object when it is an object.
 *
 * @param value an object (anything else has no fields)
 * @param key the field
 */
export function objectField(value: unknown, key: string): JsonObject | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return isObject(field) ? field : undefined;
}

/**
 * The objects of an array field; anything else in it is skipped, and a missing or non-array
 * field gives none.
 *
 * @param value an object (anything else has no fields)
 * @param key the field
 */
export function objectsField(value: unknown, key: string): JsonObject[] {
  const field = isObject(value) ? value[key] : undefined;
  return Array.isArray(field) ? field.filter(isObject) : [];
}

/**
 * The strings of an array field; anything else in it is skipped.
 *
 * @param value an object (anything else has no fields)
 * @param key the field
 */
export function stringsField(value: unknown, key: string): string[] {
  const field = isObject(value) ? value[key] : undefined;
  return Array.isArray(field) ? field.filter((x): x is string => typeof x === "string") : [];
}
