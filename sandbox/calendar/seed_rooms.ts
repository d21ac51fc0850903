/**
 * The sandbox's meeting rooms: fixed, so tests and the demo can name them. Room ids have Lark's
 * `omm_` prefix; each room has the facts `freebusy/room_find` filters on.
 *
 * @module
 */

/** A seeded meeting room. */
export interface SeedRoom {
  room_id: string;
  name: string;
  capacity: number;
  city: string;
  building: string;
  floor: string;
}

/** The sandbox's rooms: fixed, so tests and the demo can name them. */
export const SEED_ROOMS: readonly SeedRoom[] = [
  ["omm_4f0c1e2a9b3d4c5e6f708192a3b4c5d6", "Jupiter", 12, "Singapore", "One North", "F2"],
  ["omm_5a1d2f3b0c4e5d6f7a8091b2c3d4e5f6", "Mars", 4, "Singapore", "One North", "F2"],
  ["omm_6b2e3a4c1d5f6e7a8b90a1c2d3e4f5a6", "Saturn", 20, "Singapore", "One North", "F3"],
  ["omm_7c3f4b5d2e6a7f8b9ca1b2d3e4f5a6b7", "Venus", 8, "Singapore", "Marina Bay", "F10"],
  ["omm_8d4a5c6e3f7b8a9cadb2c3e4f5a6b7c8", "Mercury", 6, "London", "King's Cross", "F1"],
].map(([room_id, name, capacity, city, building, floor]) => ({
  room_id: String(room_id),
  name: String(name),
  capacity: Number(capacity),
  city: String(city),
  building: String(building),
  floor: String(floor),
}));
