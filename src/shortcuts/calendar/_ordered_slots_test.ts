import assert from "node:assert/strict";
import { OrderedSlots } from "./_ordered_slots.ts";

Deno.test("OrderedSlots.take() hands a freed slot to the lowest position waiting", async () => {
  const slots = new OrderedSlots(1);
  const order: number[] = [];
  const first = await slots.take(5);
  const waiters = [7, 2, 9, 3].map(async (position) => {
    const release = await slots.take(position);
    order.push(position);
    release();
  });
  assert.equal(slots.waiting, 4);
  first();
  await Promise.all(waiters);
  assert.deepEqual(order, [2, 3, 7, 9]);
  assert.equal(slots.waiting, 0);
});

Deno.test("OrderedSlots frees a slot once, however often its release is called", async () => {
  const slots = new OrderedSlots(2);
  const a = await slots.take(0);
  await slots.take(1);
  a();
  a();
  await slots.take(2);
  let fourth = false;
  const late = slots.take(3).then(() => void (fourth = true));
  await Promise.resolve();
  assert.equal(fourth, false, "the double release gave a third slot");
  assert.equal(slots.waiting, 1);
  void late;
});

Deno.test("OrderedSlots keeps a later position waiting while an earlier one may still ask", async () => {
  const slots = new OrderedSlots(1);
  slots.expect(0);
  slots.expect(1);
  let granted = false;
  const later = slots.take(1).then((release) => {
    granted = true;
    return release;
  });
  await Promise.resolve();
  assert.equal(granted, false, "position 1 took the free slot before position 0 answered");
  slots.pass(0);
  (await later)();
  assert.equal(granted, true);
});
