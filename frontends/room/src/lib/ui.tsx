import { useAppTranslation, useErrorText } from "@tt/web-kit";
import type { ReactNode } from "react";
import { en, es, ROOM_NAMESPACE } from "../i18n.ts";

export function useRoomT() {
  return useAppTranslation(ROOM_NAMESPACE, { en, es });
}

/** A failed call's text: the server's own message (spec 002 §8), or the generic one. */
export function ErrorMessage({ error }: { error: unknown }) {
  const text = useErrorText();
  if (!error) return null;
  return (
    <p className="tt-error" role="alert">
      {text(error)}
    </p>
  );
}

export function Pager({
  offset,
  limit,
  total,
  onOffset,
}: {
  offset: number;
  limit: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  const { t } = useRoomT();
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1) return null;
  const page = Math.floor(offset / limit) + 1;
  return (
    <nav className="tt-room-pager" aria-label={t("directory.page", { page, pages })}>
      <button
        type="button"
        className="tt-button tt-button--quiet"
        disabled={offset <= 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        {t("directory.previous")}
      </button>
      <span>{t("directory.page", { page, pages })}</span>
      <button
        type="button"
        className="tt-button tt-button--quiet"
        disabled={page >= pages}
        onClick={() => onOffset(offset + limit)}
      >
        {t("directory.next")}
      </button>
    </nav>
  );
}

export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="tt-room-field">
      <span>{label}</span>
      {children}
    </label>
  );
}

/** An <input type="datetime-local"> value as a Date, or undefined when empty or invalid. */
export function dateOfLocalInput(value: string): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
