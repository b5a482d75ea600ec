import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { useMemo } from "react";
// Through the package, not "../KitProvider.tsx": this entry is its own federation shared module, and a relative
// import would bundle a second KitProvider (a second React context) into it. When the page's
// @tt/web-kit/connect comes from a remote's build, that copy's useKit would find no <KitProvider>.
import { useKit } from "@tt/web-kit";

/** A typed client for one service over the page's transport. */
export function useClient<T extends DescService>(service: T): Client<T> {
  const { transport } = useKit();
  return useMemo(() => createClient(service, transport), [service, transport]);
}
