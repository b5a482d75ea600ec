import { Code } from "@connectrpc/connect";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentHarness, refusal, type PaymentHarness } from "../testing/payment-harness.ts";

let h: PaymentHarness;
let admin: string;
beforeAll(async () => {
  h = await createPaymentHarness();
  admin = await h.tokens.user("admin");
});
afterAll(() => h?.close());

const products = (token?: string) => h.client(ProductService, { token });

async function outboxSubjects(): Promise<string[]> {
  const rows = await h.orm.em
    .fork()
    .execute<Array<{ subject: string }>>(`select "subject" from "payment"."outbox_message"`);
  return rows.map((r) => r.subject);
}

describe("products", () => {
  it("admins and staff create, update and delete; anyone reads; users and guests are refused with 401", async () => {
    const { product } = await products(admin).createProduct({ name: "100 tokens", price: 499 });
    expect(product).toMatchObject({ name: "100 tokens", paymentType: "one_time", price: 499, currency: "usd" });
    const staff = await h.tokens.user("staff");
    await products(staff).createProduct({ name: "by staff" });
    for (const token of [
      await h.tokens.user("user"),
      await h.tokens.user("moderator"),
      await h.tokens.guest(),
      undefined,
    ]) {
      expect((await refusal(products(token).createProduct({ name: "x" }))).code).toBe(Code.Unauthenticated);
      expect((await refusal(products(token).deleteProduct({ id: product!.id }))).code).toBe(Code.Unauthenticated);
    }
    expect((await products().getProduct({ id: product!.id })).product!.name).toBe("100 tokens");
    const updated = await products(admin).updateProduct({ id: product!.id, name: "200 tokens", price: 899 });
    expect(updated.product).toMatchObject({ name: "200 tokens", price: 899 });
    await products(admin).deleteProduct({ id: product!.id });
    expect(await refusal(products().getProduct({ id: product!.id }))).toEqual({
      code: Code.NotFound,
      message: "product not found",
    });
  });

  it("lists with id, offset and limit; refuses bad input with 400 naming the field", async () => {
    for (let i = 0; i < 3; i++) await products(admin).createProduct({ name: `p${i}` });
    const page = await products().listProducts({ limit: 2 });
    expect(page.products).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(3);
    const rest = await products().listProducts({ limit: 2, offset: 2 });
    expect(rest.products[0]!.id).not.toBe(page.products[0]!.id);
    const one = await products().listProducts({ id: page.products[0]!.id });
    expect(one.products.map((p) => p.id)).toEqual([page.products[0]!.id]);
    expect((await refusal(products().listProducts({ limit: 101 }))).message).toMatch(/limit/);
    expect((await refusal(products().getProduct({ id: "nope" }))).message).toMatch(/id/);
    expect((await refusal(products(admin).createProduct({ name: "" }))).message).toMatch(/name/);
    expect((await refusal(products(admin).createProduct({ name: "x", paymentType: "monthly" }))).message).toMatch(
      /paymentType/,
    );
    expect((await refusal(products(admin).createProduct({ name: "x", paymentType: "recurring" }))).message).toMatch(
      /level/,
    );
  });

  it("checkout: a signed-in user gets the development pay page; paying completes once and announces the purchase", async () => {
    const { product } = await products(admin).createProduct({ name: "Bundle", price: 100 });
    expect((await refusal(products().checkoutProduct({ id: product!.id }))).code).toBe(Code.Unauthenticated);
    const user = await h.tokens.user("user");
    const { session } = await products(user).checkoutProduct({ id: product!.id, quantity: 2, successPath: "/shop" });
    expect(session!.url).toBe(`/api/payment-service/dev-checkout/${session!.sessionId}`);
    const page = await products().getDevCheckoutPage({ session: session!.sessionId });
    expect(page.body!.contentType).toMatch(/text\/html/);
    expect(new TextDecoder().decode(page.body!.data)).toContain("Bundle");
    const before = (await outboxSubjects()).filter((s) => s === "tt.payment.purchase.completed").length;
    expect((await products(user).completeDevCheckout({ session: session!.sessionId })).redirect).toBe("/shop");
    expect((await products(user).completeDevCheckout({ session: session!.sessionId })).redirect).toBe("/shop");
    const after = (await outboxSubjects()).filter((s) => s === "tt.payment.purchase.completed").length;
    expect(after - before).toBe(1);
    expect(await refusal(products(user).completeDevCheckout({ session: "dev_cs_unknown" }))).toEqual({
      code: Code.NotFound,
      message: "checkout session not found",
    });
    expect((await refusal(products().getDevCheckoutPage({ session: "<script>" }))).code).toBe(Code.InvalidArgument);
    expect(
      (await refusal(products(user).checkoutProduct({ id: product!.id, successPath: "//evil.example" }))).code,
    ).toBe(Code.InvalidArgument);
  });

  it("a recurring product is not checked out here; a missing product is 404", async () => {
    const { product } = await products(admin).createProduct({ name: "Plan", paymentType: "recurring", level: "gold" });
    const user = await h.tokens.user("user");
    expect((await refusal(products(user).checkoutProduct({ id: product!.id }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(products(user).checkoutProduct({ id: "00000000-0000-4000-8000-000000000000" }))).code).toBe(
      Code.NotFound,
    );
  });
});
