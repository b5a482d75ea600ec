import { RoomAdmissionSchema } from "./room-admission.entity.ts";
import { RoomSchema } from "./room.entity.ts";
import { RoomSlugSchema } from "./room-slug.entity.ts";
import { RoomUserRoleSchema } from "./room-user-role.entity.ts";
import { RoomVisitSchema } from "./room-visit.entity.ts";

/** The rooms area's entities (rooms and their slugs, role grants, visits, password admissions). */
export const roomEntities = [RoomSchema, RoomSlugSchema, RoomUserRoleSchema, RoomVisitSchema, RoomAdmissionSchema];
