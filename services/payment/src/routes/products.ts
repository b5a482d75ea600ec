// Products (CRUD), their checkout, and the development pay page.
import { create } from "@bufbuild/protobuf";
import { HttpBodySchema } from "@tt/proto/google/api/httpbody_pb";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { LockMode } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, callIdentity, checkLimit, wireName } from "@tt/kit";
import { callProvider } from "@tt/providers";
import { PaymentType, PaymentTypeSchema } from "@tt/proto/tt/payment/v1/payment_pb";
import type { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import type { PaymentContext } from "../context.ts";
import { Checkout } from "../modules/checkout.entity.ts";
import { Product } from "../modules/product.entity.ts";
import { completeCheckout } from "../modules/fulfil.ts";
import { PRODUCT_NOT_FOUND, productMessage, siteUrl } from "./messages.ts";

export const PRODUCT_PAGE_SIZE = 20;
export const MAX_PRODUCT_PAGE = 100;
const ONE_TIME = wireName(PaymentTypeSchema, PaymentType.ONE_TIME);
const RECURRING = wireName(PaymentTypeSchema, PaymentType.RECURRING);
export const NOT_ONE_TIME = "product is not sold once; use /subscription/checkout/{id}";
export const SESSION_NOT_FOUND = "checkout session not found";
export const NOT_DEVELOPMENT = "the development checkout is off (PAYMENT_PROVIDER is not development)";
/**
 * The most units one checkout buys (CheckoutProductRequest.quantity's `lte`, which refuses more with 400; the App
 * Store's quantity is held to it too): a token bundle times this is the most one payment credits.
 */
export const MAX_CHECKOUT_QUANTITY = 100;

export async function findProduct(em: EntityManager, id: string): Promise<Product> {
  const product = await em.findOne(Product, { id: id.toLowerCase() });
  if (!product) throw new ConnectError(PRODUCT_NOT_FOUND, Code.NotFound);
  return product;
}

/** Starts a provider checkout for a product and records it (pending) under the session's id. */
export async function startCheckout(
  svc: PaymentContext,
  em: EntityManager,
  input: {
    product: Product;
    userUuid: string;
    mode: "payment" | "subscription";
    quantity: number;
    region: string;
    successPath: string;
    cancelPath: string;
    customerId?: string;
  },
  signal?: AbortSignal,
) {
  const checkout = em.create(Checkout, {
    sessionId: "",
    userUuid: input.userUuid,
    productId: input.product.id,
    mode: input.mode,
    quantity: input.quantity,
    region: input.region,
    successPath: input.successPath || "/",
    cancelPath: input.cancelPath || "/",
    status: "pending",
    completedAt: null,
  });
  const session = await callProvider("Stripe", () =>
    svc.provider.createCheckoutSession(
      {
        mode: input.mode,
        clientReferenceId: checkout.id,
        priceId: input.product.stripePriceId,
        quantity: input.quantity,
        productName: input.product.name,
        unitAmount: input.product.price,
        currency: input.product.currency,
        successUrl: siteUrl(svc.publicUrl, checkout.successPath),
        cancelUrl: siteUrl(svc.publicUrl, checkout.cancelPath),
        customerId: input.customerId,
        metadata: { checkout_id: checkout.id, user_uuid: input.userUuid, product_id: input.product.id },
      },
      signal,
    ),
  );
  checkout.sessionId = session.id;
  await em.flush();
  return { sessionId: session.id, url: session.url };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function devPage(product: Product | null, checkout: Checkout): string {
  const name = escapeHtml(product?.name ?? "product");
  const price = product ? `${(product.price / 100).toFixed(2)} ${product.currency.toUpperCase()}` : "";
  const session = escapeHtml(checkout.sessionId);
  const done = checkout.status === "completed";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Development checkout</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto">
<h1>Development checkout</h1>
<p>No money moves: this page stands in for Stripe Checkout on a development install.</p>
<p><strong data-testid="product">${name}</strong> × ${checkout.quantity} ${escapeHtml(price)}</p>
<p id="status">${done ? "Paid." : ""}</p>
<button id="pay" type="button"${done ? " disabled" : ""}>Pay</button>
<a id="cancel" href="${escapeHtml(checkout.cancelPath)}">Cancel</a>
<script>
document.getElementById("pay").addEventListener("click", async () => {
  // Only the buyer completes their checkout: send the token the web apps keep for this site (the kit's session).
  let token = "";
  try { token = JSON.parse(localStorage.getItem("tt-session") || "{}").accessToken.token || ""; } catch {}
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = \`Bearer \${token}\`;
  const res = await fetch("/api/payment-service/dev-checkout/${session}/complete", {
    method: "POST", headers, body: "{}" });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    document.getElementById("status").textContent =
      res.status === 401 ? "Sign in as the buyer on this site, then pay again." : body.message || "Payment failed";
    return;
  }
  document.getElementById("status").textContent = "Paid.";
  location.assign(body.redirect || "/");
});
</script></body></html>`;
}

export function productRoutes(svc: PaymentContext): ServiceImpl<typeof ProductService> {
  /** The development session; with a buyer, only theirs (another user's answers as a missing one: 404). */
  const devSession = async (em: EntityManager, session: string, buyer?: string) => {
    if (svc.provider.kind !== "development") throw new ConnectError(NOT_DEVELOPMENT, Code.NotFound);
    const checkout = await em.findOne(Checkout, { sessionId: session });
    if (!checkout || (buyer !== undefined && checkout.userUuid !== buyer)) {
      throw new ConnectError(SESSION_NOT_FOUND, Code.NotFound);
    }
    return checkout;
  };

  return {
    async createProduct(req, ctx) {
      const em = callEm(ctx);
      const paymentType = req.paymentType || ONE_TIME;
      if (paymentType === RECURRING && !req.level) {
        throw new ConnectError("level missing in request (a recurring product grants a level)", Code.InvalidArgument);
      }
      const product = em.create(Product, {
        name: req.name,
        description: req.description,
        paymentType,
        price: req.price,
        currency: req.currency || "usd",
        stripePriceId: req.stripePriceId,
        level: req.level,
        active: true,
      });
      await em.flush();
      return { product: productMessage(product) };
    },

    async listProducts(req, ctx) {
      const limit = checkLimit(req.limit, PRODUCT_PAGE_SIZE, MAX_PRODUCT_PAGE);
      const where = req.id ? { id: req.id.toLowerCase() } : {};
      const [rows, total] = await callEm(ctx).findAndCount(Product, where, {
        orderBy: { createdAt: "desc", id: "asc" },
        limit,
        offset: req.offset,
      });
      return { products: rows.map(productMessage), total };
    },

    async getProduct(req, ctx) {
      return { product: productMessage(await findProduct(callEm(ctx), req.id)) };
    },

    async updateProduct(req, ctx) {
      const em = callEm(ctx);
      const product = await findProduct(em, req.id);
      if (req.name !== undefined) product.name = req.name;
      if (req.description !== undefined) product.description = req.description;
      if (req.price !== undefined) product.price = req.price;
      if (req.stripePriceId !== undefined) product.stripePriceId = req.stripePriceId;
      if (req.level !== undefined) {
        if (product.paymentType === RECURRING && !req.level) {
          throw new ConnectError("level may not be empty for a recurring product", Code.InvalidArgument);
        }
        product.level = req.level;
      }
      if (req.active !== undefined) product.active = req.active;
      product.updatedAt = new Date();
      await em.flush();
      return { product: productMessage(product) };
    },

    async deleteProduct(req, ctx) {
      const em = callEm(ctx);
      em.remove(await findProduct(em, req.id));
      await em.flush();
      return {};
    },

    async checkoutProduct(req, ctx) {
      const em = callEm(ctx);
      const product = await findProduct(em, req.id);
      if (!product.active) throw new ConnectError(PRODUCT_NOT_FOUND, Code.NotFound);
      if (product.paymentType !== ONE_TIME) throw new ConnectError(NOT_ONE_TIME, Code.InvalidArgument);
      const session = await startCheckout(
        svc,
        em,
        {
          product,
          userUuid: callIdentity(ctx).subject,
          mode: "payment",
          quantity: req.quantity || 1,
          region: "",
          successPath: req.successPath,
          cancelPath: req.cancelPath,
        },
        ctx.signal,
      );
      return { session };
    },

    async getDevCheckoutPage(req, ctx) {
      const em = callEm(ctx);
      const checkout = await devSession(em, req.session);
      const product = await em.findOne(Product, { id: checkout.productId });
      return {
        body: create(HttpBodySchema, {
          contentType: "text/html; charset=utf-8",
          data: new TextEncoder().encode(devPage(product, checkout)),
        }),
      };
    },

    async completeDevCheckout(req, ctx) {
      const em = callEm(ctx);
      await devSession(em, req.session, callIdentity(ctx).subject);
      const redirect = await em.fork().transactional(async (tem) => {
        const checkout = await tem.findOneOrFail(
          Checkout,
          { sessionId: req.session },
          { lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        await completeCheckout(tem, checkout);
        return checkout.successPath;
      });
      return { redirect };
    },
  };
}
