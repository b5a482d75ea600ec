// The hello check, custom fields and the error-reporting test.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { callEm, callIdentity, sql } from "@tt/kit";
import type { MerchService } from "@tt/proto/tt/merch/v1/merch_service_pb";
import type { MerchContext } from "../context.ts";
import { db } from "../db.ts";
import { CustomField } from "../modules/misc/custom-field.entity.ts";

export const MERCH_SERVICE_VERSION = "1.0.0";

export function merchRoutes(svc: MerchContext): ServiceImpl<typeof MerchService> {
  return {
    hello: () => ({ service: "merch-service", version: MERCH_SERVICE_VERSION }),

    async setCustomField(req, ctx) {
      const em = callEm(ctx);
      const userUuid = req.userUuid.toLowerCase();
      await db(em)
        .insertInto("custom_field")
        .values({
          id: sql<string>`gen_random_uuid()`,
          user_uuid: userUuid,
          key: req.key,
          value: req.value,
          updated_at: sql<Date>`now()`,
        })
        .onConflict((oc) =>
          oc
            .columns(["user_uuid", "key"])
            .doUpdateSet((eb) => ({ value: eb.ref("excluded.value"), updated_at: sql<Date>`now()` })),
        )
        .execute();
      return { userUuid, key: req.key, value: req.value };
    },

    async deleteCustomField(req, ctx) {
      const n = await callEm(ctx).nativeDelete(CustomField, { userUuid: req.userUuid.toLowerCase(), key: req.key });
      if (n === 0) throw new ConnectError("custom field not found", Code.NotFound);
      return {};
    },

    sentryTesting(req, ctx) {
      svc.logger.error(
        { by: callIdentity(ctx).subject, message: req.message || "error-reporting test" },
        "error-reporting test (POST /sentry-testing)",
      );
      return { reported: true };
    },
  };
}
