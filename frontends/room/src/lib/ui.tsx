import { useAppTranslation, useErrorText } from "@tt/web-kit";
import { Button, Card, ErrorMessage as KitErrorMessage, Skeleton } from "@tt/web-kit/ui";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { en, es, ROOM_NAMESPACE } from "../i18n.ts";

export function useRoomT() {
  return useAppTranslation(ROOM_NAMESPACE, { en, es });
}

/** A failed call's text: the server's own message (spec 002 §8), or the generic one. Nothing without an error. */
export function ErrorText({ error }: { error: unknown }) {
  const text = useErrorText();
  if (!error) return null;
  return <KitErrorMessage>{text(error)}</KitErrorMessage>;
}

/** The same, under its earlier name (the live room's queue panel uses it). */
export const ErrorMessage = ErrorText;

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
    <nav className="tt-pager tt-room-pager" aria-label={t("directory.pages")}>
      <Button
        variant="secondary"
        size="sm"
        icon={<ChevronLeft aria-hidden="true" />}
        disabled={offset <= 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        {t("directory.previous")}
      </Button>
      <span aria-current="page">{t("directory.page", { page, pages })}</span>
      <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onOffset(offset + limit)}>
        {t("directory.next")}
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}

/** Cards in the shape of the room cards, while a list loads. */
export function CardGridSkeleton({ count = 6, label }: { count?: number; label: string }) {
  return (
    <div className="tt-room-grid" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: count }, (_, index) => (
        <Card key={index} className="tt-room-card tt-room-card--skeleton">
          <Skeleton height="5.5rem" radius="var(--tt-radius)" />
          <Skeleton width="35%" height="1.1rem" />
          <Skeleton width="70%" height="1.25rem" />
          <Skeleton width="90%" />
        </Card>
      ))}
    </div>
  );
}

/** An <input type="datetime-local"> value as a Date, or undefined when empty or invalid. */
export function dateOfLocalInput(value: string): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A crate, community or room link pasted whole, or just its id: the last path segment. */
export function idOfLinkOrId(value: string): string {
  const trimmed = value.trim();
  try {
    const url = new URL(trimmed);
    return decodeURIComponent(url.pathname.split("/").filter(Boolean).at(-1) ?? "");
  } catch {
    return trimmed;
  }
}
