import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { useMemo } from "react";
import { useKit } from "../KitProvider.tsx";

/** A typed client for one service over the page's transport. */
export function useClient<T extends DescService>(service: T): Client<T> {
  const { transport } = useKit();
  return useMemo(() => createClient(service, transport), [service, transport]);
}
