import { getOption } from "@bufbuild/protobuf";
import { AnalyticsTopicSchema, DevicePlatformSchema } from "@tt/proto/tt/audit/v1/audit_pb";
import { wire } from "@tt/proto/tt/options/v1/wire_pb";
import { describe, expect, it } from "vitest";
import { ANALYTICS_TOPICS } from "./topics.ts";

const wireNames = (values: readonly { number: number }[]) =>
  values.filter((v) => v.number !== 0).map((v) => getOption(v as never, wire));

describe("analytics topics", () => {
  it("are exactly the wire names of tt.audit.v1.AnalyticsTopic, the one place they are decided", () => {
    expect([...ANALYTICS_TOPICS]).toEqual(wireNames(AnalyticsTopicSchema.values));
  });

  it("the device platforms are the proto's", () => {
    expect(wireNames(DevicePlatformSchema.values)).toEqual(["mobile", "web"]);
  });
});
