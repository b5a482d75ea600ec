import { defineEntity, p } from "@mikro-orm/core";

/**
 * A caller admitted to a private room with its guest password (issue 23): a user (`caller` = their uuid) or a guest
 * (`g:` + their token subject). It admits while `passwordTag` names the room's current guest password (a digest of
 * its argon2 hash, whose salt changes with every new password), so setting or removing the password ends it.
 */
export const RoomAdmissionSchema = defineEntity({
  name: "RoomAdmission",
  tableName: "room_admission",
  properties: {
    roomId: p.uuid().primary(),
    caller: p.string().length(140).primary(),
    passwordTag: p.string().length(64),
    admittedAt: p.datetime(),
  },
});
export class RoomAdmission extends RoomAdmissionSchema.class {}
RoomAdmissionSchema.setClass(RoomAdmission);
