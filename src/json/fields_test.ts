import assert from "node:assert/strict";
import {
  booleanField,
  isObject,
  numberField,
  objectField,
  objectOf,
  objectsField,
  stringField,
  stringsField,
} from "./fields.ts";

Deno.test("isObject() accepts objects only, not null or arrays", () => {
  assert.equal(isObject({}), true);
  assert.equal(isObject(null), false);
  assert.equal(isObject([]), false);
  assert.equal(isObject("x"), false);
  assert.deepEqual(objectOf([1]), {});
});

Deno.test("field readers answer undefined for a field of another type", () => {
  const answer = { s: "x", n: 1, b: true, o: { a: 1 }, bad: Infinity };
  assert.equal(stringField(answer, "s"), "x");
  assert.equal(stringField(answer, "n"), undefined);
  assert.equal(numberField(answer, "n"), 1);
  assert.equal(numberField(answer, "bad"), undefined);
  assert.equal(booleanField(answer, "b"), true);
  assert.equal(booleanField(answer, "s"), undefined);
  assert.deepEqual(objectField(answer, "o"), { a: 1 });
  assert.equal(objectField(answer, "s"), undefined);
  assert.equal(stringField(null, "s"), undefined);
});

Deno.test("list readers keep only the elements of the right type", () => {
  const answer = { items: [{ a: 1 }, null, "x", [1], { b: 2 }], ids: ["a", 1, "b"], no: 3 };
  assert.deepEqual(objectsField(answer, "items"), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(stringsField(answer, "ids"), ["a", "b"]);
  assert.deepEqual(objectsField(answer, "no"), []);
  assert.deepEqual(stringsField(undefined, "ids"), []);
});
