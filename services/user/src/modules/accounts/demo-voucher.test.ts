// issue 26: under `npm start` (USER_DEMO_VOUCHER=true) the demo voucher the README names exists, and redeeming it
// through the real RPC makes a newcomer an uploader; a restart does not make it again; off by default.
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { createLogger } from "@tt/kit";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userServiceDefinition } from "../../index.ts";
import { User } from "../users/user.entity.ts";
import { DEMO_VOUCHER_CODE, seedDemoVoucher } from "./demo-voucher.ts";
import { Voucher } from "./voucher.entity.ts";

let on: ServiceHarness;
let off: ServiceHarness;

beforeAll(async () => {
  [on, off] = await Promise.all([
    createServiceHarness(userServiceDefinition, { env: { USER_DEMO_VOUCHER: "true" }, bus: "memory" }),
    createServiceHarness(userServiceDefinition, { bus: "memory" }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

async function newcomer(h: ServiceHarness) {
  const res = await h
    .client(AuthService)
    .signUp({ email: `${randomUUID()}@example.test`, password: "correct-horse-1" });
  return { uuid: res.user!.uuid, token: res.accessToken!.token };
}

describe("issue 26: the demo voucher", () => {
  it("is redeemed once, in any case, and grants uploadMusic", async () => {
    const ann = await newcomer(on);
    const redeemed = await on.client(AccountService, { token: ann.token }).redeemVoucher({ code: "demo-upload" });
    expect(redeemed.voucher).toMatchObject({
      code: DEMO_VOUCHER_CODE,
      status: "REDEEMED",
      capabilities: ["uploadMusic"],
      redeemedByUuid: ann.uuid,
    });
    expect((await on.orm.em.fork().findOneOrFail(User, { id: ann.uuid })).capabilities).toContain("uploadMusic");
    const bob = await newcomer(on);
    const again = await on
      .client(AccountService, { token: bob.token })
      .redeemVoucher({ code: DEMO_VOUCHER_CODE })
      .catch((err: unknown) => ConnectError.from(err));
    expect(again).toMatchObject({ code: Code.PermissionDenied });
  });

  it("is not made again on a restart, redeemed or not", async () => {
    const logger = createLogger({ service: "demo-voucher-test", level: "silent" });
    expect(await seedDemoVoucher(on.orm.em, logger)).toBe(false);
    expect(await on.orm.em.fork().count(Voucher, { code: DEMO_VOUCHER_CODE })).toBe(1);
  });

  it("does not exist when USER_DEMO_VOUCHER is unset", async () => {
    expect(await off.orm.em.fork().count(Voucher, {})).toBe(0);
    const carl = await newcomer(off);
    const refused = await off
      .client(AccountService, { token: carl.token })
      .redeemVoucher({ code: DEMO_VOUCHER_CODE })
      .catch((err: unknown) => ConnectError.from(err));
    expect(refused).toMatchObject({ code: Code.NotFound });
  });
});
