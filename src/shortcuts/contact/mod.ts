/**
 * The contact shortcuts. Adding one: a new file in this folder and one line in `shortcuts`.
 *
 * @module
 */

import type { ServiceGroup } from "../service_group.ts";
import { searchUser } from "./search_user.ts";

/** `hark contact`. */
export const contactService: ServiceGroup = {
  name: "contact",
  description: "Contacts: find people",
  examples: ["hark contact +search-user --query alice"],
  shortcuts: [
    searchUser,
  ],
};
