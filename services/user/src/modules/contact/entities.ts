import { DevOutboxMessageSchema } from "./dev-outbox-message.entity.ts";
import { EmailSchema } from "./email.entity.ts";
import { MobileCodeSchema } from "./mobile-code.entity.ts";
import { PhoneNumberSchema } from "./phone-number.entity.ts";
import { PhoneValidationSchema } from "./phone-validation.entity.ts";
import { ThrottleWindowSchema } from "@tt/kit";

// Entities of the contact area (e-mails and their verification, mobile auth codes, the phone whitelist, phone validation, admin phone numbers, the dev outbox, throttling), listed explicitly.
export const contactEntities = [
  EmailSchema,
  PhoneNumberSchema,
  MobileCodeSchema,
  PhoneValidationSchema,
  DevOutboxMessageSchema,
  ThrottleWindowSchema,
];
