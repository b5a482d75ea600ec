import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAnalytics, useSession } from "@tt/web-kit";
import { FormError, SelectField, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Button, buttonClass, Card, EmptyState, toast, useNameOptions } from "@tt/web-kit/ui";
import { LogIn, Plus } from "lucide-react";
import { useMemo } from "react";
import {
  DEFAULT_DJ_SEATS,
  DJ_TYPES,
  MAX_DJ_SEATS,
  MIN_DJ_SEATS,
  ROOM_DESIGNS,
  ROOM_TYPES,
  roomKeys,
  useRoomClient,
} from "../api.ts";
import { NumberField, ProvidersField, TextAreaField } from "../lib/forms.tsx";
import { navigate } from "../lib/router.tsx";
import { useRoomT } from "../lib/ui.tsx";

type T = ReturnType<typeof useRoomT>["t"];

/** The rules of a room's fields, with their messages in the page's language (the server checks them again). */
export function roomFieldRules(t: T) {
  return {
    name: z
      .string()
      .trim()
      .min(1, t("form.nameRequired"))
      .max(80, t("form.tooLong", { max: 80 })),
    description: z.string().max(2000, t("form.tooLong", { max: 2000 })),
    numberOfDjs: z
      .number({ error: t("form.seatsRange", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS }) })
      .int(t("form.seatsRange", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS }))
      .min(MIN_DJ_SEATS, t("form.seatsRange", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS }))
      .max(MAX_DJ_SEATS, t("form.seatsRange", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS })),
    externalUrl: z
      .string()
      .trim()
      .max(2048, t("form.tooLong", { max: 2048 }))
      .refine((value) => value === "" || /^https?:\/\/[^\s]+$/i.test(value), t("form.url")),
  };
}

/** "Create a room" with every documented setting of POST /rooms/infrastructure. */
export function CreateRoomScreen() {
  const { t } = useRoomT();
  const { signedIn } = useSession();
  if (!signedIn) {
    return (
      <div className="tt-room-narrow">
        <h1 className="tt-page-title">{t("create.title")}</h1>
        <EmptyState
          icon={<LogIn />}
          title={t("create.signIn")}
          action={
            <a className={buttonClass("primary")} href="/login">
              {t("directory.signIn")}
            </a>
          }
        >
          {t("create.signInHint")}
        </EmptyState>
      </div>
    );
  }
  return <CreateRoomForm />;
}

function CreateRoomForm() {
  const { t } = useRoomT();
  const client = useRoomClient();
  const queryClient = useQueryClient();
  const analytics = useAnalytics();
  const schema = useMemo(() => {
    const rules = roomFieldRules(t);
    return z.object({
      name: rules.name,
      description: rules.description,
      type: z.string(),
      design: z.string(),
      djType: z.string(),
      numberOfDjs: rules.numberOfDjs,
      musicProviders: z.array(z.string()),
      externalUrl: rules.externalUrl,
    });
  }, [t]);
  const form = useZodForm(schema, {
    defaultValues: {
      name: "",
      description: "",
      type: "PUBLIC",
      design: "CLUB",
      djType: "EVERYONE",
      numberOfDjs: DEFAULT_DJ_SEATS,
      musicProviders: [],
      externalUrl: "",
    },
  });
  const { formError, fail, clear } = useServerErrors(form);
  const types = useNameOptions("roomType", ROOM_TYPES);
  const designs = useNameOptions("design", ROOM_DESIGNS);
  const djTypes = useNameOptions("djType", DJ_TYPES);
  const create = useMutation({
    mutationFn: (values: z.output<typeof schema>) => client.createRoom(values),
    onMutate: clear,
    onError: fail,
    onSuccess: async ({ room }, values) => {
      analytics.track("room-action", {
        action: "create",
        roomUuid: room?.uuid ?? "",
        type: values.type,
        design: values.design,
        djType: values.djType,
      });
      toast({ title: t("create.created", { name: room?.name ?? values.name }), tone: "success" });
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
      if (room) navigate(`/r/${encodeURIComponent(room.slug || room.uuid)}`);
    },
  });
  return (
    <div className="tt-room-narrow">
      <h1 id="create-room-title" className="tt-page-title">
        {t("create.title")}
      </h1>
      <p className="tt-muted tt-room-head__lead">{t("create.lead")}</p>
      <Card>
        <form
          className="tt-room-form"
          aria-labelledby="create-room-title"
          noValidate
          onSubmit={form.handleSubmit((values) => create.mutate(values))}
        >
          <TextField form={form} name="name" label={t("create.name")} maxLength={80} autoComplete="off" />
          <TextAreaField
            form={form}
            name="description"
            label={t("create.description")}
            hint={t("create.descriptionHint")}
            rows={3}
            maxLength={2000}
          />
          <div className="tt-room-form__grid">
            <SelectField form={form} name="type" label={t("create.type")} options={types} />
            <SelectField form={form} name="djType" label={t("create.djType")} options={djTypes} />
            <SelectField form={form} name="design" label={t("create.design")} options={designs} />
            <NumberField
              form={form}
              name="numberOfDjs"
              label={t("create.numberOfDjs", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS })}
              min={MIN_DJ_SEATS}
              max={MAX_DJ_SEATS}
            />
          </div>
          <ProvidersField
            form={form}
            name="musicProviders"
            legend={t("create.musicProviders")}
            hint={t("create.musicProvidersHint")}
          />
          <TextField
            form={form}
            name="externalUrl"
            type="url"
            label={t("create.externalUrl")}
            hint={t("create.externalUrlHint")}
            maxLength={2048}
            placeholder="https://"
          />
          <FormError message={formError} />
          <div className="tt-room-form__actions">
            <Button type="submit" icon={<Plus aria-hidden="true" />} busy={create.isPending}>
              {t("create.submit")}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}
