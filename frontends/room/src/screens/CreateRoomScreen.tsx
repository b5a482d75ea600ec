import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAnalytics, useSession } from "@tt/web-kit";
import { useState, type FormEvent } from "react";
import {
  DEFAULT_DJ_SEATS,
  DJ_TYPES,
  MAX_DJ_SEATS,
  MIN_DJ_SEATS,
  MUSIC_PROVIDERS,
  ROOM_DESIGNS,
  ROOM_TYPES,
  roomKeys,
  useRoomClient,
} from "../api.ts";
import { navigate } from "../lib/router.tsx";
import { ErrorMessage, Field, useRoomT } from "../lib/ui.tsx";

/** "Create a room" with every documented setting of POST /rooms/infrastructure. */
export function CreateRoomScreen() {
  const { t } = useRoomT();
  const { signedIn } = useSession();
  const client = useRoomClient();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [type, setType] = useState("PUBLIC");
  const [design, setDesign] = useState("CLUB");
  const [djType, setDjType] = useState("EVERYONE");
  const [numberOfDjs, setNumberOfDjs] = useState(DEFAULT_DJ_SEATS);
  const [providers, setProviders] = useState<string[]>([]);
  const [externalUrl, setExternalUrl] = useState("");
  const analytics = useAnalytics();
  const create = useMutation({
    mutationFn: () =>
      client.createRoom({
        name: name.trim(),
        description,
        type,
        design,
        djType,
        numberOfDjs,
        musicProviders: providers,
        externalUrl: externalUrl.trim(),
      }),
    onSuccess: async ({ room }) => {
      analytics.track("room-action", { action: "create", roomUuid: room?.uuid ?? "", type, design, djType });
      await queryClient.invalidateQueries({ queryKey: roomKeys.all });
      if (room) navigate(`/r/${encodeURIComponent(room.slug || room.uuid)}`);
    },
  });
  if (!signedIn) {
    return (
      <div className="tt-card tt-empty" role="status">
        <p>{t("create.signIn")}</p>
        <a className="tt-button" href="/login">
          {t("create.signIn")}
        </a>
      </div>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (provider: string, on: boolean) =>
    setProviders((list) => (on ? [...list, provider] : list.filter((p) => p !== provider)));
  return (
    <form className="tt-room-form tt-card" onSubmit={submit} aria-labelledby="create-room-title">
      <h1 id="create-room-title" className="tt-page-title">
        {t("create.title")}
      </h1>
      <Field label={t("create.name")}>
        <input required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label={t("create.description")}>
        <textarea maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <Field label={t("create.type")}>
        <select value={type} onChange={(e) => setType(e.target.value)}>
          {ROOM_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`enum.${value}`, { defaultValue: value })}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("create.design")}>
        <select value={design} onChange={(e) => setDesign(e.target.value)}>
          {ROOM_DESIGNS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("create.djType")}>
        <select value={djType} onChange={(e) => setDjType(e.target.value)}>
          {DJ_TYPES.map((value) => (
            <option key={value} value={value}>
              {t(`enum.${value}`, { defaultValue: value })}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t("create.numberOfDjs", { min: MIN_DJ_SEATS, max: MAX_DJ_SEATS })}>
        <input
          type="number"
          min={MIN_DJ_SEATS}
          max={MAX_DJ_SEATS}
          value={numberOfDjs}
          onChange={(e) => setNumberOfDjs(Number(e.target.value))}
        />
      </Field>
      <fieldset>
        <legend>{t("create.musicProviders")}</legend>
        {MUSIC_PROVIDERS.map((provider) => (
          <label key={provider} className="tt-room-check">
            <input
              type="checkbox"
              checked={providers.includes(provider)}
              onChange={(e) => toggle(provider, e.target.checked)}
            />
            {provider}
          </label>
        ))}
      </fieldset>
      <Field label={t("create.externalUrl")}>
        <input type="url" maxLength={2048} value={externalUrl} onChange={(e) => setExternalUrl(e.target.value)} />
      </Field>
      <ErrorMessage error={create.error} />
      <button type="submit" className="tt-button" disabled={create.isPending}>
        {create.isPending ? t("create.creating") : t("create.submit")}
      </button>
    </form>
  );
}
