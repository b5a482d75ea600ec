import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import type { Consumable, TokenBundle } from "@tt/proto/tt/merch/v1/merch_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { intOfInput, offsetOf, offsetPage, useFormat } from "./format.ts";

/**
 * Consumables and token bundles (their lists page by offset/limit, not the query language, so they only page),
 * and token grants to an account.
 */
export default function ShopScreen() {
  const consumables = useClient(ConsumableService);
  const tokens = useClient(TokenService);
  const { t, date } = useFormat();
  const consumableList = useMemo<ResourceDescription<Consumable>>(
    () => ({
      key: "consumables",
      title: t("section_consumables"),
      rowKey: (c) => c.id,
      rowName: (c) => c.name,
      columns: [
        { field: "name", label: t("col_name"), render: (c) => c.name },
        { field: "tokenCost", label: t("col_tokenCost"), render: (c) => c.tokenCost },
        { field: "createdAt", label: t("col_created"), render: (c) => date(c.createdAt) },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createConsumable"),
          question: t("confirm_createConsumable"),
          fields: [
            { name: "name", label: t("col_name"), required: true },
            { name: "tokenCost", label: t("col_tokenCost"), type: "number", required: true, initial: "0" },
          ],
          run: (v) => consumables.createConsumable({ name: v.name ?? "", tokenCost: intOfInput(v.tokenCost) ?? 0 }),
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          question: (c) => t("confirm_edit", { name: c.name }),
          fields: (c) => [
            { name: "name", label: t("col_name"), required: true, initial: c.name },
            {
              name: "tokenCost",
              label: t("col_tokenCost"),
              type: "number",
              required: true,
              initial: String(c.tokenCost),
            },
          ],
          run: (c, v) => {
            const tokenCost = intOfInput(v.tokenCost);
            return consumables.updateConsumable({
              id: c.id,
              name: v.name ?? "",
              ...(tokenCost !== undefined ? { tokenCost } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          destructive: true,
          question: (c) => t("confirm_delete", { name: c.name }),
          run: (c) => consumables.deleteConsumable({ id: c.id }),
        },
      ],
      list: async (query) => {
        const { offset, limit } = offsetOf(query);
        const answer = await consumables.listConsumables({ offset, limit });
        return offsetPage(answer.consumables, answer.total, limit);
      },
    }),
    [t, date, consumables],
  );
  const bundleList = useMemo<ResourceDescription<TokenBundle>>(
    () => ({
      key: "tokenBundles",
      title: t("section_bundles"),
      rowKey: (b) => b.id,
      rowName: (b) => b.name,
      columns: [
        { field: "name", label: t("col_name"), render: (b) => b.name },
        { field: "tokens", label: t("col_tokens"), render: (b) => b.tokens },
        { field: "productId", label: t("col_product"), render: (b) => b.productId || t("none") },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createBundle"),
          question: t("confirm_createBundle"),
          fields: [
            { name: "productId", label: t("field_productId"), required: true },
            { name: "name", label: t("col_name") },
            { name: "tokens", label: t("col_tokens"), type: "number", required: true },
          ],
          run: (v) =>
            tokens.createTokenBundle({
              productId: v.productId?.trim() ?? "",
              name: v.name ?? "",
              tokens: intOfInput(v.tokens) ?? 0,
            }),
        },
        {
          id: "grant",
          label: t("action_grant"),
          question: t("confirm_grant"),
          fields: [
            { name: "accountId", label: t("field_accountId"), required: true },
            { name: "tokens", label: t("field_tokens"), required: true },
            { name: "reason", label: t("field_reason"), required: true },
          ],
          run: (v) =>
            tokens.grantTokens({
              accountId: v.accountId?.trim() ?? "",
              tokens: Number.parseInt(v.tokens ?? "", 10) || 0,
              reason: v.reason ?? "",
            }),
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          question: (b) => t("confirm_edit", { name: b.name }),
          fields: (b) => [
            { name: "productId", label: t("field_productId"), required: true, initial: b.productId },
            { name: "name", label: t("col_name"), initial: b.name },
            { name: "tokens", label: t("col_tokens"), type: "number", required: true, initial: String(b.tokens) },
          ],
          run: (b, v) => {
            const count = intOfInput(v.tokens);
            return tokens.updateTokenBundle({
              id: b.id,
              productId: v.productId?.trim() ?? "",
              name: v.name ?? "",
              ...(count !== undefined ? { tokens: count } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          destructive: true,
          question: (b) => t("confirm_delete", { name: b.name }),
          run: (b) => tokens.deleteTokenBundle({ id: b.id }),
        },
      ],
      list: async (query) => {
        const { offset, limit } = offsetOf(query);
        const answer = await tokens.listTokenBundles({ offset, limit });
        return offsetPage(answer.bundles, answer.total, limit);
      },
    }),
    [t, tokens],
  );
  return (
    <>
      <ResourceList description={consumableList} />
      <h2 className="tt-admin-subtitle">{t("section_bundles")}</h2>
      <ResourceList description={bundleList} />
    </>
  );
}
