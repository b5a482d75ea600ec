// The song details form of an upload (title, artist, duration), a chunk of its own with the kit's form entry.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppTranslation, useSession } from "@tt/web-kit";
import { FormError, TextField, useServerErrors, useZodForm, z } from "@tt/web-kit/form";
import { Button, toast, useFormat } from "@tt/web-kit/ui";
import { useId } from "react";
import { MAX_DURATION_S, parseDuration } from "./duration.ts";
import { en, es, UPLOADS_NAMESPACE } from "./i18n.ts";
import { uploadKeys, useSongClient, type UploadedSong } from "./songs.ts";

export function MetadataForm({ song }: { song: UploadedSong }) {
  const { t } = useAppTranslation(UPLOADS_NAMESPACE, { en, es });
  const format = useFormat();
  const client = useSongClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const formId = useId();
  const schema = z.object({
    trackName: z.string().trim().min(1, t("metadata.titleRequired")).max(200),
    artistName: z.string().trim().min(1, t("metadata.artistRequired")).max(200),
    duration: z.string().refine((text) => {
      const seconds = parseDuration(text);
      return seconds !== undefined && seconds > 0 && seconds <= MAX_DURATION_S;
    }, t("metadata.invalidDuration")),
  });
  const form = useZodForm(schema, {
    defaultValues: {
      trackName: song.trackName,
      artistName: song.artistName,
      duration: song.duration > 0 ? format.duration(song.duration) : "",
    },
  });
  const { formError, fail } = useServerErrors(form);
  const save = useMutation({
    mutationFn: (patch: { trackName: string; artistName: string; duration: number }) =>
      client.updateMetadata({ songId: song.songId, ...patch }),
    onSuccess: ({ song: saved }, patch) => {
      if (saved) queryClient.setQueryData(uploadKeys.song(userUuid, saved.songId.toString()), saved);
      toast({ title: t("metadata.saved", { name: patch.trackName }), tone: "success" });
      void queryClient.invalidateQueries({ queryKey: uploadKeys.all(userUuid) });
    },
    onError: fail,
  });
  return (
    <form
      id={formId}
      className="tt-upload-metadata"
      noValidate
      aria-labelledby={`${formId}-legend`}
      onSubmit={form.handleSubmit((values) =>
        save.mutate({ ...values, duration: parseDuration(values.duration) ?? 0 }),
      )}
    >
      <h3 id={`${formId}-legend`} className="tt-upload-metadata__title">
        {t("metadata.legend")}
      </h3>
      <div className="tt-upload-metadata__fields">
        <TextField form={form} name="trackName" label={t("metadata.trackName")} maxLength={200} />
        <TextField form={form} name="artistName" label={t("metadata.artistName")} maxLength={200} />
        <TextField
          form={form}
          name="duration"
          label={t("metadata.duration")}
          hint={t("metadata.durationHint")}
          inputMode="numeric"
          placeholder="3:25"
        />
      </div>
      <FormError message={formError} />
      <Button type="submit" busy={save.isPending}>
        {t("metadata.submit")}
      </Button>
    </form>
  );
}
