import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Player, useAppTranslation, useErrorText, useKit, useSession } from "@tt/web-kit";
import {
  Badge,
  Button,
  buttonClass,
  Card,
  ConfirmDialog,
  EmptyState,
  ErrorMessage,
  IconButton,
  Skeleton,
  Switch,
  toast,
  useFormat,
  useNames,
  type BadgeTone,
} from "@tt/web-kit/ui";
import { FileAudio, Music, Pause, Play, Search, Ticket, Trash2, Upload, UploadCloud } from "lucide-react";
import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type FormEvent,
  type ReactNode,
} from "react";
import { dateOf } from "../lib/names.ts";
import { Link } from "../lib/router.tsx";
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

function useUploadsText() {
  return useAppTranslation(UPLOADS_NAMESPACE, { en, es });
}

function percent(fraction: number): number {
  return Math.round(Math.min(Math.max(fraction, 0), 1) * 100);
}

const STATUS_TONES: Record<string, BadgeTone> = {
  VERIFIED: "success",
  VERIFICATION_ERROR: "danger",
  MISSING_METADATA: "warning",
  VERIFICATION_POSTPONED: "warning",
};

/** A song's status as a badge of the kit's words; the test id marks the current upload's. */
function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const name = useNames();
  return (
    <Badge tone={STATUS_TONES[status] ?? "accent"} data-testid={testId} data-status={status}>
      {name("status", status)}
    </Badge>
  );
}

function ProgressBar({ label, value, text }: { label: string; value: number; text: string }) {
  return (
    <div className="tt-upload-progress">
      <progress className="tt-progress" aria-label={label} max={100} value={value} aria-valuetext={text} />
      <span className="tt-upload-progress__text">{text}</span>
    </div>
  );
}

function sizeOf(bytes: number, number: (value: number) => string): string {
  return bytes >= 1_000_000
    ? `${number(Math.round(bytes / 100_000) / 10)} MB`
    : `${number(Math.ceil(bytes / 1000))} KB`;
}

function UploadForm({
  uploader,
  onUploaded,
  fileInputId,
}: {
  uploader: Uploader;
  onUploaded: (songId: string) => void;
  fileInputId: string;
}) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const format = useFormat();
  const [file, setFile] = useState<File | null>(null);
  const [isPublic, setPublic] = useState(false);
  const [sent, setSent] = useState(0);
  const [missingFile, setMissingFile] = useState(false);
  const [over, setOver] = useState(false);
  const hintId = useId();
  const upload = useMutation({
    mutationFn: (input: { file: File; public: boolean }) => uploader(input, setSent),
    onSuccess: (song, input) => {
      toast({ title: t("form.uploaded", { name: input.file.name }), tone: "success" });
      onUploaded(song.songId);
    },
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
  const choose = (chosen: File | null) => {
    setFile(chosen);
    if (chosen) setMissingFile(false);
  };
  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) choose(dropped);
  };
  return (
    <Card className="tt-upload-form">
      <form onSubmit={submit} noValidate aria-labelledby={`${hintId}-legend`}>
        <h2 id={`${hintId}-legend`} className="tt-section-title">
          {t("form.legend")}
        </h2>
        <div
          className="tt-dropzone"
          data-over={over || undefined}
          data-chosen={file ? true : undefined}
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={drop}
        >
          {file ? <FileAudio aria-hidden="true" /> : <UploadCloud aria-hidden="true" />}
          <label htmlFor={fileInputId} className="tt-dropzone__label">
            {t("form.file")}
          </label>
          <span className="tt-dropzone__text">
            {file ? t("form.chosen", { name: file.name, size: sizeOf(file.size, format.number) }) : t("form.drop")}
          </span>
          <input
            id={fileInputId}
            className="tt-dropzone__input"
            type="file"
            accept="audio/*,.mp3,.flac,.ogg,.wav,.m4a,.aac"
            aria-describedby={hintId}
            aria-invalid={missingFile || undefined}
            disabled={upload.isPending}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
          />
          <span id={hintId} className="tt-field-hint">
            {t("form.fileHint")}
          </span>
        </div>
        {missingFile ? <ErrorMessage>{t("form.noFile")}</ErrorMessage> : null}
        <div className="tt-upload-form__footer">
          <Switch label={t("form.public")} checked={isPublic} onCheckedChange={setPublic} disabled={upload.isPending} />
          <Button type="submit" icon={<Upload aria-hidden="true" />} busy={upload.isPending}>
            {t("form.submit")}
          </Button>
        </div>
        {upload.isPending || (upload.isSuccess && sent > 0) ? (
          <ProgressBar
            label={t("progress.upload")}
            value={percent(sent)}
            text={t("progress.uploadValue", { percent: percent(sent) })}
          />
        ) : null}
        {upload.isError ? <ErrorMessage>{errorText(upload.error)}</ErrorMessage> : null}
      </form>
    </Card>
  );
}

// The details form comes with the kit's form entry (react-hook-form and zod), fetched when a song needs it.
const MetadataForm = lazy(() => import("./MetadataForm.tsx").then((m) => ({ default: m.MetadataForm })));

function nameOf(t: (key: string) => string, song: UploadedSong): string {
  return song.trackName || t("list.untitled");
}

/** The song being uploaded: its status as it is checked and packaged, its missing details, then its preview. */
function CurrentUpload({ songId, onPreview }: { songId: string; onPreview: (song: UploadedSong) => void }) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const { data: song, error } = useUploadedSong(songId);
  const status = song?.status;
  const seen = useRef(status);
  useEffect(() => {
    // A song that settles while watched is told as a toast: ready, or failed.
    const before = seen.current;
    seen.current = status;
    if (!song || before === undefined || before === status) return;
    if (status === "VERIFIED") toast({ title: t("current.ready", { name: nameOf(t, song) }), tone: "success" });
    if (status === "VERIFICATION_ERROR")
      toast({ title: t("current.failed", { name: nameOf(t, song) }), tone: "error" });
  }, [status, song, t]);
  if (error) return <ErrorMessage>{errorText(error)}</ErrorMessage>;
  if (!song) {
    return (
      <Card className="tt-upload-current" aria-hidden="true">
        <Skeleton width="12rem" height="1.25rem" />
        <Skeleton width="60%" height="1rem" />
      </Card>
    );
  }
  return (
    <Card className="tt-upload-current" aria-labelledby="tt-upload-current-title">
      <div className="tt-upload-current__head">
        <h2 id="tt-upload-current-title" className="tt-section-title">
          {t("current.title")}
        </h2>
        <StatusBadge status={song.status} testId="upload-status" />
      </div>
      <p className="tt-upload-current__song">
        <strong>{nameOf(t, song)}</strong>
        {song.artistName ? <span className="tt-muted"> · {song.artistName}</span> : null}
      </p>
      {song.statusMessage ? <p className="tt-muted">{song.statusMessage}</p> : null}
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
          <Suspense fallback={<Skeleton height="9rem" radius="var(--tt-radius)" />}>
            <MetadataForm key={song.songId.toString()} song={song} />
          </Suspense>
        </>
      ) : null}
      {song.status === "VERIFIED" ? (
        <div className="tt-upload-current__done">
          <p>{t("current.done", { name: nameOf(t, song) })}</p>
          <Button icon={<Play aria-hidden="true" />} onClick={() => onPreview(song)}>
            {t("list.preview", { name: nameOf(t, song) })}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}

function RemoveUpload({ song, onRemoved }: { song: UploadedSong; onRemoved: () => void }) {
  const { t } = useUploadsText();
  const client = useSongClient();
  const queryClient = useQueryClient();
  const userUuid = useSession().user?.uuid ?? "";
  const name = nameOf(t, song);
  return (
    <ConfirmDialog
      trigger={<IconButton size="sm" label={t("list.remove", { name })} icon={<Trash2 aria-hidden="true" />} />}
      title={t("list.removeTitle", { name })}
      description={t("list.removeBody")}
      confirmLabel={t("list.removeConfirm")}
      tone="danger"
      successMessage={t("list.removed", { name })}
      onConfirm={async () => {
        await client.deleteSong({ id: song.songId });
        onRemoved();
        await queryClient.invalidateQueries({ queryKey: uploadKeys.list(userUuid) });
      }}
    />
  );
}

function ListSkeleton() {
  return (
    <div className="tt-song-skeletons" aria-hidden="true">
      {Array.from({ length: 3 }, (_, index) => (
        <div key={index} className="tt-song tt-song--skeleton">
          <Skeleton width="2.5rem" height="2.5rem" radius="4px" />
          <span className="tt-song__text">
            <Skeleton width="40%" height="0.95rem" />
            <Skeleton width="25%" height="0.8rem" />
          </span>
        </div>
      ))}
    </div>
  );
}

function UploadList({
  previewing,
  onPreview,
  onComplete,
  onRemoved,
  emptyAction,
  hideWhenEmpty,
}: {
  previewing: string | null;
  onPreview: (song: UploadedSong | null) => void;
  onComplete: (songId: string) => void;
  onRemoved: (songId: string) => void;
  emptyAction: ReactNode;
  /** Someone who cannot upload has no use for an empty list (the screen already says what to do). */
  hideWhenEmpty: boolean;
}) {
  const { t } = useUploadsText();
  const errorText = useErrorText();
  const format = useFormat();
  const list = useUploadedSongs();
  const songs = useMemo(() => list.data?.pages.flatMap((page) => page.songs) ?? [], [list.data]);
  const total = list.data?.pages.at(-1)?.total ?? 0;
  if (hideWhenEmpty && (list.isPending || (list.isSuccess && songs.length === 0))) return null;
  return (
    <section className="tt-upload-list" aria-labelledby="tt-upload-list-title">
      <h2 id="tt-upload-list-title" className="tt-section-title">
        {t("list.title")}
      </h2>
      {list.isPending ? <ListSkeleton /> : null}
      {list.isError ? (
        <div className="tt-stack">
          <ErrorMessage>{errorText(list.error)}</ErrorMessage>
          <div>
            <Button variant="secondary" onClick={() => void list.refetch()}>
              {t("retry")}
            </Button>
          </div>
        </div>
      ) : null}
      {list.isSuccess && songs.length === 0 ? (
        <EmptyState headingLevel={3} icon={<Music />} title={t("list.emptyTitle")} action={emptyAction}>
          {t("list.emptyBody")}
        </EmptyState>
      ) : null}
      {songs.length > 0 ? (
        <ul aria-label={t("list.label")} className="tt-song-list">
          {songs.map((song) => {
            const id = song.songId.toString();
            const name = nameOf(t, song);
            const uploaded = dateOf(song.createdAt);
            return (
              <li key={id} className="tt-song tt-upload-song">
                <span className="tt-art tt-art--song tt-art--empty" aria-hidden="true">
                  <Music />
                </span>
                <span className="tt-song__text">
                  <strong className="tt-song__title">{name}</strong>
                  <span className="tt-song__artist">
                    {song.artistName || t("list.unknownArtist")}
                    {uploaded ? ` · ${t("list.uploadedAt", { when: format.relative(uploaded) })}` : ""}
                  </span>
                </span>
                {song.public ? <Badge>{t("list.public")}</Badge> : null}
                <StatusBadge status={song.status} />
                <span className="tt-song__duration">{song.duration > 0 ? format.duration(song.duration) : ""}</span>
                <span className="tt-song__actions">
                  {song.status === "VERIFIED" ? (
                    previewing === id ? (
                      <IconButton
                        size="sm"
                        variant="secondary"
                        label={t("list.stopPreview")}
                        icon={<Pause aria-hidden="true" />}
                        onClick={() => onPreview(null)}
                      />
                    ) : (
                      <IconButton
                        size="sm"
                        label={t("list.preview", { name })}
                        icon={<Play aria-hidden="true" />}
                        onClick={() => onPreview(song)}
                      />
                    )
                  ) : null}
                  {song.status === "MISSING_METADATA" ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t("list.complete", { name })}
                      onClick={() => onComplete(id)}
                    >
                      {t("list.completeShort")}
                    </Button>
                  ) : null}
                  <RemoveUpload song={song} onRemoved={() => onRemoved(id)} />
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {songs.length > 0 ? <p className="tt-muted">{t("list.count", { loaded: songs.length, total })}</p> : null}
      {list.hasNextPage ? (
        <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t("list.more")}
        </Button>
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
  const fileInputId = useId();
  const searchLink = (
    <Link to="/search" className={buttonClass("secondary")}>
      <Search aria-hidden="true" />
      {t("searchAction")}
    </Link>
  );
  return (
    <section className="tt-uploads" aria-labelledby="tt-uploads-title">
      <header>
        <h1 id="tt-uploads-title" className="tt-page-title">
          {t("title")}
        </h1>
        {canUpload.data === true ? <p className="tt-muted">{t("intro")}</p> : null}
      </header>
      {canUpload.isPending ? (
        <Card aria-hidden="true">
          <Skeleton height="8rem" radius="var(--tt-radius)" />
        </Card>
      ) : null}
      {canUpload.isError ? <ErrorMessage>{errorText(canUpload.error)}</ErrorMessage> : null}
      {canUpload.data === false ? (
        <EmptyState
          icon={<Upload />}
          title={t("noCapabilityTitle")}
          action={
            <span className="tt-uploads__next">
              {/* The shell's page: a plain link, the remote does not depend on the shell's router. */}
              <a className={buttonClass("primary")} href="/vouchers">
                <Ticket aria-hidden="true" />
                {t("voucherAction")}
              </a>
              {searchLink}
            </span>
          }
        >
          {t("noCapabilityBody")}
        </EmptyState>
      ) : null}
      {canUpload.data === true ? (
        <>
          <UploadForm uploader={send} onUploaded={setCurrent} fileInputId={fileInputId} />
          {current ? <CurrentUpload key={current} songId={current} onPreview={setPreview} /> : null}
        </>
      ) : null}
      {preview && playable ? (
        <Card className="tt-upload-player">
          <Player song={playable} label={t("player", { name: nameOf(t, preview) })} />
        </Card>
      ) : null}
      <UploadList
        previewing={preview?.songId.toString() ?? null}
        onPreview={setPreview}
        onComplete={setCurrent}
        hideWhenEmpty={canUpload.data !== true}
        onRemoved={(id) => {
          if (current === id) setCurrent(null);
          if (preview?.songId.toString() === id) setPreview(null);
        }}
        emptyAction={
          canUpload.data === true ? (
            <Button icon={<Upload aria-hidden="true" />} onClick={() => document.getElementById(fileInputId)?.click()}>
              {t("list.uploadAction")}
            </Button>
          ) : (
            searchLink
          )
        }
      />
    </section>
  );
}
