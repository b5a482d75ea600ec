import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Player, useAppTranslation, useErrorText, useKit, useSession } from "@tt/web-kit";
import { useId, useMemo, useState, type FormEvent } from "react";
import { en, es, UPLOADS_NAMESPACE } from "./i18n.ts";
import {
  playableOf,
  uploadKeys,
  useCanUpload,
  useSongClient,
  useUploadedSong,
  useUploadedSongs,
  type UploadedSong,
} from "./songs.ts";
import { createXhrUploader, type Uploader } from "./upload-client.ts";
import "./uploads.css";

/** Longest duration the upload service takes (seconds): 3 hours. */
const MAX_DURATION_S = 3 * 60 * 60;

function useUploadsText() {
  return useAppTranslation(UPLOADS_NAMESPACE, { en, es });
}

function percent(fraction: number): number {
  return Math.round(Math.min(Math.max(fraction, 0), 1) * 100);
}

function ProgressBar({ label, value, text }: { label: string; value: number; text: string }) {
  return (
    <div className="tt-upload-progress">
      <progress aria-label={label} max={100} value={value} aria-valuetext={text} />
      <span className="tt-muted">{text}</span>
    </div>
  );
}

function UploadForm({ uploader, onUploaded }: { uploader: Uploader; onUploaded: (songId: string) => void }) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const [file, setFile] = useState<File | null>(null);
  const [isPublic, setPublic] = useState(false);
  const [sent, setSent] = useState(0);
  const [missingFile, setMissingFile] = useState(false);
  const fileId = useId();
  const upload = useMutation({
    mutationFn: (input: { file: File; public: boolean }) => uploader(input, setSent),
    onSuccess: (song) => onUploaded(song.songId),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setMissingFile(true);
      return;
    }
    setMissingFile(false);
    setSent(0);
    upload.mutate({ file, public: isPublic });
  };
  return (
    <form className="tt-card tt-upload-form" onSubmit={submit} noValidate>
      <fieldset disabled={upload.isPending}>
        <legend>{t("form.legend")}</legend>
        <div className="tt-field">
          <label htmlFor={fileId}>{t("form.file")}</label>
          <input
            id={fileId}
            type="file"
            accept="audio/*,.mp3,.flac,.ogg,.wav,.m4a,.aac"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </div>
        <label className="tt-upload-check">
          <input type="checkbox" checked={isPublic} onChange={(event) => setPublic(event.target.checked)} />{" "}
          {t("form.public")}
        </label>
        <button type="submit" className="tt-button">
          {upload.isPending ? t("form.uploading") : t("form.submit")}
        </button>
      </fieldset>
      {upload.isPending || (upload.isSuccess && sent > 0) ? (
        <ProgressBar
          label={t("progress.upload")}
          value={percent(sent)}
          text={t("progress.uploadValue", { percent: percent(sent) })}
        />
      ) : null}
      {missingFile ? (
        <p role="alert" className="tt-error">
          {t("form.noFile")}
        </p>
      ) : null}
      {upload.isError ? (
        <p role="alert" className="tt-error">
          {errorText(upload.error)}
        </p>
      ) : null}
    </form>
  );
}

function statusText(t: (key: string) => string, status: string): string {
  return t(`status.${status}`) === `status.${status}` ? t("status.unknown") : t(`status.${status}`);
}

function MetadataForm({ song }: { song: UploadedSong }) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const client = useSongClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const [trackName, setTrackName] = useState(song.trackName);
  const [artistName, setArtistName] = useState(song.artistName);
  const [duration, setDuration] = useState(song.duration > 0 ? String(Math.round(song.duration)) : "");
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { track: useId(), artist: useId(), duration: useId(), hint: useId() };
  const save = useMutation({
    mutationFn: (patch: { trackName: string; artistName: string; duration: number }) =>
      client.updateMetadata({ songId: song.songId, ...patch }),
    onSuccess: ({ song: saved }) => {
      if (saved) queryClient.setQueryData(uploadKeys.song(userUuid, saved.songId.toString()), saved);
      void queryClient.invalidateQueries({ queryKey: uploadKeys.all(userUuid) });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seconds = Number(duration);
    if (!trackName.trim() || !artistName.trim()) return setProblem(t("metadata.required"));
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_DURATION_S) {
      return setProblem(t("metadata.invalidDuration"));
    }
    setProblem(null);
    save.mutate({ trackName: trackName.trim(), artistName: artistName.trim(), duration: seconds });
  };
  return (
    <form className="tt-upload-metadata" onSubmit={submit} noValidate>
      <fieldset disabled={save.isPending}>
        <legend>{t("metadata.legend")}</legend>
        <div className="tt-field">
          <label htmlFor={ids.track}>{t("metadata.trackName")}</label>
          <input id={ids.track} value={trackName} maxLength={200} onChange={(e) => setTrackName(e.target.value)} />
        </div>
        <div className="tt-field">
          <label htmlFor={ids.artist}>{t("metadata.artistName")}</label>
          <input id={ids.artist} value={artistName} maxLength={200} onChange={(e) => setArtistName(e.target.value)} />
        </div>
        <div className="tt-field">
          <label htmlFor={ids.duration}>{t("metadata.duration")}</label>
          <input
            id={ids.duration}
            inputMode="decimal"
            value={duration}
            aria-describedby={ids.hint}
            onChange={(e) => setDuration(e.target.value)}
          />
          <small id={ids.hint} className="tt-field-hint">
            {t("metadata.durationHint")}
          </small>
        </div>
        <button type="submit" className="tt-button">
          {save.isPending ? t("metadata.saving") : t("metadata.submit")}
        </button>
      </fieldset>
      {problem || save.isError ? (
        <p role="alert" className="tt-error">
          {problem ?? errorText(save.error)}
        </p>
      ) : null}
    </form>
  );
}

function nameOf(t: (key: string) => string, song: UploadedSong): string {
  return song.trackName || t("list.untitled");
}

function CurrentUpload({ songId, onPreview }: { songId: string; onPreview: (song: UploadedSong) => void }) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const { data: song, error } = useUploadedSong(songId);
  if (error) {
    return (
      <p role="alert" className="tt-error">
        {errorText(error)}
      </p>
    );
  }
  if (!song) return <p className="tt-loading">{t("loading")}</p>;
  return (
    <section className="tt-card tt-upload-current" aria-labelledby="tt-upload-current-title">
      <h2 id="tt-upload-current-title">{t("current.title")}</h2>
      <p>
        <strong>{nameOf(t, song)}</strong>
        {song.artistName ? ` · ${song.artistName}` : ""}
      </p>
      <p role="status" data-testid="upload-status" data-status={song.status}>
        {statusText(t, song.status)}
        {song.statusMessage ? ` (${song.statusMessage})` : ""}
      </p>
      {song.status === "UNVERIFIED" || song.status === "VERIFICATION_POSTPONED" || song.status === "VERIFIED" ? (
        <ProgressBar
          label={t("progress.packaging")}
          value={song.progress}
          text={t("progress.packagingValue", { percent: song.progress })}
        />
      ) : null}
      {song.status === "MISSING_METADATA" ? (
        <>
          <p className="tt-muted">{t("current.missing")}</p>
          <MetadataForm key={song.songId.toString()} song={song} />
        </>
      ) : null}
      {song.status === "VERIFIED" ? (
        <p>
          {t("current.done", { name: nameOf(t, song) })}{" "}
          <button type="button" className="tt-button" onClick={() => onPreview(song)}>
            {t("list.preview", { name: nameOf(t, song) })}
          </button>
        </p>
      ) : null}
    </section>
  );
}

function UploadList({
  previewing,
  onPreview,
  onComplete,
}: {
  previewing: string | null;
  onPreview: (song: UploadedSong | null) => void;
  onComplete: (songId: string) => void;
}) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const list = useUploadedSongs();
  const songs = useMemo(() => list.data?.pages.flatMap((page) => page.songs) ?? [], [list.data]);
  const total = list.data?.pages.at(-1)?.total ?? 0;
  return (
    <section className="tt-upload-list" aria-labelledby="tt-upload-list-title">
      <h2 id="tt-upload-list-title">{t("list.title")}</h2>
      {list.isPending ? <p className="tt-loading">{t("loading")}</p> : null}
      {list.isError ? (
        <p role="alert" className="tt-error">
          {errorText(list.error)}{" "}
          <button type="button" className="tt-button" onClick={() => void list.refetch()}>
            {t("retry")}
          </button>
        </p>
      ) : null}
      {list.isSuccess && songs.length === 0 ? <p className="tt-muted">{t("list.empty")}</p> : null}
      {songs.length > 0 ? (
        <ul aria-label={t("list.label")} className="tt-upload-songs">
          {songs.map((song) => {
            const id = song.songId.toString();
            const name = nameOf(t, song);
            return (
              <li key={id} className="tt-upload-song">
                <span className="tt-upload-song-name">
                  <strong>{name}</strong> · {song.artistName || t("list.unknownArtist")}
                </span>
                <span className="tt-muted" data-status={song.status}>
                  {statusText(t, song.status)}
                </span>
                {song.status === "VERIFIED" ? (
                  previewing === id ? (
                    <button type="button" className="tt-button" onClick={() => onPreview(null)}>
                      {t("list.stopPreview")}
                    </button>
                  ) : (
                    <button type="button" className="tt-button" onClick={() => onPreview(song)}>
                      {t("list.preview", { name })}
                    </button>
                  )
                ) : null}
                {song.status === "MISSING_METADATA" ? (
                  <button type="button" className="tt-button" onClick={() => onComplete(id)}>
                    {t("list.complete", { name })}
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {songs.length > 0 ? <p className="tt-muted">{t("list.count", { loaded: songs.length, total })}</p> : null}
      {list.hasNextPage ? (
        <button
          type="button"
          className="tt-button"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
        >
          {t("list.more")}
        </button>
      ) : null}
    </section>
  );
}

export interface UploadsScreenProps {
  /** How files are sent (tests pass a fake; the page uses XMLHttpRequest for its progress events). */
  uploader?: Uploader;
}

/** Upload a song, follow its upload and packaging, complete its details, preview it with the kit's player. */
export function UploadsScreen({ uploader }: UploadsScreenProps) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const kit = useKit();
  const send = useMemo(() => uploader ?? createXhrUploader(kit), [uploader, kit]);
  const canUpload = useCanUpload();
  const [current, setCurrent] = useState<string | null>(null);
  const [preview, setPreview] = useState<UploadedSong | null>(null);
  const playable = useMemo(() => (preview ? playableOf(preview) : null), [preview]);
  return (
    <section className="tt-uploads" aria-labelledby="tt-uploads-title">
      <h1 id="tt-uploads-title" className="tt-page-title">
        {t("title")}
      </h1>
      {canUpload.isPending ? <p className="tt-loading">{t("loading")}</p> : null}
      {canUpload.isError ? (
        <p role="alert" className="tt-error">
          {errorText(canUpload.error)}
        </p>
      ) : null}
      {canUpload.data === false ? (
        <div className="tt-card tt-empty" role="status">
          <h2>{t("noCapabilityTitle")}</h2>
          <p className="tt-muted">{t("noCapabilityBody")}</p>
        </div>
      ) : null}
      {canUpload.data === true ? (
        <>
          <p className="tt-muted">{t("intro")}</p>
          <UploadForm uploader={send} onUploaded={setCurrent} />
          {current ? <CurrentUpload key={current} songId={current} onPreview={setPreview} /> : null}
        </>
      ) : null}
      {preview && playable ? (
        <div className="tt-card tt-upload-player">
          <Player song={playable} label={t("player", { name: nameOf(t, preview) })} />
        </div>
      ) : null}
      <UploadList previewing={preview?.songId.toString() ?? null} onPreview={setPreview} onComplete={setCurrent} />
    </section>
  );
}
