// Every RPC of tt.user.v1.UserService has an implementation: the router answers Unimplemented for the rest,
// which the specification's clients would see as a broken path.
import { describe, expect, it } from "vitest";
import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { userServiceImpl } from "./routes/index.ts";
import type { UserServiceContext } from "./user-context.ts";

describe("tt.user.v1.UserService", () => {
  it("implements every RPC of the proto", () => {
    // The route factories only close over the context; building them calls nothing in it.
    const impl = userServiceImpl({} as UserServiceContext);
    const missing = Object.keys(UserService.method).filter((name) => !(name in impl));
    expect(missing).toEqual([]);
  });
});
