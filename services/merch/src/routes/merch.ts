// The hello check, custom fields and the error-reporting test.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { callEm, callIdentity } from "@tt/kit";
import type { MerchService } from "@tt/proto/tt/merch/v1/merch_service_pb";
import type { MerchContext } from "../context.ts";
import { CustomField } from "../modules/misc/custom-field.entity.ts";

export const MERCH_SERVICE_VERSION = "1.0.0";

export function merchRoutes(svc: MerchContext): ServiceImpl<typeof MerchService> {
  return {
    hello: () => ({ service: "merch-service", version: MERCH_SERVICE_VERSION }),

    async setCustomField(req, ctx) {
      const em = callEm(ctx);
      const userUuid = req.userUuid.toLowerCase();
      await em.execute(
        `insert into "merch"."custom_field" as c ("id", "user_uuid", "key", "value", "updated_at")
         values (gen_random_uuid(), ?, ?, ?, now())
         on conflict ("user_uuid", "key") do update set "value" = excluded."value", "updated_at" = now()`,
        [userUuid, req.key, req.value],
        "run",
      );
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
