/** Every entity of the social service, listed explicitly (each area adds its own). */
export const entities = [];
