import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import type { Consumable, TokenBundle } from "@tt/proto/tt/merch/v1/merch_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { Coins, PackagePlus, Pencil, Plus, Trash } from "lucide-react";
import { useCallback, useMemo } from "react";
import { uploadOf, type ActionField, type ActionFiles } from "../list/fields.ts";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { intOfInput, offsetOf, offsetPage, useAdminFormat } from "./format.ts";
import { useProducts } from "./products.ts";
import { NamedImage } from "./refs.tsx";

/**
 * Consumables and token bundles (their lists page by offset/limit, not the query language, so they only page),
 * and token grants to an account.
 */
export default function ShopScreen() {
  const consumables = useClient(ConsumableService);
  const tokens = useClient(TokenService);
  const { t, date, number } = useAdminFormat();
  const products = useProducts();
  /** An image field of a form, showing the current image when editing. */
  const imageField = useCallback(
    (name: string, current?: string): ActionField => ({
      name,
      label: t("field_image"),
      type: "image",
      hint: current ? t("field_imageKeepHint") : t("field_imageHint"),
      current: current || undefined,
    }),
    [t],
  );
  /** A consumable's image goes up first (its own call); the consumable then names the file. */
  const consumableFile = useCallback(
    async (files: ActionFiles) =>
      files.image
        ? (await consumables.uploadConsumableFile({ file: await uploadOf(files.image) })).file?.fileId
        : undefined,
    [consumables],
  );
  const consumableList = useMemo<ResourceDescription<Consumable>>(
    () => ({
      key: "consumables",
      title: t("section_consumables"),
      rowKey: (c) => c.id,
      rowName: (c) => c.name,
      emptyBody: t("emptyBody_consumables"),
      columns: [
        {
          field: "name",
          label: t("col_name"),
          fixed: true,
          render: (c) => <NamedImage src={c.fileUrl || undefined}>{c.name}</NamedImage>,
        },
        { field: "tokenCost", label: t("col_tokenCost"), align: "end", render: (c) => number(c.tokenCost) },
        { field: "createdAt", label: t("col_created"), render: (c) => date(c.createdAt) },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createConsumable"),
          icon: <Plus />,
          confirmLabel: t("create"),
          fields: [
            { name: "name", label: t("col_name"), required: true },
            { name: "tokenCost", label: t("col_tokenCost"), type: "number", required: true, initial: "0" },
            imageField("image"),
          ],
          run: async (v, files) => {
            const fileId = await consumableFile(files);
            return consumables.createConsumable({
              name: v.name ?? "",
              tokenCost: intOfInput(v.tokenCost) ?? 0,
              ...(fileId ? { fileId } : {}),
            });
          },
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (c) => t("title_edit", { name: c.name }),
          fields: (c) => [
            { name: "name", label: t("col_name"), required: true, initial: c.name },
            {
              name: "tokenCost",
              label: t("col_tokenCost"),
              type: "number",
              required: true,
              initial: String(c.tokenCost),
            },
            imageField("image", c.fileUrl),
          ],
          run: async (c, v, files) => {
            const tokenCost = intOfInput(v.tokenCost);
            const fileId = await consumableFile(files);
            return consumables.updateConsumable({
              id: c.id,
              name: v.name ?? "",
              ...(tokenCost !== undefined ? { tokenCost } : {}),
              ...(fileId ? { fileId } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          icon: <Trash />,
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
    [t, date, number, consumables, imageField, consumableFile],
  );
  const bundleList = useMemo<ResourceDescription<TokenBundle>>(() => {
    // The product by name when the payment service's list came; its id otherwise.
    const productField = (initial?: string): ActionField =>
      products.loaded && products.options.length > 0
        ? {
            name: "productId",
            label: t("field_productId"),
            hint: t("field_productIdHint"),
            type: "select",
            required: true,
            options: products.options,
            ...(initial ? { initial } : {}),
          }
        : { name: "productId", label: t("field_productId"), hint: t("field_productIdHint"), required: true, initial };
    return {
      key: "tokenBundles",
      title: t("section_bundles"),
      rowKey: (b) => b.id,
      rowName: (b) => b.name || b.productId,
      emptyBody: t("emptyBody_bundles"),
      columns: [
        {
          field: "name",
          label: t("col_name"),
          fixed: true,
          render: (b) => <NamedImage src={b.thumbnailUrl || undefined}>{b.name || t("none")}</NamedImage>,
        },
        { field: "tokens", label: t("col_tokens"), align: "end", render: (b) => number(b.tokens) },
        {
          field: "productId",
          label: t("col_product"),
          render: (b) => products.nameOf(b.productId) ?? <span className="tt-muted">{b.productId || t("none")}</span>,
        },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createBundle"),
          icon: <PackagePlus />,
          confirmLabel: t("create"),
          question: t("confirm_createBundle"),
          fields: [
            productField(),
            { name: "name", label: t("col_name") },
            { name: "tokens", label: t("col_tokens"), type: "number", required: true },
            imageField("thumbnail"),
          ],
          run: async (v, files) =>
            tokens.createTokenBundle({
              productId: v.productId?.trim() ?? "",
              name: v.name ?? "",
              tokens: intOfInput(v.tokens) ?? 0,
              ...(files.thumbnail ? { thumbnail: await uploadOf(files.thumbnail) } : {}),
            }),
        },
        {
          id: "grant",
          label: t("action_grant"),
          icon: <Coins />,
          question: t("confirm_grantUser"),
          fields: [
            { name: "userUuid", label: t("field_tokenUser"), type: "user", required: true },
            { name: "tokens", label: t("field_tokens"), type: "number", required: true },
            { name: "reason", label: t("field_reason"), required: true },
          ],
          // The account by the user, as the users list's grant does (a user without one: the server's 404 message).
          run: async (v) => {
            const { account } = await tokens.getUserTokenAccount({ userUuid: v.userUuid ?? "" });
            return tokens.grantTokens({
              accountId: account?.id ?? "",
              tokens: intOfInput(v.tokens) ?? 0,
              reason: v.reason ?? "",
            });
          },
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (b) => t("title_edit", { name: b.name || b.productId }),
          fields: (b) => [
            productField(b.productId),
            { name: "name", label: t("col_name"), initial: b.name },
            { name: "tokens", label: t("col_tokens"), type: "number", required: true, initial: String(b.tokens) },
            imageField("thumbnail", b.thumbnailUrl),
          ],
          // The thumbnail has a call of its own (UpdateTokenBundleThumbnail), made after the other changes.
          run: async (b, v, files) => {
            const count = intOfInput(v.tokens);
            const updated = await tokens.updateTokenBundle({
              id: b.id,
              productId: v.productId?.trim() ?? "",
              name: v.name ?? "",
              ...(count !== undefined ? { tokens: count } : {}),
            });
            if (!files.thumbnail) return updated;
            return tokens.updateTokenBundleThumbnail({ id: b.id, thumbnail: await uploadOf(files.thumbnail) });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          icon: <Trash />,
          destructive: true,
          question: (b) => t("confirm_delete", { name: b.name || b.productId }),
          run: (b) => tokens.deleteTokenBundle({ id: b.id }),
        },
      ],
      list: async (query) => {
        const { offset, limit } = offsetOf(query);
        const answer = await tokens.listTokenBundles({ offset, limit });
        return offsetPage(answer.bundles, answer.total, limit);
      },
    };
  }, [t, number, tokens, products, imageField]);
  return (
    <div className="tt-admin-sections">
      <ResourceList description={consumableList} heading={t("section_consumables")} />
      <ResourceList description={bundleList} heading={t("section_bundles")} />
    </div>
  );
}
