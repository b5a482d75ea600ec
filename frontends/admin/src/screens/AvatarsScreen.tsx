import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { AvatarStatusSchema, type Avatar } from "@tt/proto/tt/merch/v1/merch_pb";
import { useClient } from "@tt/web-kit/connect";
import type { SelectOption } from "@tt/web-kit/ui";
import { ImagePlus, Pencil, Trash } from "lucide-react";
import { useMemo } from "react";
import type { AdminText } from "../i18n.ts";
import { uploadOf, type ActionField } from "../list/fields.ts";
import { ResourceList, type ResourceDescription } from "../list/ResourceList.tsx";
import { wireNamesOf } from "../list/wire.ts";
import { adminPage, intOfInput, useAdminFormat, useOptions } from "./format.ts";
import { NamedImage } from "./refs.tsx";
import { useSeasons } from "./seasons.ts";

const STATUSES = wireNamesOf(AvatarStatusSchema);
/** The season picker's "no season" (a picker's value cannot be empty). */
const NO_SEASON = "none";

/** The inputs of the create and edit forms, filled from the avatar when editing. */
function avatarFields(
  t: AdminText,
  statusOptions: readonly SelectOption[],
  seasonOptions: readonly SelectOption[],
  a?: Avatar,
): ActionField[] {
  return [
    { name: "name", label: t("col_name"), initial: a?.name ?? "" },
    {
      name: "status",
      label: t("col_status"),
      type: "select",
      required: true,
      options: statusOptions,
      initial: a?.status || "PUBLIC",
    },
    { name: "tokenCost", label: t("col_tokenCost"), type: "number", initial: String(a?.tokenCost ?? 0) },
    { name: "minPoints", label: t("col_minPoints"), type: "number", initial: String(a?.minPoints ?? 0) },
    {
      name: "seasonId",
      label: t("col_season"),
      type: "select",
      required: true,
      options: [{ value: NO_SEASON, label: t("noSeason") }, ...seasonOptions],
      initial: a?.seasonId || NO_SEASON,
      hint: t("seasonHint"),
    },
    { name: "discordOnly", label: t("field_discordOnly"), type: "checkbox", initial: String(a?.discordOnly ?? false) },
    {
      name: "image",
      label: t("field_image"),
      type: "image",
      hint: a?.imageUrl ? t("field_imageKeepHint") : t("field_imageHint"),
      current: a?.imageUrl || undefined,
    },
  ];
}

/** Avatars of the shop and the seasons. */
export default function AvatarsScreen() {
  const avatars = useClient(AvatarService);
  const { t, date, name, number } = useAdminFormat();
  const statusOptions = useOptions("status", STATUSES);
  const seasons = useSeasons();
  const description = useMemo<ResourceDescription<Avatar>>(
    () => ({
      key: "avatars",
      title: t("section_avatars"),
      rowKey: (a) => a.id,
      rowName: (a) => a.name || a.slug,
      emptyBody: t("emptyBody_avatars"),
      columns: [
        {
          field: "name",
          label: t("col_name"),
          sortable: true,
          fixed: true,
          render: (a) => (
            <NamedImage src={a.imageUrl || undefined}>
              {a.name || <span className="tt-muted">{a.slug}</span>}
            </NamedImage>
          ),
        },
        {
          field: "slug",
          label: t("col_slug"),
          sortable: true,
          render: (a) => <span className="tt-muted">{a.slug}</span>,
        },
        { field: "status", label: t("col_status"), sortable: true, render: (a) => name("status", a.status) },
        {
          field: "tokenCost",
          label: t("col_tokenCost"),
          sortable: true,
          align: "end",
          render: (a) => number(a.tokenCost),
        },
        {
          field: "minPoints",
          label: t("col_minPoints"),
          sortable: true,
          align: "end",
          render: (a) => number(a.minPoints),
        },
        {
          field: "seasonId",
          label: t("col_season"),
          hidden: true,
          render: (a) => (a.seasonId ? (seasons.nameOf(a.seasonId) ?? t("none")) : t("none")),
        },
        {
          field: "createdAt",
          label: t("col_created"),
          sortable: true,
          descFirst: true,
          render: (a) => date(a.createdAt),
        },
      ],
      filters: [
        { id: "name", field: "name", op: "$contL", label: t("col_name") },
        { id: "status", field: "status", op: "$eq", label: t("col_status"), options: statusOptions },
      ],
      listActions: [
        {
          id: "create",
          label: t("action_createAvatar"),
          icon: <ImagePlus />,
          confirmLabel: t("create"),
          fields: [
            { name: "slug", label: t("col_slug"), required: true },
            ...avatarFields(t, statusOptions, seasons.options),
          ],
          run: async (v, files) =>
            avatars.createAvatar({
              slug: v.slug?.trim() ?? "",
              name: v.name ?? "",
              status: v.status ?? "",
              discordOnly: v.discordOnly === "true",
              tokenCost: intOfInput(v.tokenCost) ?? 0,
              minPoints: intOfInput(v.minPoints) ?? 0,
              seasonId: v.seasonId && v.seasonId !== NO_SEASON ? v.seasonId : "",
              ...(files.image ? { image: await uploadOf(files.image) } : {}),
            }),
        },
      ],
      actions: [
        {
          id: "edit",
          label: t("action_edit"),
          icon: <Pencil />,
          confirmLabel: t("save"),
          title: (a) => t("title_edit", { name: a.name || a.slug }),
          fields: (a) => avatarFields(t, statusOptions, seasons.options, a),
          run: async (a, v, files) => {
            const tokenCost = intOfInput(v.tokenCost);
            const minPoints = intOfInput(v.minPoints);
            // Empty inputs leave the avatar's value as it is.
            return avatars.updateAvatar({
              slug: a.slug,
              name: v.name ?? "",
              discordOnly: v.discordOnly === "true",
              ...(v.status ? { status: v.status } : {}),
              ...(tokenCost !== undefined ? { tokenCost } : {}),
              ...(minPoints !== undefined ? { minPoints } : {}),
              ...(v.seasonId && v.seasonId !== NO_SEASON ? { seasonId: v.seasonId } : {}),
              // A new image only when one was chosen: the current one stays otherwise.
              ...(files.image ? { image: await uploadOf(files.image) } : {}),
            });
          },
        },
        {
          id: "delete",
          label: t("action_delete"),
          icon: <Trash />,
          destructive: true,
          question: (a) => t("confirm_delete", { name: a.name || a.slug }),
          run: (a) => avatars.adminDeleteAvatar({ slug: a.slug }),
        },
      ],
      list: async (query) => adminPage(await avatars.adminListAvatars({ query })),
    }),
    [t, date, name, number, avatars, statusOptions, seasons],
  );
  return <ResourceList description={description} />;
}
