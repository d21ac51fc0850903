/**
 * Values that fit a catalogue method's schema, made from the schema alone: every required
 * parameter and field (nested ones too), enums at their first value; and the generated
 * catalogue itself. For tests over every method of the catalogue.
 *
 * @module
 */

import { Catalogue, fileCatalogueSource } from "../../src/catalogue/catalogue.ts";
import type { CatalogueField, CatalogueMethod } from "../../src/catalogue/format.ts";
import { createTestContext } from "./test_context.ts";
import type { JsonObject } from "../../src/json/fields.ts";
import type { MethodInput } from "../../src/catalogue/method_request.ts";

/**
 * A value of a field: text named after the field, 1, true, the first allowed value, the
 * required fields of an object, a one-item list.
 *
 * @param field the field
 */
export function sampleValue(field: CatalogueField): unknown {
  switch (field.type) {
    case "string":
      return `${field.name || "item"}-1`;
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "enum":
      return field.values?.[0] ?? "";
    case "object":
      return requiredOf(field.fields ?? []);
    case "array":
      return field.items ? [sampleValue(field.items)] : [];
    case "json":
      return {};
  }
}

/** The required fields of a list, with values. */
function requiredOf(fields: readonly CatalogueField[]): JsonObject {
  return Object.fromEntries(fields.filter((f) => f.required).map((f) => [f.name, sampleValue(f)]));
}

/**
 * The input of a method with every required value.
 *
 * @param method the method
 */
export function sampleInput(method: CatalogueMethod): MethodInput {
  const input: MethodInput = {
    path: Object.fromEntries(method.pathParams.map((f) => [f.name, `${f.name}-1`])),
    query: requiredOf(method.query),
  };
  if (method.body?.some((f) => f.required)) input.body = requiredOf(method.body);
  return input;
}

/** The catalogue the test task generated, read from `gen/catalogue/` of this checkout. */
export function generatedCatalogue(): Catalogue {
  return new Catalogue(fileCatalogueSource(createTestContext()));
}
