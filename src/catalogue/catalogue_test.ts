import assert from "node:assert/strict";
import {
  CREATE_DOCUMENT,
  CREATE_EVENT,
  FIXTURE_INDEX,
  fixtureSource,
  LIST_EVENTS,
} from "../../tests/support/catalogue_fixture.ts";
import { InternalError } from "../errors/mod.ts";
import { createTestContext } from "../../tests/support/test_context.ts";
import { join } from "node:path";
import { Catalogue, fileCatalogueSource } from "./catalogue.ts";
import { groupOfId, partOfId } from "./format.ts";

Deno.test("Catalogue.method() loads only the part of the method's resource, once", async () => {
  const source = fixtureSource();
  const catalogue = new Catalogue(source);
  assert.deepEqual(await catalogue.method(LIST_EVENTS.id), LIST_EVENTS);
  assert.deepEqual(await catalogue.method(LIST_EVENTS.id), LIST_EVENTS);
  assert.deepEqual(source.reads, ["calendar_v4.calendarEvent"]);
  assert.deepEqual(catalogue.loaded(), { index: false, parts: ["calendar_v4.calendarEvent"] });
  assert.equal(await catalogue.method("calendar.v4.calendarEvent.nope"), undefined);
  assert.equal(await catalogue.method("nope.v1.thing.get"), undefined);
  assert.equal(await catalogue.method("not an id"), undefined);
});

Deno.test("Catalogue.index(), service() and allMethods() read the index and every part", async () => {
  const source = fixtureSource();
  const catalogue = new Catalogue(source);
  assert.deepEqual(await catalogue.index(), FIXTURE_INDEX);
  assert.equal((await catalogue.service("docx"))?.resources[0].name, "document");
  assert.equal(await catalogue.service("nope"), undefined);
  assert.deepEqual(source.reads, ["index"]);
  const all = await catalogue.allMethods();
  assert.deepEqual(
    all.map((m) => m.id).sort(),
    [
      "calendar.v4.calendarEvent.create",
      CREATE_DOCUMENT.id,
      LIST_EVENTS.id,
    ].sort(),
  );
});

/** The part of the fixture's calendar events. */
const EVENTS = "calendar_v4.calendarEvent";

Deno.test("a damaged catalogue is an internal error naming the file and the place", async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ index: "{" }, /the index at the start: not JSON/],
    [{ index: '{"format": 99, "services": []}' }, /the index at index\.format: expected format 2/],
    [
      { [EVENTS]: '{"format":2,"group":"docx_v1","resource":"document","methods":[]}' },
      /expected "calendar_v4\.calendarEvent", got "docx_v1\.document"/,
    ],
    [
      { [EVENTS]: '{"format":1,"group":"calendar_v4","resource":"calendarEvent","methods":[]}' },
      /part calendar_v4\.calendarEvent at part\.format: expected format 2, got 1/,
    ],
    [
      {
        [EVENTS]: JSON.stringify({
          format: 2,
          group: "calendar_v4",
          resource: "calendarEvent",
          methods: [{ ...LIST_EVENTS, http: "TRACE" }],
        }),
      },
      /part calendar_v4\.calendarEvent at methods\[0\]\.http: expected one of GET/,
    ],
  ];
  for (const [override, message] of cases) {
    const catalogue = new Catalogue(fixtureSource(override));
    const read = override.index ? catalogue.index() : catalogue.method(LIST_EVENTS.id);
    await assert.rejects(read, (error: unknown) => {
      assert.ok(error instanceof InternalError);
      assert.match(error.message, /^The API catalogue is damaged: /);
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("Catalogue.method() checks only the method asked for; group() checks them all", async () => {
  const damaged = JSON.stringify({
    format: 2,
    group: "calendar_v4",
    resource: "calendarEvent",
    methods: [LIST_EVENTS, { ...CREATE_EVENT, identities: [] }],
  });
  const catalogue = new Catalogue(fixtureSource({ [EVENTS]: damaged }));
  assert.deepEqual(await catalogue.method(LIST_EVENTS.id), LIST_EVENTS);
  await assert.rejects(catalogue.method(CREATE_EVENT.id), /methods\[1\]\.identities: no identity/);
  await assert.rejects(catalogue.group("calendar_v4"), InternalError);
});

Deno.test("groupOfId() and partOfId() name the group and the file of an id", () => {
  assert.equal(groupOfId("calendar.v4.calendarEvent.get"), "calendar_v4");
  assert.equal(groupOfId("speech_to_text.v1.speech.fileRecognize"), "speech_to_text_v1");
  assert.equal(groupOfId("../etc.v1.a.b"), undefined);
  assert.equal(groupOfId("a.b.c"), undefined);
  assert.equal(partOfId("docx.v1.documentBlock.get"), "docx_v1.documentBlock");
  assert.equal(partOfId("../etc.v1.a.b"), undefined);
  assert.equal(partOfId("a.b.c"), undefined);
});

Deno.test("Catalogue.group() gathers the parts of a group the index names", async () => {
  const source = fixtureSource();
  const catalogue = new Catalogue(source);
  const group = await catalogue.group("calendar_v4");
  assert.deepEqual(group?.methods.map((m) => m.id), [CREATE_EVENT.id, LIST_EVENTS.id]);
  assert.deepEqual(source.reads, ["index", EVENTS]);
  assert.equal(await catalogue.group("calendar_v5"), undefined);
});

Deno.test("fileCatalogueSource() reads the catalogue's files, only names a part can have", async () => {
  const dir = await Deno.makeTempDir({ prefix: "hark-catalogue-" });
  try {
    await Deno.writeTextFile(join(dir, "index.json"), JSON.stringify(FIXTURE_INDEX));
    await Deno.writeTextFile(join(dir, "docx_v1.document.json"), '{"format": 2}');
    const source = fileCatalogueSource(createTestContext({ catalogueDir: dir }));
    assert.deepEqual(JSON.parse(await source.index()), FIXTURE_INDEX);
    assert.equal(await source.part("docx_v1.document"), '{"format": 2}');
    assert.equal(await source.part(EVENTS), undefined, "absent");
    for (const name of ["../index", "docx_v1.json", "..", "a/b", "", "docx_v1", "a/b.c", "a..b"]) {
      assert.equal(await source.part(name), undefined, name);
    }
    const missing = fileCatalogueSource(createTestContext({ catalogueDir: join(dir, "nope") }));
    await assert.rejects(missing.index(), (error: unknown) => {
      assert.ok(error instanceof InternalError);
      assert.match(error.message, /^The API catalogue is missing: no index\.json in ".*nope"/);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Catalogue.service() and serviceHeaders() check only what they give, index() all", async () => {
  // The calendar service's resources are damaged; docx's are fine.
  const [calendar, docx] = FIXTURE_INDEX.services;
  const damaged = JSON.stringify({
    ...FIXTURE_INDEX,
    services: [
      { ...calendar, resources: [{ ...calendar.resources[0], methods: [{ id: 7 }] }] },
      docx,
    ],
  });
  const catalogue = new Catalogue(fixtureSource({ index: damaged }));
  assert.deepEqual(await catalogue.serviceHeaders(), [
    { name: "calendar", title: calendar.title, firstResource: "events" },
    { name: "docx", title: docx.title, firstResource: "document" },
  ]);
  assert.deepEqual(await catalogue.service("docx"), docx);
  assert.equal(await catalogue.service("nope"), undefined);
  await assert.rejects(
    catalogue.service("calendar"),
    /the index at services\[0\]\.resources\[0\]\.methods\[0\]\.name: expected a string/,
  );
  await assert.rejects(catalogue.index(), InternalError);
});
