import { useQuery } from "@tanstack/react-query";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";

/** The payment service's products (up to 100), to pick one by name instead of typing its id. */
export function useProducts() {
  const products = useClient(ProductService);
  const list = useQuery({
    queryKey: ["adminList", "products", "choices"],
    queryFn: async () => (await products.listProducts({ offset: 0, limit: 100 })).products,
    staleTime: 60_000,
  });
  return useMemo(() => {
    const all = list.data ?? [];
    return {
      loaded: list.isSuccess,
      options: all.map((product) => ({ value: product.id, label: product.name || product.id })),
      nameOf: (id: string) => all.find((product) => product.id === id)?.name,
    };
  }, [list.data, list.isSuccess]);
}
