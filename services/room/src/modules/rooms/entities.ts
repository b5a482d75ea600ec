/** The rooms area's entities (rooms, role grants, visits). */
export const roomEntities = [];
