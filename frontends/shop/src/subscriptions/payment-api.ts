// The shop's calls to the payment service: products sold once (token bundles), subscription plans, the
// caller's plan, checkout and the customer portal. A checkout answers a URL to pay at (Stripe Checkout, or the
// development pay page on one laptop); the browser goes there and comes back to the shop.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useAnalytics, useSession } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import type { Product } from "@tt/proto/tt/payment/v1/payment_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";

export type { Product };

/** Where the browser goes; replaced in component tests. */
export const navigation = { go: (url: string) => window.location.assign(url) };

export function useOneTimeProducts() {
  const client = useClient(ProductService);
  return useQuery({
    queryKey: ["payment", "products"],
    queryFn: async () =>
      (await client.listProducts({ limit: 100 })).products.filter((p) => p.active && p.paymentType === "one_time"),
  });
}

export function usePlans() {
  const client = useClient(SubscriptionService);
  return useQuery({
    queryKey: ["payment", "plans"],
    queryFn: async () => (await client.listSubscriptionProducts({})).products,
  });
}

export function useMyPlan() {
  const client = useClient(SubscriptionService);
  const uuid = useSession().user?.uuid ?? "";
  return useQuery({
    queryKey: ["payment", "mine", uuid],
    queryFn: async () => await client.listMySubscriptions({}),
  });
}

export function useBuy() {
  const client = useClient(ProductService);
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: async (id: string) =>
      (await client.checkoutProduct({ id, quantity: 1, successPath: "/shop", cancelPath: "/shop" })).session!,
    // The page is left next: the queued event goes out on page hide (fetch keepalive).
    onSuccess: (session, id) => {
      analytics.track("purchase-action", { item: "product", productId: id, step: "checkout" });
      navigation.go(session.url);
    },
  });
}

export function useSubscribe() {
  const client = useClient(SubscriptionService);
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: async (id: string) =>
      (await client.checkoutSubscription({ id, successPath: "/shop", cancelPath: "/shop" })).session!,
    onSuccess: (session, id) => {
      analytics.track("purchase-action", { item: "subscription", productId: id, step: "checkout" });
      navigation.go(session.url);
    },
  });
}

export function usePortal() {
  const client = useClient(SubscriptionService);
  const analytics = useAnalytics();
  return useMutation({
    mutationFn: async () => (await client.createPortalSession({ returnPath: "/shop" })).url,
    onSuccess: (url) => {
      analytics.track("shop-action", { action: "customer-portal" });
      navigation.go(url);
    },
  });
}
