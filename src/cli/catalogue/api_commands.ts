/**
 * The API commands as parts of the command tree: `hark <service>` for every API service (beside
 * the shortcut services, which list their API resources after their shortcuts), `hark <service>
 * <resource>` listing its methods, and `hark <service> <resource> <method>`. Services and
 * resources come from the catalogue's index; a resource's methods load its group only when the
 * resource is named.
 *
 * @module
 */

import type { IndexResource, IndexService } from "../../catalogue/format.ts";
import type { ServiceHeader } from "../../catalogue/read_catalogue.ts";
import type { CommandSpec } from "../command_spec.ts";
import type { CatalogueRef } from "./catalogue_ref.ts";
import { methodCommand } from "./method_command.ts";

/**
 * The API services the root finds by name: every service of the catalogue but those with
 * shortcuts, whose group command already exists (and lists its API resources).
 *
 * @param ref the catalogue
 * @param shortcutServices the names of the shortcut services
 */
export async function apiServiceCommands(
  ref: CatalogueRef,
  shortcutServices: readonly string[],
): Promise<CommandSpec[]> {
  const headers = await (await ref()).serviceHeaders();
  return headers
    .filter((service) => !shortcutServices.includes(service.name))
    .map((service) => serviceCommand(ref, service));
}

/**
 * The API resources of a service, as sub-commands of its group.
 *
 * @param ref the catalogue
 * @param name the service's name, such as `calendar`
 * @returns its resources; none when the catalogue has no such service
 */
export async function apiResourceCommands(ref: CatalogueRef, name: string): Promise<CommandSpec[]> {
  const service = await (await ref()).service(name);
  return service
    ? service.resources.map((resource) => resourceCommand(ref, service, resource))
    : [];
}

/** The group command of an API service: its resources, checked when it is named. */
function serviceCommand(ref: CatalogueRef, header: ServiceHeader): CommandSpec {
  return {
    name: header.name,
    description: `Open Platform API: ${header.title}`,
    examples: [
      ...(header.firstResource ? [`hark ${header.name} ${header.firstResource} --help`] : []),
      `hark schema ${header.name}`,
    ],
    loadCommands: async () => {
      const service = await (await ref()).service(header.name);
      return service
        ? service.resources.map((resource) => resourceCommand(ref, service, resource))
        : [];
    },
  };
}

/** The group command of a resource: its methods, loaded with their group. */
function resourceCommand(
  ref: CatalogueRef,
  service: IndexService,
  resource: IndexResource,
): CommandSpec {
  const first = resource.methods[0];
  const names = resource.methods.map((m) => m.name).join(", ");
  return {
    name: resource.name,
    aliases: resource.aliases,
    description: `${resource.methods.length === 1 ? "Method" : "Methods"}: ${names}`,
    examples: first
      ? [
        `hark ${service.name} ${resource.name} ${first.name} --help`,
        `hark schema ${first.id}`,
      ]
      : [],
    loadCommands: async () => {
      const catalogue = await ref();
      const methods = await Promise.all(resource.methods.map((m) => catalogue.method(m.id)));
      return methods.flatMap((method) => method ? [methodCommand(method)] : []);
    },
  };
}
