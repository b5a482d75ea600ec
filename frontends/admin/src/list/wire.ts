import { getOption, hasOption, type DescEnum } from "@bufbuild/protobuf";
import { wire as wireOption } from "@tt/proto/tt/options/v1/wire_pb";

/**
 * The wire names of a proto enum's values (the `(tt.options.v1.wire)` option), in declaration order, the zero
 * value left out: the same rule as the service kit's `wireNamesOf`, which the web kit does not carry.
 */
export function wireNamesOf(desc: DescEnum): readonly string[] {
  return desc.values.filter((v) => hasOption(v, wireOption)).map((v) => getOption(v, wireOption));
}
